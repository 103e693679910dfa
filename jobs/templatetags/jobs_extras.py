from django import template

from portal.markdown import render_markdown

from ..spec.units import format_duration
from ..steps import anchor_id, step_of_field
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
