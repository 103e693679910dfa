from django.contrib import admin
from django.db import transaction

from jobs.runs.models import Cluster, Dispatch

from . import services
from .models import JobDescription


@admin.register(JobDescription)
class JobDescriptionAdmin(admin.ModelAdmin):
    list_display = ["__str__", "team", "created_by", "updated_at"]
    list_filter = ["team"]
    search_fields = ["name", "team__name"]
    list_select_related = ["team", "created_by"]

    def save_model(self, request, obj, form, change):
        previous = None
        if change:
            previous = JobDescription.objects.values_list("team_id", "status").get(pk=obj.pk)
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
    readonly_fields = ["run", "key", "scripts", "slurm_jobs", "dispatched_by", "dispatched_at"]
