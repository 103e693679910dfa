from django import forms


class CodeForm(forms.Form):
    code = forms.CharField(
        label="Code",
        max_length=40,
        strip=True,
        help_text="The 6 digits your authenticator app shows now, or one of your recovery codes.",
        widget=forms.TextInput(
            attrs={"autocomplete": "one-time-code", "autocapitalize": "none", "spellcheck": "false"}
        ),
    )


class AppCodeForm(forms.Form):
    code = forms.CharField(
        label="Code from the app",
        max_length=12,
        strip=True,
        help_text="The 6 digits the app shows for this portal once you have added it.",
        widget=forms.TextInput(
            attrs={"autocomplete": "one-time-code", "inputmode": "numeric", "spellcheck": "false"}
        ),
    )
