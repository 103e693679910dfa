from django.contrib import admin

from .models import Passkey


@admin.register(Passkey)
class PasskeyAdmin(admin.ModelAdmin):
    """Staff remove a person's lost passkey here (as their app or recovery codes); the key
    itself is never edited by hand."""

    list_display = ["name", "user", "created_at", "last_used_at"]
    list_select_related = ["user"]
    search_fields = ["name", "user__email"]
    readonly_fields = ["user", "credential_id", "sign_count", "created_at", "last_used_at"]
    exclude = ["public_key"]

    def has_add_permission(self, request):
        return False
