from functools import cache

from django import forms

from portal.submissions import SubmissionTokenField
from portal.widgets import Textarea

from .jobformat.textio import MAX_TEXT_BYTES
from .models import Comment, ReviewOutcome
from .steps import all_field_paths, field_label


class ScratchForm(forms.Form):
    """A blank draft: the team (asked only of someone in several) and, if they have one
    already, the job's name."""

    team = forms.ModelChoiceField(queryset=None, empty_label=None)
    name = forms.CharField(
        label="Job name",
        required=False,
        max_length=300,
        help_text="What your team calls it; you can name it later.",
    )

    def __init__(self, *args, teams, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["team"].queryset = teams
        if len(teams) == 1:  # read once; the field reads its own copy to validate
            self.fields["team"].initial = teams[0].pk
            self.fields["team"].widget = forms.HiddenInput()
        self.fields["team"].help_text = "The team that owns this job."


class SbatchExportForm(forms.Form):
    """Which registered cluster the downloaded sbatch scripts are written for. A GET form:
    the choices are the clusters' ids, so a hostile value is refused before any query."""

    cluster = forms.ChoiceField(label="Write the sbatch scripts for", required=False)

    def __init__(self, *args, clusters, **kwargs):
        super().__init__(*args, **kwargs)
        self.clusters = {str(c.pk): c for c in clusters}
        self.fields["cluster"].choices = [
            ("", "no cluster: the scripts say which names to set"),
            *((pk, f"{c.name} (partition {c.partition})") for pk, c in self.clusters.items()),
        ]

    def chosen(self):
        return self.clusters.get(self.cleaned_data["cluster"])


class NewJobForm(forms.Form):
    team = forms.ModelChoiceField(queryset=None, empty_label=None)
    file = forms.FileField(
        required=False,
        label="Start from a file",
        help_text="A SkyPilot task YAML, an sbatch script, or a description in YAML or JSON (at most 1 MB).",
    )
    text = forms.CharField(
        required=False,
        label="…or paste its text",
        widget=Textarea(attrs={"rows": 8, "spellcheck": "false"}),
        max_length=MAX_TEXT_BYTES,
    )
    source_format = forms.ChoiceField(
        label="File format",
        choices=[
            ("auto", "Detect"),
            ("skypilot", "SkyPilot task"),
            ("sbatch", "Slurm sbatch"),
            ("native", "E31 description"),
        ],
        initial="auto",
    )

    def __init__(self, *args, teams, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["team"].queryset = teams
        if len(teams) == 1:  # one team: nothing to choose, so no select
            self.fields["team"].initial = teams[0].pk
            self.fields["team"].widget = forms.HiddenInput()
        self.fields["team"].help_text = "The team that owns this job."

    def clean(self):
        cleaned = super().clean()
        if not self.errors and not cleaned.get("file") and not cleaned.get("text"):
            self.add_error(
                "file", "Choose a file or paste its text (or start from scratch, above)."
            )
        return cleaned

    def clean_file(self):
        upload = self.cleaned_data.get("file")
        if upload and upload.size > MAX_TEXT_BYTES:
            raise forms.ValidationError(
                f"The file is {upload.size / 1e6:.1f} MB; job files are at most 1 MB."
            )
        return upload

    def source_text(self):
        upload = self.cleaned_data.get("file")
        if upload:
            return upload.read(MAX_TEXT_BYTES + 1)
        return self.cleaned_data.get("text") or ""

    def source_filename(self):
        upload = self.cleaned_data.get("file")
        return upload.name if upload else None


@cache  # the format's fields: the same for every form
def anchor_choices():
    paths = all_field_paths()
    return (("", "The whole description"), *((path, field_label(path)) for path in paths))


class CommentForm(forms.Form):
    submission_token = SubmissionTokenField(required=False)
    body = forms.CharField(
        label="Comment",
        max_length=10_000,
        widget=Textarea(attrs={"rows": 4}),
        help_text="Markdown works: **bold**, `code`, lists, links.",
    )
    # Every field of the format (~70): written by one template loop (portal/_long_select.html),
    # not a widget template per option.
    anchor = forms.ChoiceField(label="About", required=False)
    long_lists = ("anchor",)
    parent = forms.ModelChoiceField(
        queryset=Comment.objects.none(), required=False, widget=forms.HiddenInput
    )

    def __init__(self, *args, job, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["anchor"].choices = anchor_choices()
        self.fields["parent"].queryset = job.comments.all()

    def clean_anchor(self):
        anchor = self.cleaned_data.get("anchor") or ""
        return anchor


class ReviewForm(forms.Form):
    outcome = forms.ChoiceField(choices=ReviewOutcome.choices, widget=forms.RadioSelect)
    fields = forms.MultipleChoiceField(
        required=False,
        label="Fields to clarify",
        help_text="They are highlighted for the team.",
        widget=forms.SelectMultiple(attrs={"size": 8}),
    )
    note = forms.CharField(
        required=False,
        widget=Textarea(attrs={"rows": 4}),
        help_text="Required to ask for clarification or to decline. For real-time work, say what to keep on the team's own systems.",
    )

    def __init__(self, *args, field_choices, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["fields"].choices = field_choices
