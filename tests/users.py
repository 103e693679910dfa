"""The suite's people: every test user has the one password. Tests take the `make_user` and
`password` fixtures (tests/conftest.py); this module is what those fixtures are made of."""

from portal.models import Membership, Role, User
from portal.second_factor import services as second_factor

PASSWORD = "correct horse battery staple"


def make_user(email, *, staff=False, team=None, role=Role.MEMBER):
    user = User.objects.create_user(
        email, PASSWORD, is_staff=staff, is_superuser=staff, full_name=email.split("@")[0]
    )
    if team is not None:
        Membership.objects.create(team=team, user=user, role=role)
    return user


def log_in(client, user):
    """A test client logged in as `user` (force_login skips the throttled backend) and past the
    second step: staff as if they had typed their code, partners as people who have not set it
    up. tests/portal/test_second_factor.py logs in through both steps."""
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    session = client.session
    session[second_factor.SESSION_KEY] = (
        second_factor.PASSED if user.is_staff else second_factor.NOT_SET_UP
    )
    session.save()
    return client
