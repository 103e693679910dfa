"""The fixes portal/widgets.py adds to Django's widgets and choice fields."""

import pytest
from django import forms
from django.db import connection

from portal.models import User
from portal.widgets import ListedModelChoiceField, Textarea


class NoteForm(forms.Form):
    body = forms.CharField(max_length=5, widget=Textarea)


def test_a_line_end_counts_once_as_the_browser_counts_it():
    # The browser allowed "ab\r\ncd" under maxlength=5 (it counts the line end once).
    form = NoteForm({"body": "ab\r\ncd"})
    assert form.is_valid() and form.cleaned_data["body"] == "ab\ncd"
    assert not NoteForm({"body": "abc\r\ndef"}).is_valid()


class StaffForm(forms.Form):
    person = ListedModelChoiceField(queryset=User.objects.order_by("email"), empty_label="Nobody")


@pytest.mark.django_db
def test_a_short_list_is_read_in_one_query_without_a_server_side_cursor(
    django_assert_num_queries,
):
    for name in ("a", "b", "c"):
        User.objects.create_user(f"{name}@example.org", "x")
    choices = iter(StaffForm().fields["person"].choices)
    with django_assert_num_queries(1):
        assert next(choices)[1] == "Nobody"
        assert next(choices)[1] == "a@example.org"
    if connection.vendor == "postgresql":
        # Half-way through, queryset.iterator() would hold a server-side cursor open.
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM pg_cursors")
            assert cursor.fetchone()[0] == 0
    assert [label for _, label in choices] == ["b@example.org", "c@example.org"]
