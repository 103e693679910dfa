from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin

from portal.intake.models import IntakeApplication, IntakeDecision, IntakeWindow

from .intake import rules as intake
from .models import Invitation, Membership, OutboundEmail, Team, TeamErasure, User


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ["user"]


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    ordering = ["email"]
    list_display = ["email", "full_name", "is_staff", "is_active", "last_login"]
    search_fields = ["email", "full_name"]
    fieldsets = [
        (None, {"fields": ["email", "password", "full_name"]}),
        ("Access", {"fields": ["is_active", "is_staff", "is_superuser", "groups"]}),
        ("Dates", {"fields": ["last_login", "date_joined"]}),
    ]
    add_fieldsets = [(None, {"classes": ["wide"], "fields": ["email", "password1", "password2"]})]
    inlines = [MembershipInline]


@admin.register(Team)
class TeamAdmin(admin.ModelAdmin):
    list_display = ["name", "organisation", "slug", "created_at"]
    search_fields = ["name", "organisation"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [MembershipInline]


@admin.register(TeamErasure)
class TeamErasureAdmin(admin.ModelAdmin):
    """The record of an erasure: read-only, never added or deleted by hand."""

    list_display = ["team_name", "erased_at", "erased_by_email"]
    search_fields = ["team_name", "team_slug"]
    readonly_fields = [f.name for f in TeamErasure._meta.fields]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    list_display = ["email", "team", "role", "sent_at", "expires_at", "accepted_at", "revoked_at"]
    list_filter = ["role", "team"]
    search_fields = ["email", "team__name"]
    readonly_fields = ["key", "accepted_by", "accepted_at"]


@admin.register(OutboundEmail)
class OutboundEmailAdmin(admin.ModelAdmin):
    list_display = ["subject", "to", "created_at", "sent_at", "attempts"]
    list_filter = ["sent_at"]
    search_fields = ["to", "subject"]
    # A private link waiting for delivery is nobody's to read, staff included.
    exclude = ["private_link"]
    readonly_fields = [f.name for f in OutboundEmail._meta.fields if f.name != "private_link"]

    def has_add_permission(self, request):
        return False


# Design-partner intake. Staff manage windows here too; the state column is computed.


@admin.register(IntakeWindow)
class IntakeWindowAdmin(admin.ModelAdmin):
    list_display = ["__str__", "places", "state", "closed_at", "close_reason", "closed_by"]
    list_filter = ["close_reason"]
    readonly_fields = ["created_at", "created_by", "closed_at", "closed_by", "close_reason"]

    @admin.display(description="State now")
    def state(self, window):
        return intake.status_of(window).state.label

    def save_model(self, request, obj, form, change):
        if not change:
            obj.created_by = request.user
        super().save_model(request, obj, form, change)


class IntakeDecisionInline(admin.TabularInline):
    model = IntakeDecision
    extra = 0
    can_delete = False
    readonly_fields = [
        "from_status", "to_status", "reason", "decided_by", "released_by", "created_at"
    ]  # fmt: skip

    def has_add_permission(self, request, obj=None):
        return False  # decisions are recorded by the release, not typed in


@admin.register(IntakeApplication)
class IntakeApplicationAdmin(admin.ModelAdmin):
    list_display = [
        "team_name", "organisation", "status", "staged_decision", "typical_accelerators",
        "peak_accelerators", "has_real_time", "submitted_at",
    ]  # fmt: skip
    list_filter = ["status", "staged_decision", "has_real_time", "window"]
    search_fields = ["team_name", "organisation", "contact_email", "contact_name"]
    readonly_fields = ["submission_token", "status_token_hash", "team", "submitted_at"]
    inlines = [IntakeDecisionInline]
