from django import forms
from django.utils import timezone

from jobs.jobformat.precision.inconsistent import count_in_type
from jobs.jobformat.units import UnitError, parse_duration, parse_size, parse_when, quoted
from portal.intake.models import ApplicationStatus, StagedDecision
from portal.submissions import SubmissionTokenField
from portal.validators import one_line
from portal.widgets import Textarea

# Canonical values must fit their columns whatever someone types.
MAX_BYTES = 10**18  # an exabyte: far beyond any one job, and inside a 64-bit column
MAX_COUNT = 1_000_000
TEXT_LIMIT = 1000


def _part(label, help_text):
    return forms.CharField(
        label=label,
        max_length=TEXT_LIMIT,
        help_text=help_text,
        widget=Textarea(attrs={"rows": 3}),
    )


def _count(label, help_text, min_value=1):
    return forms.IntegerField(
        label=label, min_value=min_value, max_value=MAX_COUNT, help_text=help_text
    )


def _quantity(label, help_text):
    return forms.CharField(label=label, max_length=60, help_text=help_text)


def _day(label, help_text):
    """A day, with the browser's date picker; typed text ("31 March 2027") is read as well."""
    return forms.CharField(
        label=label, max_length=60, help_text=help_text, widget=forms.TextInput({"type": "date"})
    )


class ApplicationForm(forms.Form):
    """The application. Quantities are typed as text (so '2.5 TiB' or '36h' work) and
    parsed with the job-description format's own units, whose messages go on the field."""

    submission_token = SubmissionTokenField()

    team_name = forms.CharField(label="Team name", max_length=120, validators=[one_line])
    organisation = forms.CharField(max_length=160, validators=[one_line])

    contact_name = forms.CharField(label="Contact's name", max_length=150, validators=[one_line])
    contact_email = forms.EmailField(
        label="Contact's e-mail address",
        max_length=254,
        help_text="We send the status link here, and, if accepted, the invitation to be your team's admin.",
    )
    engineering_contacts = forms.CharField(
        label="Engineering contacts",
        max_length=TEXT_LIMIT,
        widget=Textarea(attrs={"rows": 3}),
        help_text="The engineers who would describe and run the job: a name and role per line.",
    )

    job_work = _part(
        "Work",
        "What runs: a training run, a batch of inference, a processing pass over footage, a simulation sweep…",
    )
    job_data = _part("Data", "What the job reads, where it lives today and in what format.")
    job_request = _part(
        "Request", "How much compute, for how long or until done, and what it does with less."
    )
    job_output = _part("Output", "What should come back, in what format, and where it goes next.")
    cpu_only = forms.BooleanField(
        label="The job uses no accelerators (CPU only)",
        required=False,
        help_text="Then leave the accelerator type empty and count nodes instead of accelerators.",
    )
    accelerator_type = forms.CharField(
        label="Accelerator type",
        max_length=80,
        required=False,
        help_text="e.g. H100 80GB, A100 40GB, L4. Empty for a CPU-only job.",
    )
    accelerator_count = _count(
        "Accelerators the job needs", "How many at once, e.g. 64 (nodes, for a CPU-only job)."
    )
    data_size = _quantity("Data size", "A number and a unit, e.g. 2.5 TiB or 800 GB.")
    duration = _quantity("Duration", "How long it runs, e.g. 36h, 90 min or 3d.")
    deadline = _day("Deadline", "The day it must be finished by (UTC), e.g. 31 March 2027.")

    typical_accelerators = _count(
        "Typical accelerators in use",
        "On an ordinary week, e.g. 8 (nodes, for a CPU-only job).",
        min_value=0,
    )
    peak_accelerators = _count(
        "Peak accelerators", "At the height of a spike, e.g. 256 (nodes, for a CPU-only job)."
    )
    spike_interval = _quantity(
        "How often spikes come", "The usual time between spikes, e.g. 6w, 30d or every 6 weeks."
    )
    next_spike = _day("When the next spike is", "The day it starts (UTC), e.g. 15 February 2027.")

    has_real_time = forms.BooleanField(
        label="Part of this work is real-time (serves requests or needs latency guarantees)",
        required=False,
    )
    real_time_description = forms.CharField(
        label="Which part is real-time",
        max_length=TEXT_LIMIT,
        required=False,
        widget=Textarea(attrs={"rows": 2}),
        help_text="Real-time work stays on your own systems; saying so now helps us both.",
    )

    consent = forms.BooleanField(
        label="We agree to the program's terms",
        help_text=(
            "Describe a real job precisely, engage at the engineering level, run it for real when "
            "the network is ready, and report what did not work. Nothing is bought or sold: no "
            "commitment to buy, no reference, no quote, no rates."
        ),
        error_messages={"required": "Tick this box to agree to the program's terms."},
    )

    FIELDSETS = [
        ("Your team", ["team_name", "organisation"]),
        ("Contacts", ["contact_name", "contact_email", "engineering_contacts"]),
        (
            "The job you would bring",
            [
                "job_work",
                "job_data",
                "job_request",
                "job_output",
                "cpu_only",
                "accelerator_type",
                "accelerator_count",
                "data_size",
                "duration",
                "deadline",
            ],
        ),
        (
            "Demand profile",
            ["typical_accelerators", "peak_accelerators", "spike_interval", "next_spike"],
        ),
        ("Real-time work", ["has_real_time", "real_time_description"]),
        ("Terms", ["consent"]),
    ]

    def __init__(self, *args, now=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.now = now or timezone.now()

    def fieldsets(self):
        return [(legend, [self[name] for name in names]) for legend, names in self.FIELDSETS]

    def _parsed(self, name, parse):
        text = self.cleaned_data[name]
        try:
            return text, parse(text)
        except (UnitError, ValueError, OverflowError) as error:
            # UnitError says what to write; anything else the parser trips on is still bad input.
            message = str(error) if isinstance(error, UnitError) else "This could not be read."
            raise forms.ValidationError(message) from None

    def clean_data_size(self):
        text, value = self._parsed("data_size", parse_size)
        if value <= 0:
            raise forms.ValidationError("The data size must be more than zero.")
        if value > MAX_BYTES:
            raise forms.ValidationError("That is more than an exabyte: check the unit.")
        return text, value

    def clean_duration(self):
        text, value = self._parsed("duration", parse_duration)
        if value <= 0:
            raise forms.ValidationError("The duration must be more than zero.")
        return text, value

    def clean_spike_interval(self):
        text, value = self._parsed("spike_interval", parse_duration)
        if value <= 0:
            raise forms.ValidationError("The time between spikes must be more than zero.")
        return text, value

    def _future(self, name, what):
        text, value = self._parsed(name, parse_when)
        if value <= self.now:
            raise forms.ValidationError(f"{what} is in the past: give a date still to come.")
        return text, value

    def clean_deadline(self):
        return self._future("deadline", "The deadline")

    def clean_next_spike(self):
        return self._future("next_spike", "That date")

    def clean(self):
        cleaned = super().clean()
        typical, peak = cleaned.get("typical_accelerators"), cleaned.get("peak_accelerators")
        if typical is not None and peak is not None and peak < typical:
            self.add_error("peak_accelerators", "The peak cannot be lower than the typical number.")
        kind = cleaned.get("accelerator_type", "").strip()
        if cleaned.get("cpu_only") and kind:
            self.add_error(
                "accelerator_type",
                "A CPU-only job names no accelerator: empty this, or untick CPU only.",
            )
        elif counted := count_in_type(kind):
            model = counted[1]
            self.add_error(
                "accelerator_type",
                f"{quoted(kind)} has a count in it: write {quoted(model)} here and the number "
                "of accelerators in Accelerators the job needs.",
            )
        elif not cleaned.get("cpu_only") and not kind and "accelerator_type" not in self.errors:
            self.add_error(
                "accelerator_type",
                "Name the accelerator type, e.g. H100 80GB, or tick CPU only if the job uses none.",
            )
        if cleaned.get("has_real_time") and not cleaned.get("real_time_description", "").strip():
            self.add_error("real_time_description", "Say which part is real-time.")
        return cleaned

    def application_data(self):
        """Field values for IntakeApplication: text as typed plus canonical values."""
        c = self.cleaned_data
        data = {
            name: c[name]
            for name in [
                "team_name",
                "organisation",
                "contact_name",
                "contact_email",
                "engineering_contacts",
                "job_work",
                "job_data",
                "job_request",
                "job_output",
                "cpu_only",
                "accelerator_type",
                "accelerator_count",
                "typical_accelerators",
                "peak_accelerators",
                "has_real_time",
            ]
        }
        data["real_time_description"] = c["real_time_description"] if c["has_real_time"] else ""
        data["data_size_text"], data["data_size_bytes"] = c["data_size"]
        data["duration_text"], data["duration_seconds"] = c["duration"]
        data["deadline_text"], data["deadline"] = c["deadline"]
        data["spike_interval_text"], data["spike_interval_seconds"] = c["spike_interval"]
        data["next_spike_text"], data["next_spike"] = c["next_spike"]
        return data


class WindowForm(forms.Form):
    opens_at = forms.DateTimeField(
        label="Opens at (UTC)",
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )
    closes_at = forms.DateTimeField(
        label="Closes at (UTC)",
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )
    places = forms.IntegerField(
        min_value=1, max_value=1000, help_text="How many teams can be accepted."
    )
    announcement = forms.CharField(
        max_length=5000,
        required=False,
        widget=Textarea(attrs={"rows": 6}),
        help_text="Markdown. Shown on the design-partners page while intake is open.",
    )

    def clean(self):
        cleaned = super().clean()
        opens_at, closes_at = cleaned.get("opens_at"), cleaned.get("closes_at")
        if opens_at and closes_at and closes_at <= opens_at:
            self.add_error("closes_at", "The closing time must be after the opening time.")
        return cleaned


class DecisionForm(forms.Form):
    decision = forms.ChoiceField(
        choices=StagedDecision.choices, widget=forms.RadioSelect, label="Decision"
    )
    reason = forms.CharField(
        label="Reason, or what is missing",
        max_length=TEXT_LIMIT,
        required=False,
        widget=Textarea(attrs={"rows": 3}),
        help_text="The applicant reads this. Required to decline or to say 'not yet'.",
    )

    def clean(self):
        cleaned = super().clean()
        decision = cleaned.get("decision")
        if (
            decision in (StagedDecision.DECLINE, StagedDecision.NOT_YET)
            and not cleaned.get("reason", "").strip()
        ):
            message = (
                "Say why: the applicant reads it."
                if decision == StagedDecision.DECLINE
                else "Say what is missing from the job description."
            )
            self.add_error("reason", message)
        return cleaned


class ApplicationFilterForm(forms.Form):
    status = forms.ChoiceField(required=False)
    real_time = forms.ChoiceField(
        label="Real-time part",
        required=False,
        choices=[("", "Any"), ("yes", "Has a real-time part"), ("no", "No real-time part")],
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["status"].choices = [("", "Any"), *ApplicationStatus.choices]
