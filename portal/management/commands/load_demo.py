from django.core.management.base import BaseCommand
from django.db import transaction

from portal import services
from portal.demo import DEMO_INVITATIONS, DEMO_PASSWORD, DEMO_TEAMS, DEMO_USERS
from portal.models import Invitation, Membership, Team, User


class Command(BaseCommand):
    help = "Load demo teams and accounts. Safe to run again: existing rows are kept as they are."

    @transaction.atomic
    def handle(self, *args, **options):
        teams = {}
        for slug, name, organisation in DEMO_TEAMS:
            teams[slug], _ = Team.objects.get_or_create(
                slug=slug, defaults={"name": name, "organisation": organisation}
            )
        staff = None
        for email, full_name, is_staff, team_slug, role in DEMO_USERS:
            user = User.objects.filter(email__iexact=email).first()
            if user is None:
                create = User.objects.create_superuser if is_staff else User.objects.create_user
                user = create(email, DEMO_PASSWORD, full_name=full_name)
            if is_staff:
                staff = user
            if team_slug:
                Membership.objects.get_or_create(
                    team=teams[team_slug], user=user, defaults={"role": role}
                )
        for email, team_slug, role in DEMO_INVITATIONS:
            if not Invitation.objects.filter(team=teams[team_slug], email__iexact=email).exists():
                services.invite(team=teams[team_slug], email=email, role=role, invited_by=staff)
        self.stdout.write(self.style.SUCCESS("Demo data is loaded."))
