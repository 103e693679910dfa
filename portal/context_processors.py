from . import badges, selectors


def navigation(request):
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"nav_memberships": []}
    # Lazy: loaded only if a template shows them, and the same list the view's team-scoped
    # reads used (selectors.own_memberships): one query for the menu, the badge and scoping.
    return {
        "nav_memberships": lambda: selectors.own_memberships(user),
        "nav_unread": lambda: badges.badge(user, selectors.own_memberships(user)),
    }
