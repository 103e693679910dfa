from django.core.management.base import BaseCommand
from django.db import transaction

from findings.demo import load_findings
from findings.insights.demo import load_program_history
from jobs.demo import load_cluster, load_jobs
from portal import services
from portal.demo import DEMO_INVITATIONS, DEMO_PASSWORD, DEMO_TEAMS, DEMO_USERS
from portal.intake.demo import load_intake
from portal.models import Invitation, Membership, Team, User


class Command(BaseCommand):
    help = "Load demo teams, accounts and each app's demo records. Safe to run again."

    @transaction.atomic
    def handle(self, *args, **options):
        teams, users = self.load_accounts()
        # Each capability adds its own demo records here (idempotent: they check before creating).
        load_jobs(teams=teams, users=users)
        load_cluster(users=users)
        load_findings(teams=teams, users=users)
        load_program_history(teams=teams, users=users)
        load_intake(teams=teams, users=users)
        self.stdout.write(self.style.SUCCESS("Demo data is loaded."))

    def load_accounts(self):
        teams, users = {}, {}
        for slug, name, organisation in DEMO_TEAMS:
            teams[slug], _ = Team.objects.get_or_create(
                slug=slug, defaults={"name": name, "organisation": organisation}
            )
        for email, full_name, is_staff, team_slug, role in DEMO_USERS:
            user = User.objects.filter(email__iexact=email).first()
            if user is None:
                create = User.objects.create_superuser if is_staff else User.objects.create_user
                user = create(email, DEMO_PASSWORD, full_name=full_name)
            users[email] = user
            if team_slug:
                Membership.objects.get_or_create(
                    team=teams[team_slug], user=user, defaults={"role": role}
                )
        staff = next(u for u in users.values() if u.is_staff)
        for email, team_slug, role in DEMO_INVITATIONS:
            if not Invitation.objects.filter(team=teams[team_slug], email__iexact=email).exists():
                services.invite(team=teams[team_slug], email=email, role=role, invited_by=staff)
        return teams, users
