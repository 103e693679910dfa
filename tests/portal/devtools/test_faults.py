"""The fault suite's own measuring pieces (the suite itself restarts PostgreSQL and Redis, so
it runs by hand: `make faults`)."""

import smtplib
from email.message import EmailMessage

from portal.devtools.faults import Answer, SmtpSink


def test_the_sink_counts_each_message_id_as_often_as_it_arrives():
    sink = SmtpSink()
    try:
        with smtplib.SMTP("127.0.0.1", sink.port, timeout=5) as smtp:
            for n, message_id in enumerate(["<a@x>", "<b@x>", "<a@x>"]):
                message = EmailMessage()
                message["Subject"], message["Message-ID"] = f"s{n}", message_id
                message.set_content("body\n.\n..dots")  # smtplib doubles a leading dot
                smtp.send_message(message, "from@x.example", ["to@x.example"])
        assert sink.received == {"<a@x>": 2, "<b@x>": 1}
        assert sink.count() == 3
    finally:
        sink.close()


def test_what_counts_as_an_error_a_person_saw():
    seen = lambda status, retry_after=False: Answer(0, "page", status, retry_after).seen_as_error  # noqa: E731
    assert not seen(200) and not seen(302) and not seen(404)
    assert not seen(503, retry_after=True)  # our "try again in a moment" page
    assert seen(503) and seen(500) and seen(502)
    assert seen(599)  # no answer at all
