"""The navigation's unread badge is kept on write (portal/badges.py) and always says what
counting every comment and notice would say (jobs.selectors.unread_recounted)."""

import pytest
from django.core.management import call_command
from django.urls import reverse

from jobs import services
from jobs.models import ReadMark
from jobs.selectors import unread_recounted
from portal import badges
from portal import services as portal_services
from portal.models import Membership, NoticeTopic, User
from portal.notify import Email, Telling, tell, tell_each
from portal.selectors import memberships_for, unread_notices
from portal.tasks import recount

pytestmark = pytest.mark.django_db


def _badge(user):
    user = User.objects.get(pk=user.pk)
    return badges.badge(user, list(memberships_for(user)))


def _assert_true(*people):
    for person in people:
        person = User.objects.get(pk=person.pk)
        assert _badge(person) == unread_recounted(person), person


def _notice(people, team, text="The run is running."):
    tell(
        people,
        key=f"n:{text}",
        notice=text,
        topic=NoticeTopic.JOB,
        url="/jobs/",
        team=team,
        email=Email(subject=text, template="emails/run_transition.txt", context={}),
    )


def test_comments_notices_and_reading_keep_the_badge_true(
    team_a, team_b, a_member, a_admin, b_member, staff, make_user
):
    other_staff = make_user("other@e31.example", staff=True)
    job = services.create_draft(team=team_a, user=a_member, data={"name": "one"})
    other = services.create_draft(team=team_b, user=b_member, data={"name": "two"})
    everyone = (a_member, a_admin, b_member, staff, other_staff)

    services.add_comment(job=job, author=a_member, body="first")
    services.add_comment(job=job, author=staff, body="second")
    services.add_comment(job=other, author=b_member, body="elsewhere")
    _assert_true(*everyone)
    assert _badge(a_admin) == 2 and _badge(a_member) == 1 and _badge(b_member) == 0
    assert _badge(other_staff) == 3

    _notice([a_member, a_admin], team_a)
    _notice([staff], None, "Staff news.")
    _assert_true(*everyone)
    assert _badge(a_admin) == 3

    services.mark_read(job=job, user=a_admin)
    services.mark_read(job=job, user=a_admin)  # twice changes nothing
    portal_services.mark_notices_read(
        user=a_admin, ids=[n.pk for n in unread_notices(a_admin, NoticeTopic.JOB)]
    )
    _assert_true(*everyone)
    assert _badge(a_admin) == 0

    # Leaving the team takes its news off the badge, as it takes the team's pages away.
    Membership.objects.filter(user=a_member, team=team_a).delete()
    _assert_true(*everyone)
    assert _badge(a_member) == 0


def test_the_page_shows_the_badge_without_counting(
    client_for, team_a, a_member, staff, django_assert_num_queries
):
    job = services.create_draft(team=team_a, user=a_member, data={"name": "one"})
    for i in range(3):
        services.add_comment(job=job, author=staff, body=f"c{i}")
    page = client_for(a_member).get(reverse("team_detail", args=[team_a.slug])).content.decode()
    assert '3<span class="visually-hidden"> unread' in page
    # Reading the job takes the badge down on the page that reads it.
    page = client_for(a_member).get(reverse("job_detail", args=[job.pk])).content.decode()
    assert "unread comments and notices" not in page


def test_recount_puts_counters_right_after_bulk_writes(team_a, a_member, a_admin, staff):
    job = services.create_draft(team=team_a, user=a_member, data={"name": "one"})
    services.add_comment(job=job, author=staff, body="one")
    services.add_comment(job=job, author=a_member, body="two")
    expected = {p.pk: _badge(p) for p in (a_member, a_admin, staff)}
    ReadMark.objects.update(unread=7)
    Membership.objects.update(unread_comments=9, unread_notices=4)
    User.objects.update(unread_comments=5)
    call_command("recount")
    assert {p.pk: _badge(p) for p in (a_member, a_admin, staff)} == expected
    _assert_true(a_member, a_admin, staff)


def test_reading_again_writes_nothing_until_something_new(
    team_a, a_member, staff, django_assert_num_queries
):
    job = services.create_draft(team=team_a, user=a_member, data={"name": "one"})
    services.add_comment(job=job, author=staff, body="first")
    services.mark_read(job=job, user=a_member)
    read_at = ReadMark.objects.get(job=job, user=a_member).read_at
    with django_assert_num_queries(1):  # one look at the mark: nothing new, nothing written
        services.mark_read(job=job, user=a_member)
    assert ReadMark.objects.get(job=job, user=a_member).read_at == read_at
    services.add_comment(job=job, author=staff, body="second")
    assert _badge(a_member) == 1
    services.mark_read(job=job, user=a_member)
    assert _badge(a_member) == 0
    assert ReadMark.objects.get(job=job, user=a_member).read_at > read_at
    _assert_true(a_member, staff)


def test_the_jobs_list_looks_for_notices_only_when_the_counters_say_some_wait(
    client_for, team_a, a_member, django_assert_num_queries
):
    client = client_for(a_member)
    client.get(reverse("job_list"))
    with django_assert_num_queries(5):  # session, user, memberships, page, status counts
        page = client.get(reverse("job_list")).content.decode()
    assert "New on the network" not in page
    _notice([a_member], team_a, "The run is released.")
    _notice([a_member], None, "A notice of no team.")
    page = client.get(reverse("job_list")).content.decode()
    assert "The run is released." in page and "A notice of no team." in page
    # Shown once: read, and the counters with them.
    page = client.get(reverse("job_list")).content.decode()
    assert "New on the network" not in page
    assert _badge(a_member) == unread_recounted(a_member) == 0


def test_telling_many_teams_at_once_counts_each_badge_in_one_update_per_number(
    team_a, team_b, a_member, a_admin, b_member, staff, django_assert_num_queries, make_user
):
    """A batch of scheduler events tells several teams, staff among the people told."""
    shared = make_user("both@example.org", team=team_a)
    Membership.objects.create(team=team_b, user=shared)
    mail = Email(subject="s", template="emails/run_transition.txt", context={})

    def telling(people, team, key):
        return Telling(people, key, mail, "news", NoticeTopic.JOB, "/jobs/", team)

    tellings = [
        telling([a_member, a_admin, shared, staff], team_a, "a1"),
        telling([a_member, a_admin, shared], team_a, "a2"),
        telling([b_member, shared, staff], team_b, "b1"),
        telling([staff], None, "staff"),
        telling([b_member], team_b, "b2"),
    ]
    # The notices, the e-mails, and the badges: the memberships left two notices (one
    # UPDATE, both teams), the one left one (another), staff on their user row (a third).
    with django_assert_num_queries(5):
        tell_each(tellings)
    _assert_true(a_member, a_admin, b_member, shared, staff)
    counts = {(m.team_id, m.user_id): m.unread_notices for m in Membership.objects.all()}
    assert counts == {
        (team_a.pk, a_member.pk): 2, (team_a.pk, a_admin.pk): 2, (team_a.pk, shared.pk): 2,
        (team_b.pk, b_member.pk): 2, (team_b.pk, shared.pk): 1,
    }  # fmt: skip
    assert User.objects.get(pk=staff.pk).unread_notices == 3
    # The objects told (the page being drawn may hold them) agree with their rows.
    assert staff.unread_notices == 3


def test_the_beat_recounts_every_hour(team_a, a_member, staff, settings):
    schedule = settings.CELERY_BEAT_SCHEDULE["recount-kept-counts"]
    assert schedule["task"] == recount.name and schedule["schedule"] <= 3600
    job = services.create_draft(team=team_a, user=a_member, data={"name": "one"})
    services.add_comment(job=job, author=staff, body="one")
    expected = _badge(a_member)
    Membership.objects.update(unread_comments=9)
    User.objects.update(unread_comments=5)
    recount.delay()  # eager in the tests
    assert _badge(a_member) == expected
    _assert_true(a_member, staff)
