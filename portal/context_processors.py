from . import selectors


def navigation(request):
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"nav_memberships": []}
    from jobs.selectors import unread_total

    # Lazy: computed only if a template shows it.
    return {
        "nav_memberships": selectors.memberships_for(user),
        "nav_unread": lambda: unread_total(user),
    }
