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


class PasskeyForm(forms.Form):
    name = forms.CharField(
        label="Name of the passkey",
        max_length=64,
        strip=True,
        help_text="So you can tell your passkeys apart, e.g. “Work laptop” or “Phone”.",
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )
    # Filled by passkeys.js with the browser's answer; a browser without it sends it empty.
    credential = forms.CharField(required=False, widget=forms.HiddenInput)
