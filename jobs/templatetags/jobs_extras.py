from django import template

from portal.markdown import render_markdown

from ..spec.units import format_duration
from ..steps import anchor_id, form_words, step_of_field
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
def signed(value):
    if value is None:
        return ""
    return f"{value:+.1f}"


@register.filter
def field_label(path):
    return label(path or "")


@register.filter
def field_labels(paths):
    """A list of dotted paths as people's labels, comma-separated (e-mails, review notes)."""
    return ", ".join(label(p) for p in paths or [])


@register.filter(name="form_words")
def form_words_filter(text):
    return form_words(text)


@register.filter
def problem_title(slug):
    """'knowing-what-a-job-must-declare' -> 'Knowing what a job must declare'."""
    return str(slug or "").replace("-", " ").capitalize()
