"""Findings and problems in the Django admin. The triage moves are admin actions that call
the same services as the staff pages, so the transition table and the notifications hold."""

from django.contrib import admin, messages

from portal.admin_display import HistoryInline, readable_json
from portal.errors import DomainError

from . import services
from .counts import problems_of, recount_problems
from .models import (
    EvidenceSnapshot,
    Finding,
    FindingNote,
    FindingStatus,
    StatusChange,
    Subscription,
    UnsolvedProblem,
)


@admin.register(UnsolvedProblem)
class UnsolvedProblemAdmin(admin.ModelAdmin):
    list_display = ["title", "slug", "status", "published", "order", "updated_at"]
    list_filter = ["status", "published"]
    list_editable = ["published", "order"]
    search_fields = ["title", "summary", "body", "learned"]
    prepopulated_fields = {"slug": ["title"]}


class ReadOnlyInline(HistoryInline, admin.TabularInline):
    def has_change_permission(self, request, obj=None):
        return False


class StatusChangeInline(ReadOnlyInline):
    model = StatusChange
    fields = ["created_at", "from_status", "to_status", "actor", "note"]
    readonly_fields = fields


class NoteInline(ReadOnlyInline):
    model = FindingNote
    fields = ["created_at", "visibility", "author", "body"]
    readonly_fields = fields


class EvidenceInline(ReadOnlyInline):
    model = EvidenceSnapshot
    fk_name = "finding"
    fields = ["captured_at", "job_name", "revision_number", "run_state", "ledger_shown",
              "timeline_shown", "carried_from"]  # fmt: skip
    readonly_fields = fields

    @admin.display(description="Ledger (frozen)")
    def ledger_shown(self, snapshot):
        return readable_json(snapshot.ledger)

    @admin.display(description="Timeline (frozen)")
    def timeline_shown(self, snapshot):
        return readable_json(snapshot.timeline)


class SubscriptionInline(ReadOnlyInline):
    model = Subscription
    fk_name = "finding"
    fields = ["user", "created_at", "carried_from"]
    readonly_fields = fields


def _move(modeladmin, request, queryset, to_status):
    moved, refused = services.bulk_status(
        findings=list(queryset), actor=request.user, to_status=to_status
    )
    if moved:
        modeladmin.message_user(request, f"{len(moved)} moved to {to_status.label.lower()}.")
    for finding, reason in refused:
        modeladmin.message_user(request, f"#{finding.pk} not moved: {reason}", messages.ERROR)


@admin.action(description="Triage (needs a linked or proposed problem)")
def triage(modeladmin, request, queryset):
    _move(modeladmin, request, queryset, FindingStatus.TRIAGED)


@admin.action(description="Accept into the design")
def accept(modeladmin, request, queryset):
    _move(modeladmin, request, queryset, FindingStatus.ACCEPTED)


@admin.action(description="Mark addressed")
def address(modeladmin, request, queryset):
    _move(modeladmin, request, queryset, FindingStatus.ADDRESSED)


@admin.action(description="Assign to me")
def assign_to_me(modeladmin, request, queryset):
    try:
        count = services.assign(findings=list(queryset), assignee=request.user, actor=request.user)
    except DomainError as error:
        modeladmin.message_user(request, str(error), messages.ERROR)
    else:
        modeladmin.message_user(request, f"{count} assigned to you.")


@admin.register(Finding)
class FindingAdmin(admin.ModelAdmin):
    list_display = ["__str__", "team", "kind", "status", "impact", "assignee", "created_at"]
    list_filter = ["status", "kind", "impact", "team", "problems", "assignee"]
    search_fields = ["title", "summary", "team__name", "filed_by__email"]
    list_select_related = ["team", "assignee"]
    date_hierarchy = "created_at"
    actions = [triage, accept, address, assign_to_me]
    autocomplete_fields = ["problems"]
    # Status, duplicate and the frozen data change only through the services (actions
    # above, or the staff pages), so the history and notifications are never skipped.
    readonly_fields = [
        "team",
        "filed_by",
        "kind",
        "status",
        "details_shown",
        "job",
        "revision",
        "duplicate_of",
        "decline_reason",
        "version",
        "created_at",
        "updated_at",
        "status_changed_at",
    ]
    fields = [
        "title",
        "summary",
        "impact",
        "problems",
        "proposed_problem",
        "assignee",
        *readonly_fields,
    ]
    inlines = [StatusChangeInline, NoteInline, EvidenceInline, SubscriptionInline]

    @admin.display(description="Details")
    def details_shown(self, finding):
        return readable_json(finding.details)

    def has_add_permission(self, request):
        return False  # partners file findings in the portal, from their jobs

    # Links edited or findings deleted here bypass the services: keep the problems' counts.
    def save_related(self, request, form, formsets, change):
        before = problems_of(form.instance)
        super().save_related(request, form, formsets, change)
        recount_problems(before | problems_of(form.instance))

    def delete_model(self, request, obj):
        affected = problems_of(obj)
        super().delete_model(request, obj)
        recount_problems(affected)

    def delete_queryset(self, request, queryset):
        affected = problems_of(*queryset)
        super().delete_queryset(request, queryset)
        recount_problems(affected)


@admin.register(StatusChange)
class StatusChangeAdmin(admin.ModelAdmin):
    list_display = ["finding", "from_status", "to_status", "actor", "created_at"]
    list_filter = ["to_status"]
    search_fields = ["finding__title", "note"]
    list_select_related = ["finding", "actor"]

    def has_change_permission(self, request, obj=None):
        return False
