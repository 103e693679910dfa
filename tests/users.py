"""The suite's people: every test user has the one password. Tests take the `make_user` and
`password` fixtures (tests/conftest.py); this module is what those fixtures are made of."""

from portal.models import Membership, Role, User

PASSWORD = "correct horse battery staple"


def make_user(email, *, staff=False, team=None, role=Role.MEMBER):
    user = User.objects.create_user(
        email, PASSWORD, is_staff=staff, is_superuser=staff, full_name=email.split("@")[0]
    )
    if team is not None:
        Membership.objects.create(team=team, user=user, role=role)
    return user
