from django import forms
from django.forms.models import ModelChoiceIterator
from django.utils.choices import BaseChoiceIterator
from django.utils.safestring import SafeString

from .rows import escaped


class Textarea(forms.Textarea):
    """A textarea whose line ends count once: browsers send "\\r\\n" but count one character
    against maxlength, so without this the server would refuse text the browser allowed.
    Written in Python, as Django's template writes it (a line end after the opening tag)."""

    def value_from_datadict(self, data, files, name):
        value = super().value_from_datadict(data, files, name)
        return value.replace("\r\n", "\n") if isinstance(value, str) else value

    def render(self, name, value, attrs=None, renderer=None):
        value = self.format_value(value)
        text = escaped(value) if value else ""
        final = self.build_attrs(self.attrs, attrs)
        return SafeString(f"<textarea{_attributes(name, final)}>\n{text}</textarea>")


class _PythonInput:
    """An <input> written in Python, as Django's input template writes it: type, name, the
    value if there is one, then the attributes."""

    def render(self, name, value, attrs=None, renderer=None):
        value = self.format_value(value)
        shown = "" if value is None else f' value="{escaped(value)}"'
        final = self.build_attrs(self.attrs, attrs)
        attributes = _attributes(name, final).removeprefix(f' name="{escaped(name)}"')
        return SafeString(
            f'<input type="{self.input_type}" name="{escaped(name)}"{shown}{attributes}>'
        )


class Hidden(_PythonInput, forms.HiddenInput):
    """A hidden input (a form's version, say) written in Python."""


class TextInput(_PythonInput, forms.TextInput):
    """A text input written in Python."""


class NumberInput(_PythonInput, forms.NumberInput):
    """A number input written in Python."""


class ListSelect(forms.Select):
    """A select rendered in Python instead of one template per option: a filter that lists
    every team of the program (hundreds) would otherwise spend longer on its options than
    the page on its rows. Same markup and attributes as Django's Select, no option groups."""

    def render(self, name, value, attrs=None, renderer=None):
        selected = {str(v) for v in self.format_value(value)}
        final = self.build_attrs(self.attrs, attrs)
        if self.allow_multiple_selected:
            final["multiple"] = True
        # Options rendered once and kept (ChoicesOnce's `html`): only the selection is marked.
        kept = getattr(self.choices, "html", None)
        if kept is not None:
            options = selected_in(kept, selected)
        else:
            options = options_html(self.choices, selected)
        return SafeString(f"<select{_attributes(name, final)}>{options}</select>")


def options_html(choices, selected=()):
    """The <option>s of (value, label) pairs as ListSelect writes them, those whose value
    (as text) is in `selected` marked. One join, not format_html per option: with hundreds
    of options format_html's own checks cost more than the text. Each value and label is
    escaped here."""
    options = []
    for v, label in choices:
        key = "" if v is None else str(v)
        mark = " selected" if key in selected else ""
        options.append(f'<option value="{escaped(key)}"{mark}>{escaped(label)}</option>')
    return SafeString("".join(options))


def selected_in(options, selected):
    """options_html()'s text (none selected) with the options of these values marked, as
    options_html(choices, selected) writes them: a kept list of hundreds of options is not
    written again for one selection. Values are unique, so each is marked once."""
    for key in selected:
        tag = f'<option value="{escaped(key)}">'
        options = options.replace(tag, f"{tag[:-1]} selected>", 1)
    # Kept safe text and escaped values.
    return SafeString(options)


def _attributes(name, attrs):
    """The attributes as Django's widget template writes them: the name, then the others
    in their order (a True one bare, a False one left out)."""
    text = f' name="{escaped(name)}"'
    for key, value in attrs.items():
        if value is True:
            text += f" {key}"
        elif value is not False:
            text += f' {key}="{escaped(value)}"'
    return text


class ListSelectMultiple(ListSelect, forms.SelectMultiple):
    """ListSelect for several values (SelectMultiple's reading of the posted values)."""


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

    def __init__(self, load, html=None):
        self.load = load
        self.loaded = None
        # The options already rendered (options_html, none selected), if the caller keeps them.
        self.html = html

    def __iter__(self):
        if self.loaded is None:
            self.loaded = list(self.load())
        return iter(self.loaded)

    def loaded_rows(self):
        """The choices without the empty one ("Any …"), for another list of the same rows."""
        return [(value, label) for value, label in self if value != ""]
