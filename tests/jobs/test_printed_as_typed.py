"""Issue 31, item 8: what a person wrote is printed as they wrote it. A running time of
"48:00:00" or "48h" stays so (never "2d"), a deadline given as a day reads as a day
("31 March 2027", never 2027-03-31T00:00Z) on the import page, the job's description and the
declared-against-observed table; the import page lists every value read with its line and the
notes; the import form asks for no team when there is one; the Shape field speaks the form's words."""

import copy
import re

import pytest
from django.urls import reverse

from jobs import jobformat, services
from jobs.models import JobDescription
from jobs.runs import observed
from portal.models import Membership

pytestmark = pytest.mark.django_db

NATIVE = """\
name: as-typed
request:
  estimate: 48h
  maximum: 48:00:00
  deadline: 2027-03-31
  earliest_start: 2027-03-01T09:00Z
"""

SBATCH = """\
#!/bin/bash
#SBATCH --job-name=as-typed
#SBATCH --time=48:00:00
#SBATCH --partition=gpu
python train.py
"""


def imported_page(client, team, text):
    response = client.post(
        reverse("job_new"), {"team": team.pk, "text": text, "source_format": "auto"}
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    return JobDescription.objects.latest("pk"), client.get(response["Location"]).content.decode()


def test_a_description_file_reads_back_as_written_with_each_line(client_for, team_a, a_member):
    job, page = imported_page(client_for(a_member), team_a, NATIVE)
    # YAML 1.1 would read 48:00:00 as 172800 (base 60) and the day as a date object.
    assert job.data["request"]["maximum"] == "48:00:00"
    assert job.data["request"]["deadline"] == "2027-03-31"
    assert '48:00:00<span class="read-from">line 4: <code>maximum: 48:00:00</code>' in page
    assert '48h<span class="read-from">line 3: <code>estimate: 48h</code>' in page
    assert '31 March 2027<span class="read-from">line 5: <code>deadline: 2027-03-31</code>' in page
    assert "2027-03-01T09:00Z<span" in page  # a moment with its time stays as typed
    assert "172800" not in page and ">2d<" not in page and "T00:00Z" not in page


def test_an_sbatch_time_limit_reads_back_as_written_and_the_notes_are_listed(
    client_for, team_a, a_member
):
    job, page = imported_page(client_for(a_member), team_a, SBATCH)
    assert job.data["request"]["maximum"] == "48:00:00"
    assert '48:00:00<span class="read-from">line 3: <code>#SBATCH --time=48:00:00</code>' in page
    assert ">2d<" not in page
    notes = page[page.index("<h3>Notes</h3>") :]
    assert "--partition gpu" in notes


def test_a_slurm_time_in_a_skypilot_file_is_not_read_as_minutes():
    text = (
        "name: t\nrun: python x.py\nconfig:\n  slurm:\n    sbatch_options:\n      time: 48:00:00\n"
    )
    [result] = jobformat.import_text(text, "skypilot")
    maximum = result.description.request.maximum
    # Read by YAML as the number 172800 and then as Slurm minutes, this was 120 days.
    assert maximum.seconds == 48 * 3600 and maximum.text == "48:00:00"


def test_the_description_prints_durations_and_days_as_written(client_for, team_a, a_member):
    data = copy.deepcopy(jobformat.example_data())
    data["request"].update(estimate="48h", maximum="48:00:00", deadline="2027-03-31")
    data["request"].pop("earliest_start", None)
    job = services.create_draft(team=team_a, user=a_member, data=data)
    revision = services.submit(job=job, user=a_member, acknowledge_warnings=True)
    page = client_for(a_member).get(reverse("revision_detail", args=[job.pk, revision.number]))
    html = page.content.decode()
    assert ">48h<" in html and ">48:00:00<" in html and ">31 March 2027<" in html
    assert ">2d<" not in html and "T00:00Z" not in html


def test_the_declared_figures_of_a_run_print_the_estimate_and_the_day_as_written(accepted):
    data = copy.deepcopy(accepted.data)
    data["request"].update(estimate="48h", deadline="2027-03-31")
    data["request"].pop("earliest_start", None)
    description, _ = jobformat.load(data)
    result = observed.compute(accepted.run, events=[], holds=[], description=description)
    by = {f.key: f for f in result.figures}
    assert by["duration"].declared_text == "48h"
    assert by["deadline"].declared_text == "31 March 2027"


def test_the_import_form_asks_for_no_team_when_there_is_one(client_for, team_a, team_b, a_member):
    client = client_for(a_member)
    html = client.get(reverse("job_new")).content.decode()
    assert '<select name="team"' not in html
    assert f'<input type="hidden" name="team" value="{team_a.pk}"' in html
    # The hidden team is the person's own: the import lands there.
    job, _ = imported_page(client, team_a, SBATCH)
    assert job.team == team_a

    Membership.objects.create(team=team_b, user=a_member)
    html = client.get(reverse("job_new")).content.decode()
    assert '<select name="team"' in html and "Team B" in html


def test_the_shape_field_speaks_the_forms_words(client_for, team_a, a_member):
    draft = services.create_draft(team=team_a, user=a_member)
    html = client_for(a_member).get(reverse("job_step", args=[draft.pk, "work"])).content.decode()
    start = html.index('id="f-work-shape-help"')
    shape_help = html[start : html.index("</div>", start)]
    assert "Independent shards: pieces that can run apart" in shape_help
    # The file's keys, as the format's own help writes them ("gang: all nodes…; shards: …").
    assert not re.search(r"(?:>|;)\s*(?:gang|shards|chain):", shape_help)
    assert '<option value="shards">Independent shards</option>' in html
    assert '<option value="gang">All nodes together (a gang)</option>' in html


def test_an_import_note_names_its_field_by_label_and_shows_the_file_as_code(
    client_for, team_a, a_member
):
    script = SBATCH.replace("python train.py", "python train.py --output_dir /scratch/out")
    _, page = imported_page(client_for(a_member), team_a, script)
    notes = page[page.index("<h3>Notes</h3>") :]
    notes = notes[: notes.index("</ul>")]
    assert (
        "<li>Output › Artifacts: /scratch/out (read from "
        "<code>--output_dir /scratch/out</code> on line 5).</li>"
    ) in notes
    assert "output.artifacts" not in notes and "`" not in notes


def test_an_import_note_escapes_what_the_file_said():
    from jobs.templatetags.jobs_extras import note_words

    html = note_words("data.inputs: <b>x</b> (read from `--in <i>` on line 2).")
    assert html == (
        "Data › Inputs: &lt;b&gt;x&lt;/b&gt; (read from <code>--in &lt;i&gt;</code> on line 2)."
    )
