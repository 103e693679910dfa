"""What the admin shows of stored data: JSON as indented text a person can read, and a
read-only admin for history that must not change."""

import json

from django.contrib import admin
from django.utils.html import format_html


def readable_json(value):
    """A JSON field's value, indented, in a <pre> (the admin's default is one Python line).
    The <pre> takes focus: on a narrow screen it scrolls sideways, and a keyboard must reach it."""
    if value in (None, "", [], {}):
        return "—"
    text = json.dumps(value, indent=2, ensure_ascii=False, default=str)
    return format_html('<pre class="admin-json" tabindex="0">{}</pre>', text)


class HistoryAdmin(admin.ModelAdmin):
    """Rows that record what happened (revisions, events, reviews, history): listed and
    read for audits, never added, changed or deleted by hand."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class HistoryInline:
    """Mixed into an inline of rows that history keeps: shown, never added or deleted here."""

    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False
