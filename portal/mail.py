"""E-mail printed to the console (`make run` without an SMTP host), readable by a person:
the headers that matter and the plain-text body as written, links whole. Django's console
backend prints the encoded message (quoted-printable), which breaks links across lines."""

from django.core.mail.backends.console import EmailBackend


class ReadableConsoleBackend(EmailBackend):
    def write_message(self, message):
        headers = [
            ("From", message.from_email),
            ("To", ", ".join(message.to)),
            ("Cc", ", ".join(message.cc)),
            ("Reply-To", ", ".join(message.reply_to)),
            ("Subject", message.subject),
        ]
        lines = [f"{name}: {value}" for name, value in headers if value]
        self.stream.write("\n".join(lines) + "\n\n" + message.body.rstrip("\n") + "\n")
        self.stream.write("-" * 79 + "\n")
