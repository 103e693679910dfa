from django import forms
from django.forms.utils import flatatt
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe


class Textarea(forms.Textarea):
    """A textarea whose line ends count once: browsers send "\\r\\n" but count one character
    against maxlength, so without this the server would refuse text the browser allowed."""

    def value_from_datadict(self, data, files, name):
        value = super().value_from_datadict(data, files, name)
        return value.replace("\r\n", "\n") if isinstance(value, str) else value


class ListSelect(forms.Select):
    """A select rendered in Python instead of one template per option: a filter that lists
    every team of the program (hundreds) would otherwise spend longer on its options than
    the page on its rows. Same markup and attributes as Django's Select, no option groups."""

    def render(self, name, value, attrs=None, renderer=None):
        selected = {str(v) for v in self.format_value(value)}
        final = self.build_attrs(self.attrs, {**(attrs or {}), "name": name})
        keys = ((("" if v is None else str(v)), label) for v, label in self.choices)
        options = format_html_join(
            "",
            '<option value="{}"{}>{}</option>',
            ((key, SELECTED if key in selected else "", label) for key, label in keys),
        )
        return format_html("<select{}>{}</select>", flatatt(final), options)


SELECTED = mark_safe(" selected")
