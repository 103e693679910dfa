"""Widgets written in Python (portal/widgets.py) write what Django's templates write."""

import pytest
from django import forms

from portal.widgets import Hidden, Textarea

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
def test_hidden_as_django_writes_it(value, attrs):
    assert Hidden().render("version", value, attrs) == forms.HiddenInput().render(
        "version", value, attrs
    )
