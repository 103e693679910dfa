"""What a write leaves to run after its commit, as the tests that count it read it."""

from portal.generation import Generation


def enqueued(callbacks):
    """The on-commit callbacks that send work or mail, not those that retire a kept figure
    (portal/generation.py: every write of some models does, beside what it sends)."""
    return [
        c
        for c in callbacks
        if not isinstance(getattr(getattr(c, "func", None), "__self__", None), Generation)
    ]
