"""Issue 31, item 5: the steps' help speaks the form's words (no file keys, no "True if",
no "(only with shape: …)", a choice's example by its label, no example for a yes/no
question), and a field of one shape of work is shown only for that shape, unless it holds a
value (it is still posted, so nothing typed is lost)."""

import re

import pytest
from django.urls import reverse

from findings.forms import AmbiguousForm
from jobs import services
from jobs.models import JobDescription

pytestmark = pytest.mark.django_db

FILE_WORDS = re.compile(
    r"<code>[a-z]+_[a-z_]+</code>|Example: <code>(yes|no)</code>|\bTrue (only )?if\b|True to\b"
    r"|only with shape|copy_before_start|deliver_partial|batch_inference"
)


def _helps(page):
    return " ".join(re.findall(r'class="help"[^>]*>(.*?)</(?:div|p)>', page, re.S))


@pytest.fixture
def draft(team_a, a_member):
    return services.create_draft(team=team_a, user=a_member)


def test_every_steps_help_is_in_the_forms_words(client_for, draft, a_member):
    client = client_for(a_member)
    # One item in each list, so the items' fields are on the pages too.
    services.save_draft(
        job=draft,
        user=a_member,
        parts={"data": {"inputs": [{"name": "a"}]}, "output": {"artifacts": [{"name": "b"}]}},
        version=draft.version,
    )
    for step in ("work", "data", "request", "output"):
        helps = _helps(client.get(reverse("job_step", args=[draft.pk, step])).content.decode())
        assert helps, step
        assert not FILE_WORDS.search(helps), (step, FILE_WORDS.search(helps))
    work = client.get(reverse("job_step", args=[draft.pk, "work"])).content.decode()
    assert "Example: batch inference" in work
    data = client.get(reverse("job_step", args=[draft.pk, "data"])).content.decode()
    assert "Yes if the job never writes to it." in data


def test_shape_fields_are_marked_for_their_shape_and_shown_while_they_hold_a_value(
    client_for, draft, a_member
):
    client = client_for(a_member)
    page = client.get(reverse("job_step", args=[draft.pk, "work"])).content.decode()
    assert re.search(r'class="field only-shape only-shape-shards" id="f-work-shards-wrap"', page)
    assert re.search(r'class="field only-shape only-shape-chain" id="f-work-chain-runs-wrap"', page)
    assert 'only-shape-shards" id="f-work-nodes-per-shard-wrap"' in page
    services.save_draft(
        job=draft, user=a_member, parts={"work": {"chain_runs": 4}}, version=draft.version
    )
    page = client.get(reverse("job_step", args=[draft.pk, "work"])).content.decode()
    assert 'class="field" id="f-work-chain-runs-wrap"' in page


def test_the_finding_forms_field_picker_speaks_of_no_n(team_a, a_member):
    form = AmbiguousForm(jobs=JobDescription.objects.filter(team=team_a))
    field = form.fields["field"]
    assert "“N”" not in field.help_text
    labels = [label for _, label in field.choices]
    assert "Data › each input › Size" in labels
    assert not any(re.search(r"\bN\b", label) for label in labels)
