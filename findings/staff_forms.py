"""Forms of the staff side: the queue's filters, bulk actions, triage moves, problems."""

from django import forms

from portal.models import User
from portal.widgets import (
    ChoicesOnce,
    ListedModelChoiceField,
    ListedModelMultipleChoiceField,
    Textarea,
)

from . import rules, selectors
from .models import FindingKind, FindingStatus, NoteVisibility, UnsolvedProblem

WAITING = "waiting"


def _staff():
    return User.objects.filter(is_staff=True, is_active=True).order_by("email")


class QueueFilterForm(forms.Form):
    """GET filters: anything hostile simply fails validation and is ignored."""

    q = forms.CharField(label="Search", required=False, max_length=200)
    status = forms.ChoiceField(
        required=False,
        choices=[
            ("", "Any status"),
            (WAITING, "Waiting on staff (new or reopened)"),
            *FindingStatus.choices,
        ],
    )
    kind = forms.ChoiceField(required=False, choices=[("", "Any kind"), *FindingKind.choices])
    # A team by its name, or part of it (not a list of every team: hundreds, and growing);
    # an id, as older links sent it (?team=12), is that team.
    team = forms.CharField(
        label="Team",
        required=False,
        max_length=120,
        widget=forms.TextInput(
            attrs={"type": "search", "placeholder": "Any team", "autocomplete": "off"}
        ),
    )
    problem = forms.TypedChoiceField(required=False, coerce=int)
    assignee = forms.TypedChoiceField(required=False, coerce=int)
    unassigned = forms.BooleanField(label="Unassigned only", required=False)
    age = forms.ChoiceField(
        label="Older than",
        required=False,
        choices=[("", "Any age")]
        + [(k, f"{v} day{'s' if v > 1 else ''}") for k, v in selectors.AGES.items()],
    )
    sort = forms.ChoiceField(
        required=False,
        choices=[
            ("newest", "Newest first"),
            ("oldest", "Oldest first"),
            ("updated", "Recently changed"),
            ("status", "Status"),
            ("kind", "Kind"),
        ],
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        lists = {
            "problem": ("Any problem", lambda: UnsolvedProblem.objects.values_list("pk", "title")),
            "assignee": ("Anyone", selectors.assignee_choices),
        }
        for name, (empty, rows) in lists.items():
            self.fields[name].choices = ChoicesOnce(
                lambda rows=rows, empty=empty: [("", empty), *rows()]
            )

    def rows(self, name):
        """The (id, label) rows the filter `name` lists (problem, assignee), in its order:
        the page lists the same rows elsewhere (the bulk form, the rows' problems)."""
        return self.fields[name].choices.loaded_rows()

    @classmethod
    def for_queue(cls, query):
        """The queue is an inbox: opened with no filter (a later page of it included), it
        lists what waits on staff, new or reopened, and its status list says so; every other
        finding (addressed, declined…) is a choice of that list away."""
        if any(name in query for name in cls.base_fields):
            return cls(query)
        return cls({**query.dict(), "status": WAITING})

    def filters(self):
        if not self.is_valid():
            return {}
        return {k: v for k, v in self.cleaned_data.items() if v not in (None, "", False)}


class BulkForm(forms.Form):
    ACTIONS = [
        ("assign", "Assign to"),
        ("status", "Set status to"),
        ("link", "Link to problem"),
    ]
    findings = forms.ModelMultipleChoiceField(
        queryset=None,
        label="Findings",
        error_messages={"required": "Tick at least one finding in the list first."},
    )
    action = forms.ChoiceField(choices=ACTIONS)
    assignee = forms.ModelChoiceField(queryset=None, required=False, empty_label="Nobody")
    status = forms.ChoiceField(
        required=False,
        label="New status",
        choices=[("", "—")]
        + [
            (s.value, s.label)
            for s in FindingStatus
            if any(
                to == s and who == rules.Actor.STAFF for (_, to), who in rules.TRANSITIONS.items()
            )
        ],
    )
    problem = forms.ModelChoiceField(
        queryset=UnsolvedProblem.objects.all(), required=False, empty_label="—"
    )
    note = forms.CharField(required=False, max_length=2000, label="Note (the partner reads it)")

    def __init__(self, *args, findings, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["findings"].queryset = findings
        self.fields["assignee"].queryset = _staff()

    def clean(self):
        cleaned = super().clean()
        action = cleaned.get("action")
        if action == "status" and not cleaned.get("status"):
            self.add_error("status", "Choose the status to set.")
        if action == "link" and not cleaned.get("problem"):
            self.add_error("problem", "Choose the problem to link.")
        return cleaned


class StatusForm(forms.Form):
    to_status = forms.ChoiceField(choices=FindingStatus.choices, label="Move to")
    problems = ListedModelMultipleChoiceField(
        queryset=UnsolvedProblem.objects.all(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label="Unsolved problems it is evidence for",
        help_text="Needed to triage, unless you propose a new problem.",
    )
    proposed_problem = forms.CharField(
        required=False, max_length=200, label="Or propose a new problem"
    )
    note = forms.CharField(
        required=False,
        widget=Textarea(attrs={"rows": 2}),
        max_length=2000,
        label="Note (the partner reads it; required to decline)",
    )
    version = forms.IntegerField(widget=forms.HiddenInput)


class NoteForm(forms.Form):
    visibility = forms.ChoiceField(
        choices=[
            (NoteVisibility.RESPONSE, "Response to the partner"),
            (NoteVisibility.INTERNAL, "Internal note (staff only)"),
        ],
        widget=forms.RadioSelect,
        initial=NoteVisibility.INTERNAL,
        label="Who reads it",
    )
    body = forms.CharField(widget=Textarea(attrs={"rows": 3}), max_length=10_000, label="Text")
    version = forms.IntegerField(widget=forms.HiddenInput)


class AssignForm(forms.Form):
    assignee = ListedModelChoiceField(queryset=None, required=False, empty_label="Nobody")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["assignee"].queryset = _staff()


class MergeForm(forms.Form):
    target = forms.IntegerField(
        label="Duplicate of finding number",
        min_value=1,
        help_text="e.g. 12 for finding #12.",
    )
    note = forms.CharField(required=False, max_length=2000, label="Note (the partner reads it)")
    version = forms.IntegerField(widget=forms.HiddenInput)


class ProblemForm(forms.ModelForm):
    class Meta:
        model = UnsolvedProblem
        fields = ["title", "slug", "summary", "body", "status", "learned", "published", "order"]
        widgets = {
            "body": Textarea(attrs={"rows": 8}),
            "learned": Textarea(attrs={"rows": 6}),
        }
