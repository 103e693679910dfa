"""Django's widgets and choice fields, with the two fixes this site needs."""

from django import forms
from django.forms.models import ModelChoiceIterator
from django.utils.choices import BaseChoiceIterator


class Textarea(forms.Textarea):
    """A textarea whose line ends count once: browsers send "\\r\\n" but count one character
    against maxlength, so without this the server would refuse text the browser allowed."""

    def value_from_datadict(self, data, files, name):
        value = super().value_from_datadict(data, files, name)
        return value.replace("\r\n", "\n") if isinstance(value, str) else value


class _ListedIterator(ModelChoiceIterator):
    def __iter__(self):
        if self.field.empty_label is not None:
            yield ("", self.field.empty_label)
        # The queryset itself, not queryset.iterator(): on PostgreSQL that is a server-side
        # cursor (DECLARE, FETCH, CLOSE: three round trips) for a list of a few rows.
        for obj in self.queryset:
            yield self.choice(obj)


class ListedModelChoiceField(forms.ModelChoiceField):
    """A ModelChoiceField for short lists (staff, problems), read in one query."""

    iterator = _ListedIterator


class ListedModelMultipleChoiceField(forms.ModelMultipleChoiceField):
    iterator = _ListedIterator


class ChoicesOnce(BaseChoiceIterator):
    """A field's choices read from the database when first needed (validating a value,
    rendering the options), then kept for the form's life: one query, none if neither
    happens (an htmx request that re-renders only the results)."""

    def __init__(self, load):
        self.load = load
        self.loaded = None

    def __iter__(self):
        if self.loaded is None:
            self.loaded = list(self.load())
        return iter(self.loaded)

    def loaded_rows(self):
        """The choices without the empty one ("Any …"), for another list of the same rows."""
        return [(value, label) for value, label in self if value != ""]
