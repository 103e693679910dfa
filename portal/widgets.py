from django import forms


class Textarea(forms.Textarea):
    """A textarea whose line ends count once: browsers send "\\r\\n" but count one character
    against maxlength, so without this the server would refuse text the browser allowed."""

    def value_from_datadict(self, data, files, name):
        value = super().value_from_datadict(data, files, name)
        return value.replace("\r\n", "\n") if isinstance(value, str) else value
