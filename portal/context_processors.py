from . import selectors


def navigation(request):
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"nav_memberships": []}
    return {"nav_memberships": selectors.memberships_for(user)}
