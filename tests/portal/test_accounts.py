import pytest
from django.core import mail
from django.urls import reverse

pytestmark = pytest.mark.django_db(transaction=True)


def test_login_with_email_and_logout(client, make_user, password):
    make_user("someone@example.com")
    response = client.post(
        reverse("login"), {"username": "Someone@Example.com", "password": password}
    )
    assert response.status_code == 302
    assert client.get(reverse("home")).context["user"].is_authenticated
    client.post(reverse("logout"))
    assert not client.get(reverse("home")).context["user"].is_authenticated


def test_login_is_throttled_after_repeated_failures(client, settings, make_user, password):
    make_user("target@example.com")
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post(reverse("login"), {"username": "target@example.com", "password": "wrong"})
    response = client.post(
        reverse("login"), {"username": "target@example.com", "password": password}
    )
    assert response.status_code == 429
    assert b"Too many failed" in response.content


def test_wrong_password_keeps_the_email_and_explains(client, make_user):
    make_user("k@example.com")
    response = client.post(reverse("login"), {"username": "k@example.com", "password": "nope"})
    assert response.status_code == 200
    assert b'value="k@example.com"' in response.content
    assert b"do not match an account" in response.content


def test_an_address_too_long_to_be_one_is_a_form_error(client):
    # It reached authenticate(): SQLite refused the LIKE, axes PostgreSQL's column (a 500).
    response = client.post(reverse("login"), {"username": "x" * 100_000, "password": "p"})
    assert response.status_code == 200
    assert b"An e-mail address has at most 254 characters; this one has 100,000." in (
        response.content
    )


def test_password_reset_by_email_round_trip(client, make_user):
    make_user("forgot@example.com")
    client.post(reverse("password_reset"), {"email": "forgot@example.com"})
    assert len(mail.outbox) == 1
    link = next(w for w in mail.outbox[0].body.split() if "/password/reset/" in w)
    response = client.get(link.replace("http://testserver", ""), follow=True)
    form_url = response.redirect_chain[-1][0]
    new = "another fine password 42"
    response = client.post(form_url, {"new_password1": new, "new_password2": new})
    assert response.status_code == 302
    response = client.post(reverse("login"), {"username": "forgot@example.com", "password": new})
    assert response.status_code == 302


def test_password_reset_for_unknown_address_reveals_nothing(client):
    response = client.post(reverse("password_reset"), {"email": "nobody@example.com"})
    assert response.status_code == 302
    assert mail.outbox == []


def test_password_change(client_for, make_user, password):
    user = make_user("p@example.com")
    client = client_for(user)
    new = "a brand new passphrase 7"
    response = client.post(
        reverse("password_change"),
        {"old_password": password, "new_password1": new, "new_password2": new},
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password(new)
