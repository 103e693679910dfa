"""One-line text: names and titles end up in e-mail headers (a Subject, a display name), where
a line break makes the message undeliverable. They are refused where people type them, and
folded where e-mails are built (portal/outbox.py) for whatever older rows still hold.

And numbers in text from a request (an id, a list index in a field's path): is_number."""

from django.core.exceptions import ValidationError

# Every character str.splitlines() breaks a line at, Unicode's separators included.
LINE_BREAKS = frozenset("\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")


def has_line_break(value) -> bool:
    return any(c in LINE_BREAKS for c in str(value))


def one_line(value):
    if has_line_break(value):
        raise ValidationError(
            "Keep this on one line (no line breaks): it is used in e-mail subjects.",
            code="line_break",
        )


def fold(value) -> str:
    """The text on one line: every run of whitespace, line breaks included, as one space."""
    return " ".join(str(value).split())


def is_number(text) -> bool:
    """Whether `text` is a whole number written in ASCII digits. str.isdigit() alone also
    says yes to "²", which int() then refuses: a 500 for ?job=² or remove:data.inputs.²."""
    return text.isascii() and text.isdigit()
