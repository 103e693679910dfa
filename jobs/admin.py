from django import forms
from django.contrib import admin
from django.db import transaction

from jobs.runs.models import Cluster, Dispatch, Event, Hold, Run
from portal.admin_display import HistoryAdmin, HistoryInline, readable_json

from . import services
from .models import Comment, JobDescription, JobStatus, JobStatusChange, Review, Revision
from .rules import MOVES


# Stacked: a tabular inline without delete rights keeps an empty header cell, which a screen
# reader announces as nothing (axe: empty-table-header).
class JobStatusChangeInline(HistoryInline, admin.StackedInline):
    model = JobStatusChange
    fields = readonly_fields = ["created_at", "from_status", "to_status", "actor", "note"]


class JobDescriptionAdminForm(forms.ModelForm):
    """A correction of a job's status goes through the table of moves (jobs/rules.py), one
    move at a time, and leaves its history row (services.after_admin_save): never a flip
    from any status to any other."""

    class Meta:
        model = JobDescription
        fields = ["team", "name", "status"]

    def clean_status(self):
        new = self.cleaned_data["status"]
        old = self.instance.status if self.instance.pk else None
        if old is None:
            if new != JobStatus.DRAFT:
                raise forms.ValidationError("A new job starts as a draft.")
        elif new != old and MOVES.find(old, new) is None:
            possible = ", ".join(MOVES.label(t) for t in MOVES.targets(old)) or "nothing"
            raise forms.ValidationError(
                f"A job that is {MOVES.label(old)} cannot become {MOVES.label(new)}: "
                f"the table of moves allows {possible} from here."
            )
        return new


@admin.register(JobDescription)
class JobDescriptionAdmin(admin.ModelAdmin):
    list_display = ["__str__", "team", "status", "created_by", "updated_at"]
    list_filter = ["status", "team"]
    search_fields = ["name", "team__name"]
    list_select_related = ["team", "created_by"]
    form = JobDescriptionAdminForm
    readonly_fields = [
        "number",
        "clarify_shown",
        "description",
        "version",
        "created_by",
        "created_at",
        "updated_by",
        "updated_at",
        "last_activity_at",
    ]
    exclude = ["data", "recent_saves", "submission_token", "clarify_fields"]
    inlines = [JobStatusChangeInline]

    @admin.display(description="Fields staff asked to clarify")
    def clarify_shown(self, job):
        return readable_json(job.clarify_fields)

    @admin.display(description="Description (working copy)")
    def description(self, job):
        return readable_json(job.data)

    def save_model(self, request, obj, form, change):
        previous = None
        if change:
            previous = JobDescription.objects.values_list("team_id", "status").get(pk=obj.pk)
        else:
            obj.number = services.next_number_in_team(obj.team)
        super().save_model(request, obj, form, change)
        services.after_admin_save(job=obj, previous=previous, user=request.user)

    @transaction.atomic
    def delete_model(self, request, obj):
        services.before_admin_delete(JobDescription.objects.filter(pk=obj.pk))
        super().delete_model(request, obj)

    @transaction.atomic
    def delete_queryset(self, request, queryset):
        services.before_admin_delete(queryset)
        super().delete_queryset(request, queryset)


@admin.register(Cluster)
class ClusterAdmin(admin.ModelAdmin):
    list_display = ["name", "partition", "nodes", "reported_at"]
    search_fields = ["name", "partition"]
    # The token belongs to the scheduler client and is created with the cluster (/staff/clusters/).
    readonly_fields = ["client", "reported_at", "created_by", "created_at"]


@admin.register(Dispatch)
class DispatchAdmin(admin.ModelAdmin):
    list_display = ["__str__", "cluster", "state", "dispatched_at", "submitted_at", "finished_at"]
    list_filter = ["state", "cluster"]
    list_select_related = ["run__job", "cluster"]
    readonly_fields = [
        "run",
        "key",
        "scripts_shown",
        "slurm_jobs",
        "dispatched_by",
        "dispatched_at",
    ]
    exclude = ["scripts"]

    @admin.display(description="Scripts")
    def scripts_shown(self, dispatch):
        return readable_json(dispatch.scripts)


@admin.register(Revision)
class RevisionAdmin(HistoryAdmin):
    list_display = ["__str__", "job", "number", "submitted_by", "submitted_at", "awaiting_review"]
    list_filter = ["awaiting_review"]
    search_fields = ["job__name", "job__team__name"]
    list_select_related = ["job", "submitted_by"]
    fields = ["job", "number", "submitted_by", "submitted_at", "awaiting_review", "description",
              "warnings"]  # fmt: skip
    readonly_fields = fields

    @admin.display(description="Description (frozen)")
    def description(self, revision):
        return readable_json(revision.data)

    @admin.display(description="Warnings acknowledged")
    def warnings(self, revision):
        return readable_json(revision.warnings_acknowledged)


@admin.register(Review)
class ReviewAdmin(HistoryAdmin):
    list_display = ["revision", "outcome", "reviewer", "created_at"]
    list_filter = ["outcome"]
    list_select_related = ["revision__job", "reviewer"]
    fields = readonly_fields = ["revision", "outcome", "note", "fields", "reviewer", "created_at"]


@admin.register(Comment)
class CommentAdmin(admin.ModelAdmin):
    """Comments can be corrected (a secret pasted by mistake); who wrote what, where and
    when cannot."""

    list_display = ["__str__", "job", "author", "anchor", "created_at"]
    search_fields = ["body", "job__name"]
    list_select_related = ["job", "author"]
    readonly_fields = ["job", "parent", "anchor", "author", "created_at"]
    exclude = ["submission_token"]

    def has_add_permission(self, request):
        return False


class EventInline(HistoryInline, admin.TabularInline):
    model = Event
    fields = readonly_fields = ["occurred_at", "kind", "status", "from_state", "to_state", "actor",
                                "client", "note"]  # fmt: skip


class HoldInline(HistoryInline, admin.TabularInline):
    model = Hold
    fields = readonly_fields = ["phase", "accelerator_type", "count", "started_at", "ended_at"]


@admin.register(Run)
class RunAdmin(HistoryAdmin):
    """A run moves by events (the scheduler API, the staff controls, the simulator), each a
    row of its timeline: read here, never set by hand."""

    list_display = ["__str__", "state", "simulated", "restarts", "state_since"]
    list_filter = ["state", "simulated"]
    search_fields = ["job__name", "job__team__name"]
    list_select_related = ["job"]
    fields = readonly_fields = ["job", "revision", "state", "state_since", "restarts",
                                "failure_reason", "simulated", "created_at"]  # fmt: skip
    inlines = [EventInline, HoldInline]


@admin.register(Event)
class EventAdmin(HistoryAdmin):
    list_display = ["run", "kind", "status", "from_state", "to_state", "occurred_at", "actor"]
    list_filter = ["kind", "status", "simulated"]
    search_fields = ["run__job__name", "idempotency_key", "note"]
    list_select_related = ["run__job", "actor"]
    exclude = ["observed"]
    readonly_fields = ["observed_shown"]

    @admin.display(description="Observed")
    def observed_shown(self, event):
        return readable_json(event.observed)
