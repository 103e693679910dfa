import re
from functools import lru_cache

from django import template
from django.conf import settings
from django.template.loader import render_to_string
from django.utils.html import format_html, format_html_join

from jobs.runs.ledger import say_hours
from jobs.runs.models import RunState
from portal.markdown import render_markdown

from ..jobformat.units import format_duration, number_for_people
from ..steps import anchor_id, form_words, help_words, step_of_field
from ..steps import field_label as label

register = template.Library()


@register.filter
def field_id(path):
    return anchor_id(path)


@register.filter
def markdown(text):
    return render_markdown(text)


@register.filter
def step_for(path):
    return step_of_field(path)


@register.filter
def duration(seconds):
    return format_duration(int(seconds or 0))


@register.filter
def held(hours):
    """Hours held: 1.5 h from an hour up, minutes or seconds below (ledger.say_hours)."""
    return say_hours(hours)


@register.filter
def for_people(value):
    """A number in a sentence as people write it: 1152.0 -> '1,152', never '1152.0'."""
    return "" if value is None else number_for_people(value)


@register.filter
def signed(value):
    if value is None:
        return ""
    text = f"{value:+,.1f}"
    # -0.02 h is "0.0", not "-0.0": a difference too small to show has no sign.
    return text[1:] if text in ("+0.0", "-0.0") else text


@register.filter
def field_label(path):
    return label(path or "")


@register.filter
def field_labels(paths):
    """A list of dotted paths as people's labels, comma-separated (e-mails, review notes)."""
    return ", ".join(label(p) for p in paths or [])


# An importer's note starts with the field it concerns ("output.artifacts: /scratch/out (read
# from `--output_dir /scratch/out` on line 8).") and quotes the file in backticks.
_NOTE_FIELD = re.compile(r"^([a-z_]+(?:\.[a-z0-9_]+)+): ")
_BACKTICKED = re.compile(r"`([^`\n]*)`")


@register.filter
def note_words(note):
    """An import note as the import page shows it: the field by its label, what the file
    said as code, never the file's key or its backticks."""
    text = str(note or "")
    head = ""
    field = _NOTE_FIELD.match(text)
    if field:
        head = format_html("{}: ", label(field[1]))
        text = text[field.end() :]
    pieces = _BACKTICKED.split(text)  # every second piece is what the file said
    body = format_html_join(
        "",
        "{}",
        (
            (format_html("<code>{}</code>", piece) if i % 2 else form_words(piece),)
            for i, piece in enumerate(pieces)
        ),
    )
    return format_html("{}{}", head, body)


@register.filter(name="form_words")
def form_words_filter(text):
    return form_words(text)


@register.filter(name="help_words")
def help_words_filter(text):
    return help_words(text)


@register.filter
def problem_title(slug):
    """'knowing-what-a-job-must-declare' -> 'Knowing what a job must declare'."""
    return str(slug or "").replace("-", " ").capitalize()


STATE_LABELS = dict(RunState.choices)
PHASES = ["submitted", "rented", "running", "output", "released"]
PHASE_LABELS = {
    "submitted": "Submit",
    "rented": "Rent",
    "running": "Run",
    "output": "Output",
    "released": "Release",
}


@register.simple_tag
def phase_strip(run):
    """A run's place in submit → rent → run → output → release, as a small picture. It
    depends on the state alone, so a list renders each state's picture once."""
    state = getattr(run, "state", "")
    label = STATE_LABELS.get(state, state)
    if settings.DEBUG:  # a template being edited shows at once
        return _phase_strip(state, label)
    return _phase_strip_kept(state, label)


def _phase_strip(state, state_label):
    stopped = state in ("failed", "cancelled")
    reached = PHASES.index(state) if state in PHASES else -1
    segments = []
    for i, phase in enumerate(PHASES):
        if stopped:
            status = "stopped"
        elif state == "released" or i < reached:
            status = "done"
        elif i == reached:
            status = "now"
        else:
            status = "upcoming"
        segments.append({"label": PHASE_LABELS[phase], "status": status, "x": i * 30})
    words = {"done": "done", "now": "now", "upcoming": "to come", "stopped": "stopped"}
    summary = ", ".join(f"{s['label']} {words[s['status']]}" for s in segments)
    return render_to_string(
        "jobs/_phase_strip.html",
        {"state_label": state_label, "segments": segments, "summary": summary},
    )


_phase_strip_kept = lru_cache(maxsize=32)(_phase_strip)


@register.filter
def phase_strip_of(state):
    """phase_strip() of a run in this state, for lists that read the state alone."""
    label = STATE_LABELS.get(state, state)
    return _phase_strip(state, label) if settings.DEBUG else _phase_strip_kept(state, label)
