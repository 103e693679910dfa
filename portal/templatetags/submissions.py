"""`{% submission_token %}`: the hidden one-time token of a form that creates something
(portal/submissions.py). A built-in tag (settings.TEMPLATES), so every template has it."""

from django import template
from django.utils.html import format_html

from portal import submissions

register = template.Library()


@register.simple_tag
def submission_token():
    return format_html(
        '<input type="hidden" name="{}" value="{}">', submissions.FIELD, submissions.new_token()
    )
