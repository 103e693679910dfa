"""The real-time screen: work that serves requests or needs a latency guarantee
stays on the team's own systems; the network runs batch jobs that finish.

Batch jobs often start a model server for themselves (a local vLLM endpoint that
a batch client calls, then stops). That is not serving: what matters is whether
the script ends with a server still in the foreground."""

import re

# Commands that start something which answers requests instead of finishing.
SERVING_PATTERNS = [
    (r"vllm\.entrypoints|\bvllm\s+serve\b", "starts a vLLM API server"),
    (r"\bapi_server\b", "starts an API server"),
    (r"^\s*(?:python\S*\s+-m\s+)?(?:uvicorn|gunicorn|hypercorn)\s", "starts a web server"),
    (r"\bgradio\b|gradio_\w+|\bstreamlit\s+run\b", "starts an interactive web app"),
    (r"\bflask\s+run\b|\bmanage\.py\s+runserver\b|web_?server\b", "starts a web server"),
    (r"\btritonserver\b|\btorchserve\b|\btext-generation-launcher\b", "starts a model server"),
    (r"\bsglang\.launch_server\b|\bollama\s+serve\b", "starts a model server"),
    (r"\bhttp\.server\b|\bjupyter(?:-|\s+)(?:lab|notebook)\b", "starts a web server"),
    (r"\bray\s+serve\b|\bserve\s+run\b|\bbentoml\s+serve\b", "starts a model server"),
    # A database or a remote editor kept in the foreground answers others until it is stopped.
    (r"\bmysqld(?:_safe)?\b|\bmariadbd\b|\bmongod\b|\bredis-server\b", "starts a database server"),
    (r"\bcode(?:-insiders)?\s+tunnel\b|\bcode-server\b", "starts a remote editor"),
]
STOPS_IT = re.compile(r"\b(?:pkill|kill|killall)\b|\bstop\b", re.IGNORECASE)
NOT_A_STEP = re.compile(r"^\s*(?:#|echo\b|done\b|fi\b|esac\b|\}|\)|$)")

ADVICE = (
    "Keep this part on your own systems: the network runs batch work that finishes on its own, "
    "not services that answer requests. If the job has a batch part (e.g. precomputing embeddings "
    "or a nightly re-index), describe that part alone."
)


def serving_signals(*texts):
    """Reasons, from command text, to think the work starts a server."""
    reasons = []
    joined = "\n".join(t for t in texts if t)
    for pattern, reason in SERVING_PATTERNS:
        if re.search(pattern, joined, flags=re.IGNORECASE | re.MULTILINE) and reason not in reasons:
            reasons.append(reason)
    return reasons


# A last step that never returns: the script keeps whatever it started running.
WAITS_FOREVER = re.compile(
    r"^\s*(?:sleep\s+inf(?:inity)?|tail\s+-f\s+/dev/null|wait)\s*;?\s*$|"
    r"^\s*while\s+(?:true|:)\s*;\s*do\s+sleep\b",
    re.IGNORECASE,
)


def ends_serving(command):
    """True when the script leaves a server running instead of finishing: its last step is
    a server in the foreground, or a wait that never ends after a server was started."""
    if not command or STOPS_IT.search(command):
        return False
    steps = [line for line in _logical_lines(command) if not NOT_A_STEP.match(line)]
    if not steps:
        return False
    last = steps[-1]
    if WAITS_FOREVER.search(last):
        return any(serving_signals(step) for step in steps[:-1])
    if re.search(r"&\s*$", last) and not re.search(r"&&\s*$", last):
        return False  # started in the background; the script then ends
    return bool(serving_signals(last))


def _logical_lines(command):
    return command.replace("\\\n", " ").splitlines()
