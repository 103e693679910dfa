from jobs.selectors import unread_total

from . import selectors


def navigation(request):
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"nav_memberships": []}
    # Lazy: computed only if a template shows it.
    return {
        "nav_memberships": selectors.memberships_for(user),
        "nav_unread": lambda: unread_total(user),
    }
