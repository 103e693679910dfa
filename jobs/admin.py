from django.contrib import admin

from .models import Cluster, Dispatch, JobDescription


@admin.register(JobDescription)
class JobDescriptionAdmin(admin.ModelAdmin):
    list_display = ["__str__", "team", "created_by", "updated_at"]
    list_filter = ["team"]
    search_fields = ["name", "team__name"]
    list_select_related = ["team", "created_by"]


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
