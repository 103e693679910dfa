"""One form per kind of finding. Each stores its own fields as structured data (details());
the common fields (title, description, impact, job) are shared by all of them."""

from django import forms

from jobs.jobformat.units import UnitError, parse_duration, parse_size
from jobs.models import Revision
from jobs.runs.models import Phase
from jobs.steps import all_field_paths, field_label
from portal.validators import one_line
from portal.widgets import Textarea

from .models import FindingKind, Impact

TEXT = {"max_length": 2000}


class KindForm(forms.Form):
    kind = forms.ChoiceField(
        label="What kind of finding is it?",
        choices=FindingKind.choices,
        widget=forms.RadioSelect,
        help_text="Pick the closest; the next form asks for that kind's details.",
    )


class FindingForm(forms.Form):
    """The fields every kind has. `jobs` is the team-scoped queryset of jobs it may name."""

    kind = None
    title = forms.CharField(
        max_length=200, help_text="One line that names what went wrong.", validators=[one_line]
    )
    impact = forms.ChoiceField(choices=Impact.choices, widget=forms.RadioSelect)
    job = forms.ModelChoiceField(
        queryset=None,
        required=False,
        label="Which job",
        help_text="Naming a job that ran freezes its timeline and ledger as evidence.",
    )
    summary = forms.CharField(
        label="Description",
        widget=Textarea(attrs={"rows": 5}),
        max_length=10_000,
        help_text="What happened, in your words. Plain text or Markdown.",
    )

    def __init__(self, *args, jobs, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["job"].queryset = jobs.order_by("name", "pk")
        self.fields["job"].empty_label = "— no particular job —"

    def details(self):
        """The kind's own fields as JSON-friendly data."""
        return {}

    def chosen_job(self):
        return self.cleaned_data.get("job")

    def chosen_revision(self):
        job = self.chosen_job()
        if job is None:
            return None
        return Revision.objects.filter(job=job).order_by("-number").first()


def _quantity(form, name, parse):
    """Clean a size/duration typed with its unit; the parser's sentence goes on the field."""
    text = form.cleaned_data.get(name, "").strip()
    try:
        value = parse(text)
    except UnitError as error:
        raise forms.ValidationError(str(error)) from None
    if value <= 0:
        raise forms.ValidationError("Give a positive amount.")
    form.cleaned_data[f"{name}_value"] = value
    return text


class AmbiguousForm(FindingForm):
    kind = FindingKind.AMBIGUOUS_DESCRIPTION
    revision = forms.ChoiceField(
        label="Which job and revision",
        help_text="The submitted revision whose wording you followed.",
    )
    field = forms.ChoiceField(
        label="Which field of the description",
        help_text="The field whose wording you followed, as the job's form names it.",
    )
    read_as = forms.CharField(
        label="What you read it as", widget=Textarea(attrs={"rows": 3}), **TEXT
    )
    turned_out = forms.CharField(
        label="What it turned out to mean", widget=Textarea(attrs={"rows": 3}), **TEXT
    )

    field_order = ["title", "impact", "revision", "field", "read_as", "turned_out", "summary"]

    def __init__(self, *args, jobs, **kwargs):
        super().__init__(*args, jobs=jobs, **kwargs)
        del self.fields["job"]  # the revision names the job
        revisions = Revision.objects.filter(job__in=jobs).select_related("job")
        self._revisions = {f"{r.job_id}:{r.number}": r for r in revisions}
        self.fields["revision"].choices = [("", "— choose —")] + [
            (key, f"{r.job} · revision {r.number}")
            for key, r in sorted(
                self._revisions.items(), key=lambda kv: (str(kv[1].job), -kv[1].number)
            )
        ]
        self.fields["field"].choices = [("", "— choose —")] + [
            (p, field_label(p)) for p in all_field_paths()
        ]

    def chosen_revision(self):
        return self._revisions.get(self.cleaned_data.get("revision"))

    def chosen_job(self):
        revision = self.chosen_revision()
        return revision.job if revision else None

    def details(self):
        revision = self.chosen_revision()
        return {
            "revision": revision.number,
            "field": self.cleaned_data["field"],
            "read_as": self.cleaned_data["read_as"],
            "turned_out": self.cleaned_data["turned_out"],
        }


class StagingForm(FindingForm):
    kind = FindingKind.STAGING_SLOWER
    data_size = forms.CharField(
        max_length=60, help_text="With its unit, e.g. “2.75 TiB” or “800 GB”."
    )
    source = forms.CharField(
        label="Where the data came from",
        max_length=300,
        help_text="e.g. “s3://bucket/prefix in eu-west-1” or “on-premises NAS over VPN”.",
    )
    staging_time = forms.CharField(
        max_length=60, help_text="How long staging took, e.g. “9h” or “1d 4h”."
    )
    run_time = forms.CharField(
        max_length=60, help_text="How long the job itself ran, e.g. “6h 30min”."
    )

    field_order = ["title", "impact", "job", "data_size", "source", "staging_time", "run_time"]

    def clean_data_size(self):
        return _quantity(self, "data_size", parse_size)

    def clean_staging_time(self):
        return _quantity(self, "staging_time", parse_duration)

    def clean_run_time(self):
        return _quantity(self, "run_time", parse_duration)

    def details(self):
        c = self.cleaned_data
        return {
            "data_size": c["data_size"],
            "data_size_bytes": c["data_size_value"],
            "source": c["source"],
            "staging_time": c["staging_time"],
            "staging_seconds": c["staging_time_value"],
            "run_time": c["run_time"],
            "run_seconds": c["run_time_value"],
        }


class OutputForm(FindingForm):
    kind = FindingKind.OUTPUT_NOT_USABLE
    expected_format = forms.CharField(max_length=300, help_text="e.g. “COCO JSON, one per clip”.")
    expected_destination = forms.CharField(
        max_length=300, help_text="e.g. “gs://team-results/masks/”."
    )
    received = forms.CharField(label="What came back", widget=Textarea(attrs={"rows": 3}), **TEXT)
    downstream = forms.CharField(
        label="The downstream system that needs it",
        max_length=300,
        help_text="e.g. “the labelling tool’s importer”.",
    )

    field_order = ["title", "impact", "job", "expected_format", "expected_destination"]

    def details(self):
        c = self.cleaned_data
        return {
            k: c[k] for k in ("expected_format", "expected_destination", "received", "downstream")
        }


class AccountingForm(FindingForm):
    kind = FindingKind.ACCOUNTING_MISMATCH
    expected_hours = forms.DecimalField(
        label="Accelerator-hours you expected",
        min_value=0,
        max_digits=12,
        decimal_places=3,
        help_text="Accelerator-hours, never money.",
    )
    held_hours = forms.DecimalField(
        label="Accelerator-hours the network held", min_value=0, max_digits=12, decimal_places=3
    )
    phase = forms.ChoiceField(
        label="The phase where they differ",
        choices=[("", "— choose —"), *Phase.choices],
    )

    field_order = ["title", "impact", "job", "expected_hours", "held_hours", "phase"]

    def clean(self):
        cleaned = super().clean()
        expected, held = cleaned.get("expected_hours"), cleaned.get("held_hours")
        if expected is not None and held is not None and expected == held:
            self.add_error("held_hours", "Expected and held are the same: there is no mismatch.")
        return cleaned

    def details(self):
        c = self.cleaned_data
        return {
            "expected_hours": float(c["expected_hours"]),
            "held_hours": float(c["held_hours"]),
            "phase": c["phase"],
        }


class HappenedForm(FindingForm):
    kind = FindingKind.OTHER
    what_happened = forms.CharField(widget=Textarea(attrs={"rows": 3}), **TEXT)
    what_expected = forms.CharField(
        label="What you expected", widget=Textarea(attrs={"rows": 3}), **TEXT
    )

    field_order = ["title", "impact", "job", "what_happened", "what_expected"]

    def details(self):
        return {k: self.cleaned_data[k] for k in ("what_happened", "what_expected")}


class SchedulingForm(HappenedForm):
    kind = FindingKind.SCHEDULING


FORMS = {
    form.kind: form
    for form in (
        AmbiguousForm,
        StagingForm,
        OutputForm,
        AccountingForm,
        SchedulingForm,
        HappenedForm,
    )
}

# How each kind's details are labelled when shown (the order is the form's).
DETAIL_LABELS = {
    "revision": "Revision",
    "field": "Field",
    "read_as": "What the team read it as",
    "turned_out": "What it turned out to mean",
    "data_size": "Data size",
    "source": "Where the data came from",
    "staging_time": "Staging time",
    "run_time": "Run time",
    "expected_format": "Expected format",
    "expected_destination": "Expected destination",
    "received": "What came back",
    "downstream": "Downstream system",
    "expected_hours": "Expected accelerator-hours",
    "held_hours": "Held accelerator-hours",
    "phase": "Phase",
    "what_happened": "What happened",
    "what_expected": "What was expected",
}
