from functools import cache

from . import badges, selectors


def navigation(request):
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"nav_memberships": []}

    # Lazy: loaded only if a template shows them, once for both the menu and the badge.
    @cache
    def memberships():
        return list(selectors.memberships_for(user))

    return {
        "nav_memberships": memberships,
        "nav_unread": lambda: badges.badge(user, memberships()),
    }
