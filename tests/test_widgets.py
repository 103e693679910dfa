"""Widgets written in Python (portal/widgets.py) write what Django's templates write."""

import pytest
from django import forms

from portal.widgets import Hidden, NumberInput, Textarea, TextInput

VALUES = [None, "", "plain", 'a <b> & "c"', "two\nlines", 4, 0]
ATTRS = [None, {"id": "x", "maxlength": 10, "required": True, "aria-invalid": "true"}]


@pytest.mark.parametrize("value", VALUES)
@pytest.mark.parametrize("attrs", ATTRS)
def test_textarea_as_django_writes_it(value, attrs):
    mine = Textarea(attrs={"rows": 3, "spellcheck": "false"})
    django = forms.Textarea(attrs={"rows": 3, "spellcheck": "false"})
    assert mine.render("body", value, attrs) == django.render("body", value, attrs)


@pytest.mark.parametrize("value", VALUES)
@pytest.mark.parametrize("attrs", ATTRS)
@pytest.mark.parametrize(
    ("mine", "django"),
    [(Hidden, forms.HiddenInput), (TextInput, forms.TextInput), (NumberInput, forms.NumberInput)],
)
def test_inputs_as_django_writes_them(mine, django, value, attrs):
    assert mine().render("version", value, attrs) == django().render("version", value, attrs)
