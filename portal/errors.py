class DomainError(Exception):
    """A rule of the program refused an action; the message is shown to the person."""
