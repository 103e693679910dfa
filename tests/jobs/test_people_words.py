"""What a person reads: labels and values instead of paths and booleans, numbers as people
type them, sizes as people write them, what is left as a checklist, the form's words."""

import re

import pytest
from django.urls import reverse

from jobs import jobformat, services
from jobs.jobformat import units
from jobs.jobformat.loading import load
from jobs.presenters import diff_rows
from jobs.steps import form_words, readable_value
from portal.models import OutboundEmail


def test_diff_rows_show_labels_and_yes_no_and_choice_labels():
    before = {"data": {"stage_before_rent": False}, "work": {"kind": "batch_inference"}}
    after = {"data": {"stage_before_rent": True}, "work": {"kind": "footage_processing"}}
    rows = {r["label"]: r for r in diff_rows(before, after)}
    assert rows["Data › Data can be staged before compute is rented"]["before"] == "No"
    assert rows["Data › Data can be staged before compute is rented"]["after"] == "Yes"
    assert rows["Work › Kind"]["before"] == "batch inference"


@pytest.mark.parametrize(
    ("typed", "number"), [("52,000", 52000), ("2,304", 2304), ("1 200", 1200), ("48", 48)]
)
def test_numbers_as_people_type_them_are_numbers(typed, number):
    description, issues = load({"data": {"inputs": [{"objects": typed}]}})
    assert issues == [] and description.data.inputs[0].objects == number


@pytest.mark.parametrize(
    ("typed", "words"),
    [
        ("about 2300", "approximate number"),
        ("~2300", "approximate number"),
        ("2000-3000", "range"),
        ("lots", "is not a number"),
        ("2300.5", "not a whole number"),
    ],
)
def test_a_number_field_never_shows_the_parsers_message(typed, words):
    _, issues = load({"data": {"inputs": [{"objects": typed}]}})
    (issue,) = issues
    assert words in issue.message and "Input should" not in issue.message
    assert "parse" not in issue.message


@pytest.mark.parametrize("typed", ["768 h", "768 hours", "768 GPU-hours", "768"])
def test_hours_typed_with_their_unit_in_a_field_of_hours_are_those_hours(typed):
    description, issues = load({"request": {"expected_accelerator_hours": typed}})
    assert issues == [] and description.request.expected_accelerator_hours == 768


@pytest.mark.parametrize("typed", ["2k", "8x", "12 h", "3 TB"])
def test_a_unit_that_changes_the_number_is_no_count(typed):
    # "2k" is not 2 files, nor "12 h" 12 of them: the person is asked for the number.
    _, issues = load({"data": {"inputs": [{"objects": typed}]}})
    (issue,) = issues
    assert "is not a number" in issue.message


def test_a_draft_keeps_the_number_as_typed_and_the_check_accepts_it(team_a, a_member):
    job = services.create_draft(team=team_a, user=a_member)
    job.data = {"request": {"expected_accelerator_hours": "2,304"}}
    _, issues = job.lint()
    assert not [i for i in issues if i.field == "request.expected_accelerator_hours"]
    assert job.data["request"]["expected_accelerator_hours"] == "2,304"


def test_sizes_in_messages_read_as_people_write_them():
    assert units.size_for_people(39102345888 * 1024) == "36.4 TiB"
    assert units.size_for_people(units.parse_size("2.5 TiB")) == "2.5 TiB"


def test_quantities_are_printed_back_as_typed():
    description, _ = load({"request": {"estimate": "48h"}, "work": {"amount": "9,000 video-hours"}})
    assert description.request.estimate.text == "48h"
    assert description.work.amount.text == "9,000 video-hours"


def test_form_words_replace_file_words_but_not_what_was_typed():
    text = form_words("List what the job reads, or state no_inputs: true. Choose fewer_nodes.")
    assert "“The job reads no data”" in text and "no_inputs" not in text
    assert "fewer nodes" in text
    assert form_words("“about_2300” is vague") == "“about_2300” is vague"
    for issue in jobformat.lint({})[1]:
        assert not re.search(r"\b[a-z]+_[a-z_]+\b", form_words(issue.message).split("“")[0])


def test_a_blank_draft_shows_a_checklist_not_errors(client_for, team_a, a_member):
    job = services.create_draft(team=team_a, user=a_member)
    client = client_for(a_member)
    page = client.get(reverse("job_step", args=[job.pk, "work"])).content.decode()
    assert "Still to fill in on this step" in page
    assert 'aria-invalid="true"' not in page and "badge-error" not in page
    # Moving on judges the step: its gaps are now errors on the fields.
    client.post(
        reverse("job_step", args=[job.pk, "work"]), {"version": job.version, "action": "next"}
    )
    page = client.get(reverse("job_step", args=[job.pk, "work"])).content.decode()
    assert 'aria-invalid="true"' in page


def test_a_field_left_is_judged_on_the_next_save(client_for, team_a, a_member):
    job = services.create_draft(team=team_a, user=a_member)
    client = client_for(a_member)
    response = client.post(
        reverse("job_autosave", args=[job.pk, "work"]),
        {"version": job.version, "seen": "work.summary"},
        headers={"HX-Request": "true"},
    )
    body = response.content.decode()
    summary = body.split('id="f-work-summary-issues"', 1)[1].split("</div>", 1)[0]
    command = body.split('id="f-work-command-issues"', 1)[1].split("</div>", 1)[0]
    assert "issue-error" in summary and "issue-error" not in command
    assert 'id="step-badges"' in body and 'id="left-checklist"' in body


def test_the_review_step_judges_everything(client_for, team_a, a_member):
    job = services.create_draft(team=team_a, user=a_member)
    client = client_for(a_member)
    page = client.get(reverse("job_step", args=[job.pk, "review"])).content.decode()
    assert "Fix the" in page and "missing_" not in page


def test_the_review_step_says_the_requested_hours_as_people_write_them(
    client_for, team_a, a_member
):
    data = jobformat.example_data()  # 4 L40S x 8 nodes x 36h
    data["request"]["nodes"] = 80
    job = services.create_draft(team=team_a, user=a_member, data=data)
    page = client_for(a_member).get(reverse("job_step", args=[job.pk, "review"])).content.decode()
    assert "Requested: <strong>11,520 accelerator-hours</strong>" in page
    assert "11520.0" not in page


def test_comment_and_review_emails_name_fields_as_people_do(team_a, a_member, staff):
    job = services.create_draft(team=team_a, user=a_member, data=jobformat.example_data())
    services.add_comment(
        job=job, author=a_member, body="Is this right?", anchor="request.expected_accelerator_hours"
    )
    revision = services.submit(job=job, user=a_member)
    services.review(
        revision=revision,
        reviewer=staff,
        outcome="clarify",
        fields=["data.inputs.0.size"],
        note="Before or after compression?",
    )
    bodies = " ".join(OutboundEmail.objects.values_list("body", flat=True))
    assert "Request › Expected accelerator-hours" in bodies
    assert "Data › Input 1 › Size" in bodies
    assert "request.expected_accelerator_hours" not in bodies


def test_durations_in_messages_are_the_ones_typed():
    _, issues = jobformat.lint(
        {
            "request": {
                "estimate": "48h",
                "maximum": "60h",
                "earliest_start": "2027-03-01T09:00Z",
                "deadline": "2027-03-02T09:00Z",
            }
        }
    )
    (message,) = [i.message for i in issues if i.code == "duration_exceeds_window"]
    assert message.startswith("The job runs 48h but") and "2d" not in message


def test_hours_in_messages_read_as_people_write_them():
    data = jobformat.example_data()
    data["request"].update(expected_accelerator_hours="1,200,000")
    _, issues = jobformat.lint(data)
    (message,) = [i.message for i in issues if i.code == "expected_hours_mismatch"]
    assert message.startswith("You expect 1,200,000 accelerator-hours but the request is 1,152 ")
    assert "e+" not in message


@pytest.mark.parametrize(
    ("stored", "read"), [(9000, "9,000"), (1536.0, "1,536"), (0.5, "0.5"), (2, "2"), (True, "Yes")]
)
def test_a_revision_reads_numbers_as_people_write_them(stored, read):
    # A revision stores 9000 for the "9,000" typed: it reads "9,000" again, never 9000.0.
    assert readable_value("data.inputs.0.objects", stored) == read


def test_no_label_or_help_text_speaks_of_billing():
    # The network sets no prices: hours are held or used, never billed.
    from jobs.steps import PART_SPECS

    def texts(specs):
        for s in specs:
            yield s.label
            yield s.help
            yield from texts(s.children)

    words = " ".join(t for specs in PART_SPECS.values() for t in texts(specs) if t)
    assert "Expected accelerator-hours" in words
    assert not re.search(r"\bbill|\bprice|\bcost", words, re.IGNORECASE)
