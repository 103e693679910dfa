"""Console e-mails (no SMTP host configured) print as people read them: no quoted-printable."""

import io

from django.core.mail import EmailMessage

from portal.mail import ReadableConsoleBackend


def test_console_email_is_readable_text_with_whole_links():
    link = "http://127.0.0.1:8000/design-partners/status/" + "a" * 60 + "/"
    stream = io.StringIO()
    backend = ReadableConsoleBackend(stream=stream)
    message = EmailMessage(
        "Your application — received", f"Status: {link}\n", "p@x.org", ["b@y.org"]
    )
    assert backend.send_messages([message]) == 1
    text = stream.getvalue()
    assert link in text and "Your application — received" in text
    assert "=E2=80=94" not in text and "quoted-printable" not in text
