"""The real-time screen as a precision rule: real-time work is not a network job."""

from ..issues import Issue
from ..realtime import ADVICE, serving_signals
from .common import E, W


def _realtime(d):
    out = []
    rt = d.realtime
    reasons = []
    if rt.serves_requests:
        reasons.append("it answers inbound requests")
    if rt.latency_bound is not None:
        reasons.append(f"it needs a per-request latency of {rt.latency_bound}")
    if rt.finishes_on_its_own is False:
        reasons.append("it does not finish on its own")
    if reasons:
        out.append(
            Issue(
                "realtime",
                E,
                "not_a_network_job",
                f"This is real-time work, not a network job: {', '.join(reasons)}. {ADVICE}",
            )
        )
    elif signals := serving_signals(d.work.command, d.work.setup):
        out.append(
            Issue(
                "work.command",
                W,
                "looks_like_a_service",
                f"The command {signals[0]}. If the job serves requests, it is not a network job. "
                f"{ADVICE}",
            )
        )
    return out
