"""The precision check: what a description leaves missing, vague or inconsistent.

check(description) returns a list of Issue(field, level, code, message, problem).
Messages say exactly what is missing and give an example of an exact answer,
taken from the format's own field examples so the two never disagree."""

from ..issues import Level
from ..model import Description
from .inconsistent import _inconsistent, requested_accelerator_hours, requested_node_hours
from .missing import _missing
from .screen import _realtime
from .vague import _vague

__all__ = ["check", "has_errors", "requested_accelerator_hours", "requested_node_hours"]


def check(description: Description):
    # The real-time screen comes first: if it fires, nothing else matters much.
    return (
        _realtime(description)
        + _missing(description)
        + _vague(description)
        + _inconsistent(description)
    )


def has_errors(issues):
    return any(issue.level == Level.ERROR for issue in issues)
