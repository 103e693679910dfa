from django.contrib import admin

from .models import JobDescription


@admin.register(JobDescription)
class JobDescriptionAdmin(admin.ModelAdmin):
    list_display = ["__str__", "team", "created_by", "updated_at"]
    list_filter = ["team"]
    search_fields = ["name", "team__name"]
    list_select_related = ["team", "created_by"]
