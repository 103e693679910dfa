"""The real-time screen: work that serves requests or needs a latency guarantee
stays on the team's own systems; the network runs batch jobs that finish.

Batch jobs often start a model server for themselves (a local vLLM endpoint that
a batch client calls, then stops). That is not serving: what matters is whether
the script ends with a server still in the foreground."""

import itertools
import re

from .envs import script_variables
from .textio import head_and_tail

# Where a program's name starts a command: a line, after a separator, or after a wrapper.
COMMAND_START = r"(?:^|[;&|(]\s*|\b(?:exec|srun|nohup|time|sudo)\s+)(?:[\w.~-]*/)*"

# A container runtime's options and their values up to a database's own image (never past
# a word holding another runtime's name, so that each one is read once on a long line); the image (quoted or
# not) up to where its name ends; the servers such an image holds.
_RUNTIME_WORDS = r"(?:\s++(?![\"']?docker://|[^\s;&|]*?(?:apptainer|singularity))[^\s;&|]++)*+"
_DB_IMAGE = (
    r"[\"']?docker://(?:library/)?(?:postgres|mysql|mariadb|mongo|redis|elasticsearch)"
    r"(?::[\w.-]++)?[\"']?(?=[\s;&|)]|$)"
)
_DB_SERVER = r"(?:postgres|postmaster|mysqld|mariadbd|mongod|redis-server|elasticsearch|docker-entrypoint\.sh)\b"

# Commands that start something which answers requests instead of finishing: (pattern,
# reason, words). A pattern cannot match a text holding none of its words (lower-case), so
# it is only searched where one is: a script can be a megabyte, and a pattern that starts
# with a word boundary is tried at every position, where a word is found at memory speed.
SERVING_PATTERNS = [
    (r"vllm\.entrypoints|\bvllm\s+serve\b", "starts a vLLM API server", ("vllm",)),
    (r"\bapi_server\b", "starts an API server", ("api_server",)),
    (
        r"^\s*(?:python\S*\s+-m\s+)?(?:uvicorn|gunicorn|hypercorn)\s",
        "starts a web server",
        ("uvicorn", "gunicorn", "hypercorn"),
    ),
    (
        r"\bgradio\b|gradio_\w+|\bstreamlit\s+run\b",
        "starts an interactive web app",
        ("gradio", "streamlit"),
    ),
    (
        r"\bflask\s+run\b|\bmanage\.py\s+runserver\b|web_?server\b",
        "starts a web server",
        ("flask", "runserver", "server"),
    ),
    (
        r"\btritonserver\b|\btorchserve\b|\btext-generation-launcher\b",
        "starts a model server",
        ("tritonserver", "torchserve", "text-generation-launcher"),
    ),
    (
        r"\bsglang\.launch_server\b|\bollama\s+serve\b",
        "starts a model server",
        ("sglang", "ollama"),
    ),
    (
        r"\bhttp\.server\b|\bjupyter(?:-|\s+)(?:lab|notebook)\b",
        "starts a web server",
        ("http.server", "jupyter"),
    ),
    (r"\bray\s+serve\b|\bserve\s+run\b|\bbentoml\s+serve\b", "starts a model server", ("serve",)),
    (
        r"\bllama-server\b|\bllama_cpp\.server\b|\blmdeploy\s+serve\b|\btrtllm-serve\b|"
        r"\bmlc_llm\s+serve\b|\btext-generation-server\b|\binfinity_emb\b|\blaunch_router\b",
        "starts a model server",
        ("serve", "infinity_emb", "launch_router"),
    ),
    (
        r"\bjupyter(?:-|\s+)server\b|\bvoila\b|\brserver\b|\bmlflow\s+(?:server|ui)\b",
        "starts a web server",
        ("jupyter", "voila", "rserver", "mlflow"),
    ),
    # A database or a remote editor kept in the foreground answers others until it is stopped.
    (
        r"\bmysqld(?:_safe)?\b|\bmariadbd\b|\bmongod\b|\bredis-server\b",
        "starts a database server",
        ("mysqld", "mariadbd", "mongod", "redis-server"),
    ),
    # PostgreSQL's server in the foreground (`postgres -D /data/db`; `pg_ctl start` forks it
    # and returns), and a database's own image run by a container runtime, whose default
    # command is the server (`apptainer exec … docker://postgres:latest`, `singularity run
    # docker://redis:7`, `apptainer instance start docker://mongo:7 db`): run or exec with
    # nothing after the image but the server's options or its own name, not a client the image
    # holds (`exec docker://postgres:16 pg_dump …`, `redis-cli`, `mongosh`), nor an image
    # fetched or built (`singularity pull pg.sif docker://postgres:16`).
    (
        rf"{COMMAND_START}(?:postgres\s+-D|postmaster)\b|"
        rf"\b(?:apptainer|singularity)\s++(?:instance\s++start{_RUNTIME_WORDS}\s++{_DB_IMAGE}|"
        rf"(?:run|exec){_RUNTIME_WORDS}\s++{_DB_IMAGE}(?=\s*+(?:$|[;&|)<>-]|\d>|{_DB_SERVER})))",
        "starts a database server",
        ("postgres", "postmaster", "docker://"),
    ),
    # (the editor's path may be quoted: `exec "$HOME/opt/vscode_cli/code" tunnel`)
    (
        r"\bcode(?:-insiders)?[\"']?\s+tunnel\b|\bcode-server\b",
        "starts a remote editor",
        ("tunnel", "code-server"),
    ),
    # A compute cluster's member kept in the foreground takes work from others until stopped:
    # a Dask scheduler or worker, a Ray node told to block (`ray start --head --block`).
    (
        rf"{COMMAND_START}dask(?:-|\s+)(?:scheduler|worker)\b|\bray\s+start\b[^\n]*\s--block\b",
        "starts a member of a compute cluster",
        ("dask", "--block"),
    ),
    # TRL's vLLM server (`trl vllm-serve`, `python -m trl.scripts.vllm_serve`).
    (r"\bvllm[_-]serve\b", "starts a vLLM server", ("vllm",)),
    # Any program's `serve` subcommand (`./tabby serve`, `mkdocs serve`, `panel serve app.py`):
    # the word right after the program's name, not an argument further on (`--mode serve`).
    (rf"{COMMAND_START}[\w.-]+\s+serve(?:\s|;|$)", "starts a server", ("serve",)),
    (
        r"\bfastapi\s+(?:run|dev)\b|\bchainlit\s+run\b",
        "starts a web server",
        ("fastapi", "chainlit"),
    ),
    # A terminal or a notebook served to a browser (`ttyd bash -c "…"`) stays up until stopped,
    # whatever it runs inside. Named where a command starts, not where it is installed
    # (`mv ttyd.x86_64 /usr/local/bin/ttyd`).
    (
        rf"{COMMAND_START}(?:ttyd|gotty|wetty|openvscode-server|jupyterhub|marimo\s+(?:edit|run))"
        r"(?:\s|$)|\bpython[\d.]*\s+-m\s+(?:jupyterlab|notebook)\b|"
        # Elixir's Livebook, also as the command a container runs (`docker run … livebook server`)
        r"\blivebook\s+server\b",
        "serves a terminal or a notebook to a browser",
        (
            "ttyd",
            "gotty",
            "wetty",
            "openvscode-server",
            "jupyterhub",
            "marimo",
            "jupyterlab",
            "notebook",
            "livebook",
        ),
    ),
]
SERVING = [
    (re.compile(pattern, re.IGNORECASE | re.MULTILINE), reason, words)
    for pattern, reason, words in SERVING_PATTERNS
]
# Read only in the step a script ends on, in the foreground (a server started earlier may be
# for a client of the same job): a program listening on every interface, or named a server.
FOREGROUND_PATTERNS = [
    (
        r"(?:^|\s)--host[= ]['\"]?(?:0\.0\.0\.0|::)(?:\s|$)",
        "listens for connections on every interface",
        ("--host",),
    ),
    # …or told the address and port to listen on (`gunicorn --bind 0.0.0.0:8000`, torchft's
    # `torchft_lighthouse --bind=$HEAD_IP:29510`); not a container's bind mount (`--bind a:/b`).
    (
        r"(?:^|\s)--(?:bind|listen)[= ]['\"]?(?:[\w.-]+|\$\{?\w+\}?|\[[0-9a-f:]*\])?:\d{2,5}"
        r"['\"]?(?:\s|$)",
        "listens for connections on an address it is given",
        ("--bind", "--listen"),
    ),
    (
        r"(?:^|[\s/\"'])(?:[\w.-]*[_-])?(?:server|service|serve|router|gateway)\.(?:sh|py)\b",
        "starts a server",
        ("serv", "router", "gateway"),
    ),
    # …or a Python module named so (`python -m openrlhf.cli.serve_rm`, `-m app.server`).
    (
        r"\s-m\s+(?:[\w]+\.)*(?:serve|server)(?:_\w+)?(?:\s|$)",
        "starts a server",
        ("serve",),
    ),
    # An app asked for a public link (Gradio's `--share`, `launch(share=True)`) is meant to be
    # reached by others for as long as it runs; `--share` alone on an earlier step says nothing.
    (
        r"(?:^|\s)--share(?:=(?:true|1))?(?:\s|$)|\.launch\([^)\n]*\bshare\s*=\s*True",
        "opens a public link to a web app",
        ("share",),
    ),
    # TensorBoard left in the foreground serves its dashboard; started beside training (`&`)
    # it ends with the job.
    (
        rf"{COMMAND_START}(?:python[\d.]*\s+-m\s+)?tensorboard(?:\s|$)",
        "serves a dashboard",
        ("tensorboard",),
    ),
]
# (each tried only where one of its words is in the step: a step can be a megabyte long)
FOREGROUND = [
    (re.compile(pattern, re.IGNORECASE), reason, words)
    for pattern, reason, words in FOREGROUND_PATTERNS
]
# A kill (not `kill -0`, which only asks whether a process is alive) or a `… stop` command
# (`ray stop`, `docker stop`; not an option such as `--stop-token`).
STOPS_IT = re.compile(r"\b(?:pkill|kill|killall)\b(?!\s+-0\b)|(?<![-\w])stop\b(?!-)", re.IGNORECASE)
# A line that only says something (a comment, a message: `echo "stop it with scancel"`), or
# a trap, which cleans up when the script ends and so ends no serving.
SAYS_ONLY = re.compile(r"^\s*(?:#|echo\b|printf\b|trap\b)")
# (A line holding only a quote closes a multi-line `bash -c "…"` string.)
# (`exit` or `exit $?` hands on the status of the step before it and runs nothing)
# (a line of messages only: `echo started && python load_test.py` runs a program, a step)
NOT_A_STEP = re.compile(
    r"^\s*(?:#|echo\b[^;&|\n]*+(?:(?:;|&&|\|\|)\s*+(?:echo\b[^;&|\n]*+)?)*+$|"
    r"done\b|fi\b|esac\b|\}|\)|[\"']\s*$|exit(?:\s+\$\?)?\s*;?\s*$|$)"
)
# The author's own note just above a step that it starts a server (`# Start server`),
ANNOUNCES_SERVER = re.compile(
    r"^\s*#\s*(?:start|launch|run)s?\s+(?:the\s+|a\s+|our\s+)?(?:[\w-]+\s+)?server"
    # ending there or with where it runs (`in background`, `on port 8000`), not `server later`.
    r"(?:\s+(?:in|on|at)\s[^\n]*|[.:]?)\s*$",
    re.IGNORECASE,
)

# A task that opens ports and ends in its own app in the foreground (`python demo/app.py`,
# `python -m pkg.app_demo`, `cd repo && python webui.py`) serves it for as long as nobody stops it.
PORTED_APP = re.compile(
    r"(?:^|[;&|]\s*)(?:exec\s+)?python[\d.]*\s+(?:-\w+\s+)*"
    r"(?:-m\s+)?(?:[\w./-]*[/.])?(?:\w+_)?(?:app|webui|web_ui)(?:_\w+)?(?:\.py)?(?:\s|;|$)",
    re.IGNORECASE,
)
# So does a last step told which port to listen on, unless a server was started before it: then
# the step is that server's client (`python bench.py --port 8000`), and the job ends with it.
GIVEN_A_PORT = re.compile(r"(?:^|\s)--(?:server[.-])?port[= ]\S", re.IGNORECASE)
# …or given, by any option named for a port, the very port the task opens to the outside
# (`--load-balancer-port 9002` with `ports: 9002`); not the port it meets its peers on.
PORT_OPTION = re.compile(r"(?:^|\s)--([\w.-]*port)[= ]['\"]?(\d{2,5})(?![\w.-])", re.IGNORECASE)
PEERS_PORT = re.compile(r"master|rdzv|rendezvous|coordinator|controller|dist|nccl|head", re.I)
# …and so does Compose bringing its services up in the foreground (`docker compose -f x.yml up`;
# with `-d` it starts them in the background and the step ends).
COMPOSE_UP = re.compile(r"\b(?:docker\s+compose|docker-compose|podman-compose)\b[^;&|]*\sup\b")
COMPOSE_DETACHED = re.compile(r"\sup\b[^;&|]*\s(?:-d|--detach)\b")
# Without ports opened, Compose up in the foreground serves when what it brings up is a web UI by
# name: the folder it runs in (`cd stable-diffusion-webui-docker`) or its own line
# (`-f webui.yml`); a stack that runs to an end stops on its own, or with
# `--abort-on-container-exit` / `--exit-code-from`.
# (a web UI's own folder, or its `-docker` packaging; not its test suite, `webapp-tests`)
WEB_UI = re.compile(r"web[-_]?+(?:ui|app)(?![a-z0-9])(?![-_](?!docker(?![a-z0-9])))", re.IGNORECASE)
CD_INTO = re.compile(r"^\s*cd\s++(\S++)")
COMPOSE_ENDS = re.compile(r"--abort-on-container-exit|--exit-code-from")
# A last step that starts a container in the background with a port published to the outside
# (`docker run -d -p 8888:8888 IMAGE`): the container outlives the script and keeps serving.
# Options of the container runtimes (docker, podman, apptainer, singularity, shifter) that take a
# value: the image is the first other word.
CONTAINER_VALUED = {
    "-B", "--bind", "--pwd", "--env", "--home", "-H", "--overlay", "--env-file", "--mount",
    "-W", "--workdir", "-v", "--volume", "-e", "-p", "--publish", "--name", "-w", "--gpus",
    "--shm-size", "--ipc", "--network", "--net", "--entrypoint", "-u", "--user", "--runtime",
    "--ulimit", "--device", "--cap-add", "--security-opt", "-m", "--memory", "--cpus",
    "--label", "-l", "--platform", "--pid", "--hostname", "-h", "--restart", "--add-host",
    "--image", "--volume-driver", "--group-add", "--tmpfs", "--log-driver", "-c",
    "--cpu-shares", "--cpuset-cpus", "--app", "-a", "--attach",
    # Apptainer's own (`--no-mount bind-paths`, `--scratch /tmp`, `--fusemount …`)
    "--no-mount", "--scratch", "-S", "--fusemount", "--security", "--network-args", "--dns",
    "--apply-cgroups", "--memory-reservation", "--memory-swap",
}  # fmt: skip
DOCKER_RUN = re.compile(r"\b(?:docker|podman)\s+run\b")
DETACH = re.compile(r"--detach|-[it]*d[it]*")


def _host_port(given):
    """The host's port of a published one (`8080:80`, `127.0.0.1:8080:80/tcp`), else None.
    (Split, not matched: a pattern repeating digits and colons before the two ports took
    minutes on a long run of `1:`.)"""
    parts = given.split("/", 1)[0].split(":")
    if len(parts) < 2 or not all(p.isdigit() for p in parts[-2:]):
        return None
    if not all(p and all(c.isdigit() or c == "." for c in p) for p in parts[:-2]):
        return None
    return parts[-2]


def _containers(step):
    """(detached, host ports published, program) of each container the step starts, by the
    runtime's options before the image (the program's own options after it say nothing of the
    container); the program is the words after the image, up to the command's end ("" when
    the image's own program runs)."""
    for match in DOCKER_RUN.finditer(step):
        words = step[match.end() : match.end() + 2000].split()
        detached, ports, skip, program = False, set(), False, ""
        for i, word in enumerate(words):
            if skip:
                skip = False  # an option's value, not the image
                continue
            if not word.startswith("-"):
                # the image (or the end of the command); what follows it, its program
                rest = itertools.takewhile(lambda w: not COMMAND_END.fullmatch(w), words[i + 1 :])
                program = " ".join(rest)
                if program[:1] == "-":
                    program = ""  # (options to the image's own program: `--model-id m`)
                break
            name, eq, value = word.partition("=")
            detached = detached or bool(DETACH.fullmatch(name))
            if name in ("-p", "--publish"):
                given = value if eq else (words[i + 1] if i + 1 < len(words) else "")
                if port := _host_port(given):
                    ports.add(port)
            skip = not eq and name in CONTAINER_VALUED
        yield detached, ports, program


# A word that ends a command (`;`, `&&`, `|`, `&`, a redirection, a comment).
COMMAND_END = re.compile(r"[;&|]+|\d?>>?\S*|#.*|.*;")


# Steps that only wait for a server to answer and say so: messages, sleeps, and a loop asking
# it on this machine (`while ! curl -s http://localhost:8080/v1/health; do`).
CHECK_WORDS = {"echo", "printf", "sleep", "done", "fi", "else", "then", "do", "}"}
LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "0.0.0.0")  # noqa: S104 (hosts asked, not bound)


def _only_checks(step):
    """Whether every command of the step (split at `;`, `&&`, `||`) only waits for a server to
    answer or says so: a message, a sleep, a loop asking it on this machine."""
    return all(_only_a_check(piece) for piece in re.split(r";|&&|\|\|", step))


def _only_a_check(piece):
    words = piece.split()
    if not words:
        return True
    if words[0] in CHECK_WORDS:
        return True
    asks = any(host in piece for host in LOOPBACK_HOSTS)
    if words[0] in ("curl", "wget") and asks:
        return True  # (the server asked once, on this machine)
    return (
        words[0] in ("while", "until")
        and any(w in ("curl", "wget", "nc") for w in words[1:4])
        and asks
    )


# A container stopped or removed (`docker stop web`, `docker rm -f web`): what it served ends.
CONTAINER_STOPPED = re.compile(r"\b(?:docker|podman)\s+(?:container\s+)?(?:stop|rm|kill)\b")


def _left_up_and_checked(steps, ports=frozenset()):
    """Whether a task that opens ports starts a server in the background (Compose brought up
    with `-d`, `docker run -d -p …`) and after it only waits for it to answer and says so: the
    server outlives the run and serves on the task's port (`docker-compose up -d`, then
    `while ! curl …/health; do sleep 5; done; echo ready`)."""
    started = [
        i
        for i, step in enumerate(steps)
        if ("compose" in step and COMPOSE_UP.search(step) and COMPOSE_DETACHED.search(step))
        or ("run" in step and _detached_server(step, ports))
    ]
    if not started:
        return False
    after = steps[started[-1] + 1 :]
    if any(CONTAINER_STOPPED.search(step) for step in after):
        return False  # the server stopped before the run ends
    return bool(after) and all(_only_checks(step) for step in after)


def _detached_server(step, ports=frozenset()):
    """Whether the step starts a container in the background with a port published to the
    outside (`docker run -d -p 8888:8888 IMAGE`): one the task opens (`ports`, when known one by
    one; a database published on its own port is no server of the task's)."""
    return any(
        detached and published and (not ports or published & ports)
        for detached, published, _ in _containers(step)
    )


def _published_server(step, ports):
    """Whether the step runs a container in the foreground that publishes a port the task
    opens (`docker run -p 8080:80 IMAGE` with `ports: 8080`; any published port when the task's
    ports are not known one by one): the container's program answers there until stopped. It
    is the image's own program (none after the image), or one known to serve: a program of
    the job's (`img python eval.py --data /d`) runs and ends."""
    return any(
        not detached
        and published
        and (not ports or published & ports)
        and (not program or serving_signals(program))
        for detached, published, program in _containers(step)
    )


ADVICE = (
    "Keep this part on your own systems: the network runs batch work that finishes on its own, "
    "not services that answer requests. If the job has a batch part (e.g. precomputing embeddings "
    "or a nightly re-index), describe that part alone."
)


def serving_signals(*texts):
    """Reasons, from command text, to think the work starts a server."""
    reasons = []
    joined = "\n".join(t for t in texts if t)
    lower = joined.lower()
    for pattern, reason, words in SERVING:
        if (
            reason not in reasons
            and any(word in lower for word in words)
            and pattern.search(joined)
        ):
            reasons.append(reason)
    return reasons


# A last step that never returns: the script keeps whatever it started running.
WAITS_FOREVER = re.compile(
    r"^\s*(?:sleep\s+inf(?:inity)?|tail\s+-f\s+\S+|wait(?:\s+-n|(?:\s+\"?\$\{?\w+\}?\"?)+)?)\s*;?\s*$|"
    # A sleep of hours or days keeps what was started running until the time limit.
    r"^\s*sleep\s+(?:\d+[hd]|\d{4,}s?)\s*;?\s*$|"
    r"^\s*while\s+(?:true|:|kill\s+-0\s+\S+)\s*;\s*do\s+sleep\b",
    re.IGNORECASE,
)


# A cluster's daemons, which run on after the command that starts them returns (`ray start`
# without --block, Spark's and Hadoop's start scripts): a wait that never ends (not `wait`,
# which does not wait for them) keeps the cluster up for others to use.
DAEMONS = re.compile(
    r"\bray\s+start\b|\bstart-(?:master|workers?|slaves?|all|dfs|yarn)\.sh\b", re.IGNORECASE
)
# A start script run by its path (`/hpc/apps/nextpyp/0.5/start`, `./start.sh`, `bin/startup.sh`,
# `./start_server.sh`): it starts an application's services and returns while they run on.
STARTS_SERVICES = re.compile(
    r"^\s*(?:(?:exec|nohup)\s+)?/?(?:[\w.~${}-]++/)++start(?:up)?(?:[-_](?:server|services?|all|app))?"
    r"(?:\.sh)?(?:\s++-\S++)*+\s*+;?\s*+$"
)
WAIT_BUILTIN = re.compile(r"^\s*wait\b")
BARE_WAIT = re.compile(r"^\s*wait\s*;?\s*$")  # waits for every background step
# A step whose program is a script variable (`exec "$EDITOR_CLI" tunnel`, `$SERVER --port 80`).
PROGRAM_VARIABLE = re.compile(r"^(\s*(?:(?:exec|nohup|srun)\s+)?)[\"']?\$\{?(\w+)\}?[\"']?(?=\s|$)")


# A wait that never ends by itself (not a sleep of hours, which the time limit ends).
ENDLESS_WAIT = re.compile(
    r"^\s*(?:sleep\s+inf(?:inity)?|tail\s+-f\s+\S+|while\s+(?:true|:)\s*;\s*do\s+sleep\b)",
    re.IGNORECASE,
)
# A tunnel that makes a server of the job reachable from the internet (Cloudflare, ngrok).
PUBLIC_TUNNEL = re.compile(
    rf"{COMMAND_START}(?:cloudflared\s+(?:tunnel\b[^\n]*\s)?(?:run|--url)\b|ngrok\s+(?:http|tcp|tls|start)\b)",
    re.IGNORECASE | re.MULTILINE,
)


def publishes_server(command):
    """True when the script starts a server and a public tunnel to it and never stops them:
    it answers requests from outside for as long as it runs, whatever it ends on."""
    if not isinstance(command, str) or not ("cloudflared" in command or "ngrok" in command):
        return False  # (a plain search first: run scripts can be a megabyte long)
    if not PUBLIC_TUNNEL.search(command):
        return False
    return bool(serving_signals(command)) and not _stops_it(command)


def ends_serving(command, opens_ports=False):
    """True when the script leaves a server running instead of finishing: its last step is
    a server in the foreground, or a wait that never ends after a server was started. With
    `opens_ports` (the task asks for ports open to the outside: true, or the set of ports as
    written), a last step that runs an app of its own or is given a port to listen on is a
    server too."""
    if not isinstance(command, str) or not command or _stops_it(command):
        return False
    ports = opens_ports if isinstance(opens_ports, (set, frozenset)) else frozenset()
    lines, _ = head_and_tail(_logical_lines(command))
    lines = _without_status_tail(_named_programs(lines, command))
    steps = [line for line in lines if not NOT_A_STEP.match(line)]
    if not steps:
        return False
    if (before := _before_endless_loop(lines)) is not None:
        # The script ends in a loop that never ends (a health check, a keep-alive): it keeps
        # whatever it started running.
        return any(
            serving_signals(step) or DAEMONS.search(step) or STARTS_SERVICES.match(step)
            for step in before
        )
    if opens_ports and _left_up_and_checked(steps, ports):
        return True
    announced = _announced_steps(lines)
    finals = _final_steps(lines)
    for index in finals:
        last = steps[index]
        if _worker_held(lines, steps, index, finals):
            continue  # a worker kept for the head node's work, which ends the job
        if WAITS_FOREVER.search(last):
            served = [i for i, step in enumerate(steps[:index]) if serving_signals(step)]
            if served and not (
                BARE_WAIT.match(last) and _client_ran(steps[served[-1] + 1 : index])
            ):
                return True
            if not WAIT_BUILTIN.match(last) and any(
                DAEMONS.search(s) or STARTS_SERVICES.match(s) for s in steps[:index]
            ):
                return True  # a cluster's daemons or an app's services kept up (`sleep inf`)
            if ENDLESS_WAIT.search(last) and not steps[:index]:
                return True  # a run that only holds the machine (a box kept for SSH use)
        elif "run" in last and _detached_server(last, ports):
            return True  # a container left serving on a published port after the script ends
        elif re.search(r"&\s*$", last) and not re.search(r"&&\s*$", last):
            continue  # started in the background; the script then ends
        elif (
            index in announced
            or serving_signals(last)
            or _in_foreground(last)
            or (opens_ports and _listens(last, steps[:index], ports))
            or _compose_web_ui(last, steps[:index])
        ):
            return True
    return False


# A node joining a cluster whose head is elsewhere: a Ray worker (`ray start --address H:6379`,
# not `--head`), a Spark worker, a Dask worker.
RAY_START = re.compile(r"\bray\s+start\b")
JOINS_AS_WORKER = re.compile(r"\bstart-(?:workers?|slaves?)\.sh\b|\bdask(?:-|\s+)worker\b", re.I)


def _joins_cluster(step):
    if RAY_START.search(step):
        return bool(re.search(r"(?:^|\s)--address\b", step)) and not re.search(r"--head\b", step)
    return bool(JOINS_AS_WORKER.search(step))


def _worker_held(lines, steps, index, finals):
    """True when the step `index` ends a worker's branch of a head/worker split (`if [ rank = 0 ];
    then ray start --head; python train.py; else ray start --address $HEAD; sleep infinity; fi`):
    the branch only joins the head's cluster and waits (or blocks in the join), while another
    branch ends in work that finishes. The workers are held for the head's run, and the job
    ends with it: batch, not a cluster left up."""
    if len(finals) < 2:
        return False
    branch = _branch_steps(lines, index)
    last = steps[index]
    joined = [s for s in branch if _joins_cluster(s)]
    if not joined or any(serving_signals(s) for s in branch if s not in joined):
        return False
    if not (WAITS_FOREVER.search(last) or last in joined):
        return False
    return any(
        other != index
        and not WAITS_FOREVER.search(steps[other])
        and not serving_signals(steps[other])
        and CLIENT_WORK.search(steps[other])
        for other in finals
    )


def _branch_steps(lines, index):
    """The steps of the if/else branch that holds the step `index` (counted among the steps),
    up to it."""
    count, position = 0, None
    for i, line in enumerate(lines):
        if NOT_A_STEP.match(line):
            continue
        if count == index:
            position = i
            break
        count += 1
    if position is None:
        return []
    found, depth = [], 0
    for line in reversed(lines[: position + 1]):
        if CLOSES.match(line):
            depth += 1
        elif (BRANCH.match(line) or (OPENS.match(line) and not ONE_LINE_IF.search(line))) and (
            depth == 0
        ):
            break
        elif OPENS.match(line) and not ONE_LINE_IF.search(line):
            depth -= 1
        elif not NOT_A_STEP.match(line):
            found.append(line)
    return found


def _in_foreground(step):
    lower = step.lower()
    return any(
        any(word in lower for word in words) and pattern.search(step)
        for pattern, _, words in FOREGROUND
    )


# A step that does a job's work with a server it started (a trainer, an evaluation): a
# program of its own, a launcher, not a command that only asks the server how it is.
CLIENT_WORK = re.compile(
    r"\.py\b|\b(?:accelerate\s+launch|torchrun|deepspeed|lm_eval|python3?\s+-[mc])\b"
)


# The lines a script may end with after its last step that only hand on that step's status:
# `rc=$?`, `exit $rc`, and a test of it that only reports (`if [ $rc -ne 0 ]; then echo …; fi`).
STATUS_ONLY = re.compile(
    r"^\s*(?:\w+=\$\?|exit\s+[\"']?\$\{?\w+\}?[\"']?|then|else"
    r"|if\s+\[\[?[^;\n]*\]\]?\s*;\s*then)\s*;?\s*$"
)


HANDS_ON = re.compile(r"^\s*(?:\w+=\$\?|exit\s+[\"']?\$\{?\w+\}?[\"']?)\s*;?\s*$")


def _without_status_tail(lines):
    """The lines without the status handling the script ends with (`wait "$PID"; rc=$?;
    if [ $rc -ne 0 ]; then echo …; fi; exit $rc` ends on the wait): it runs nothing."""
    end, status = len(lines), False
    while end and (NOT_A_STEP.match(lines[end - 1]) or STATUS_ONLY.match(lines[end - 1])):
        status = status or bool(HANDS_ON.match(lines[end - 1]))
        end -= 1
    # (only after a status is taken or handed on: a tail of `fi` and `done` alone is the end
    # of a block the script's last step is in)
    return lines[:end] if status else lines


def _client_ran(steps):
    """Whether a step in the foreground did the job's work after its server started (a trainer
    using the server): then `wait` only waits for the rest, and the job is batch."""
    return any(
        not (re.search(r"&\s*$", step) and not re.search(r"&&\s*$", step))
        and CLIENT_WORK.search(step)
        and not serving_signals(step)
        for step in steps
    )


def _named_programs(lines, command):
    """Lines whose program is a script variable, with the variable's value in its place
    (`VSCODE_CLI=$HOME/opt/code` … `exec "$VSCODE_CLI" tunnel` is `exec …/code tunnel`)."""
    if not any(PROGRAM_VARIABLE.match(line) for line in lines):
        return lines
    values = script_variables(command).values
    out = []
    for line in lines:
        m = PROGRAM_VARIABLE.match(line)
        value = values.get(m.group(2)) if m else None
        if value and not any(c.isspace() for c in value):
            line = m.group(1) + value + line[m.end() :]
        out.append(line)
    return out


def _compose_web_ui(last, earlier):
    """True when the step brings a Compose project up in the foreground (`docker-compose up`,
    not detached, not told to end with a container) and the project is a web UI by name: on
    its own line, or the folder the script last changed into before it."""
    if "compose" not in last or not COMPOSE_UP.search(last):
        return False
    if COMPOSE_DETACHED.search(last) or COMPOSE_ENDS.search(last):
        return False
    if WEB_UI.search(last):
        return True
    folder = next((m.group(1) for s in reversed(earlier) if (m := CD_INTO.match(s))), "")
    return bool(WEB_UI.search(folder))


def _listens(last, earlier, ports=frozenset()):
    """True when the last step of a task that opens ports is an app or a program given a port
    (`ports`: the port numbers it opens, when known)."""
    if PORTED_APP.search(last):
        return True
    if "run" in last and _published_server(last, ports):
        return True
    if COMPOSE_UP.search(last) and not COMPOSE_DETACHED.search(last):
        return True
    given = bool(GIVEN_A_PORT.search(last)) or any(
        m.group(2) in ports and not PEERS_PORT.search(m.group(1))
        for m in PORT_OPTION.finditer(last)
    )
    return given and not any(serving_signals(s) for s in earlier)


# `while true`, or a loop for as long as a process lives (`while kill -0 $PID`).
ENDLESS = re.compile(
    r"^\s*while\s+(?:true|:|\[\s*1\s*\]|\(\(\s*1\s*\)\)|kill\s+-0\s+\S+)\s*(?:;\s*do\b|$)"
)
# Ways out of a loop; `exit 1` on a failed health check is not one (the job fails, the server
# was serving until then).
LEAVES = re.compile(r"\b(?:break|return)\b|\bexit\b(?!\s+[1-9])")


def _before_endless_loop(lines):
    """The steps before a `while true` loop the script ends in (one with no break or exit),
    or None when it does not end in one."""
    starts = [i for i, line in enumerate(lines) if ENDLESS.match(line)]
    if not starts:
        return None
    start = starts[-1]
    rest = [
        line for line in lines[start + 1 :] if line.strip() and not line.lstrip().startswith("#")
    ]
    if not rest or not re.match(r"^\s*done\b", rest[-1]) or any(LEAVES.search(x) for x in rest):
        return None
    return [line for line in lines[:start] + rest if not NOT_A_STEP.match(line)]


CONTAINER_STOP = re.compile(r"\b(?:docker|podman)\s+(?:kill|stop|rm)\b")
CONTAINER_RUN = re.compile(r"\b(?:docker|podman)\s+run\b")
# What `pkill -f NAME` or `killall NAME` is told to kill.
KILL_TARGET = re.compile(r"\b(?:pkill|killall)\b(?:\s+-\w+)*\s+['\"]?([^'\"\s;|&]+)")


def _stops_it(command):
    """True when a command of the script stops what it started (a kill or a stop command;
    a comment or a message that mentions stopping stops nothing, and neither does a kill of
    what the script starts after it: that clears a copy left by an earlier run)."""
    lowered = command.lower()  # (a substring test first: a search is slow on a long script)
    if ("kill" not in lowered and "stop" not in lowered) or not STOPS_IT.search(command):
        return False
    lines = _logical_lines(command)
    handlers = _trap_handler_lines(lines)
    for i, line in enumerate(lines):
        if not STOPS_IT.search(line) or SAYS_ONLY.match(line) or i in handlers:
            continue
        target = KILL_TARGET.search(line)
        if target and any(target.group(1) in later for later in lines[i + 1 :]):
            continue
        if CONTAINER_STOP.search(line) and any(CONTAINER_RUN.search(x) for x in lines[i + 1 :]):
            continue  # old containers cleared before new ones are started
        return True
    return False


# A trap naming the function it runs (`trap cleanup SIGTERM EXIT`, `trap 'cleanup' EXIT`).
TRAP_HANDLER = re.compile(r"^\s*trap\s+['\"]?([A-Za-z_][\w-]*)['\"]?\s")
# A function's first line (`cleanup() {`, `function cleanup {`) and its closing `}`.
FUNCTION_OPENS = re.compile(r"\s*(?:function\s+)?([A-Za-z_][\w-]*)\s*(?:\(\s*\)\s*)?\{\s*$")


def _trap_handler_lines(lines):
    """Indexes of the lines inside functions the script runs only from a trap (`cleanup() {
    pkill …; }` … `trap cleanup EXIT`): they run when the job is ended or ends, so a kill there
    stops nothing while it runs. A function also called as a step of its own is not one."""
    if "trap" not in "\n".join(lines):
        return set()
    handlers = {m.group(1) for line in lines if (m := TRAP_HANDLER.match(line))}
    if not handlers:
        return set()
    bodies, name, start = {}, None, 0
    for i, line in enumerate(lines):
        if name is None:
            if "{" in line and (m := FUNCTION_OPENS.match(line)) and m.group(1) != "function":
                name, start = m.group(1), i
        elif line.strip() in ("}", "};"):
            bodies[name] = range(start, i + 1)
            name = None
    inside = set()
    for handler in handlers & set(bodies):
        body = bodies[handler]
        called = any(
            i not in body and line.split(None, 1)[0].rstrip(";") == handler
            for i, line in enumerate(lines)
            if line.strip()
        )
        if not called:
            inside.update(body)
    return inside


BRANCH = re.compile(r"^\s*(?:else|elif)\b")
OPENS = re.compile(r"^\s*(?:if|then)\b")
CLOSES = re.compile(r"^\s*fi\b")
ONE_LINE_IF = re.compile(r"\bfi\s*;?\s*$")


def _final_steps(lines):
    """Indexes (among the steps) of the steps a script can end on: its last step and, when it
    ends in an if/else block (one branch for the head node, one for the others), the last step
    of each branch."""
    indexed, count = [], 0
    for line in lines:
        if NOT_A_STEP.match(line):
            indexed.append((line, None))
        else:
            indexed.append((line, count))
            count += 1
    finals, depth, want = [], 0, True
    for line, index in reversed(indexed):
        if CLOSES.match(line):
            depth += 1
            continue
        if index is None:
            continue
        if BRANCH.match(line):
            want = want or depth == 1
            continue
        if OPENS.match(line) and not ONE_LINE_IF.search(line):
            depth -= 1
            if depth <= 0:
                break
            continue
        if want:
            finals.append(index)
            want = False
        if depth <= 0:
            break
    return finals


def _announced_steps(lines):
    """Indexes (among the steps) of steps right below a comment saying they start a server."""
    announced, count, previous = set(), 0, ""
    for line in lines:
        if not line.strip():
            continue
        if not NOT_A_STEP.match(line):
            if ANNOUNCES_SERVER.match(previous):
                announced.add(count)
            count += 1
        previous = line
    return announced


def _logical_lines(command):
    return command.replace("\\\n", " ").splitlines()
