from django import forms
from django.contrib.auth import password_validation
from django.contrib.auth.forms import AuthenticationForm, PasswordResetForm

from .models import Role, User
from .passwords import request_password_reset
from .submissions import SubmissionTokenField
from .validators import one_line


class InviteForm(forms.Form):
    email = forms.EmailField(
        label="E-mail address", max_length=254, help_text="The person's work address."
    )
    role = forms.ChoiceField(choices=Role.choices, initial=Role.MEMBER)


class RoleForm(forms.Form):
    role = forms.ChoiceField(choices=Role.choices)


class TeamCreateForm(forms.Form):
    submission_token = SubmissionTokenField(required=False)
    name = forms.CharField(label="Team name", max_length=120, validators=[one_line])
    organisation = forms.CharField(max_length=160, required=False, validators=[one_line])
    admin_email = forms.EmailField(
        label="First admin's e-mail", help_text="They get an invitation to set a password."
    )


class EraseTeamForm(forms.Form):
    confirm_name = forms.CharField(
        label="Type the team's name to confirm",
        max_length=200,
        help_text="Exactly as written above: nothing is erased until it matches.",
    )

    def __init__(self, *args, team, **kwargs):
        super().__init__(*args, **kwargs)
        self.team = team

    def clean_confirm_name(self):
        typed = self.cleaned_data["confirm_name"].strip()
        if typed != self.team.name:
            raise forms.ValidationError(
                f"This is not the team's name: type {self.team.name} exactly to erase it."
            )
        return typed


class AcceptInvitationForm(forms.Form):
    """For a person with no account yet: a name and a new password."""

    full_name = forms.CharField(
        label="Your name", max_length=150, required=False, validators=[one_line]
    )
    password1 = forms.CharField(
        label="Password",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        help_text=password_validation.password_validators_help_text_html(),
    )
    password2 = forms.CharField(
        label="Password again",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )

    def __init__(self, *args, email, **kwargs):
        super().__init__(*args, **kwargs)
        self.email = email

    def clean(self):
        cleaned = super().clean()
        p1, p2 = cleaned.get("password1"), cleaned.get("password2")
        if p1 and p2 and p1 != p2:
            self.add_error("password2", "The two passwords differ.")
        elif p1:
            try:
                password_validation.validate_password(
                    p1, User(email=self.email, full_name=cleaned.get("full_name", ""))
                )
            except forms.ValidationError as error:
                self.add_error("password1", error)
        return cleaned


class EmailAuthenticationForm(AuthenticationForm):
    error_messages = {
        **AuthenticationForm.error_messages,
        "invalid_login": "That e-mail address and password do not match an account. "
        "Check the password (capitals matter) or reset it.",
    }

    def clean_username(self):
        """Django's form sets the field's max_length after building it, so nothing checked
        it: a 100,000-character address reached authenticate() and failed there (SQLite:
        "LIKE or GLOB pattern too complex"; PostgreSQL: axes could not store the attempt in
        its 255 characters), a 500."""
        username = self.cleaned_data["username"]
        limit = self.fields["username"].max_length
        if limit and len(username) > limit:
            raise forms.ValidationError(
                f"An e-mail address has at most {limit} characters; this one has "
                f"{len(username):,}.",
                code="max_length",
            )
        return username


class QueuedPasswordResetForm(PasswordResetForm):
    """Django's reset form; the page only hands the address to a task (portal/passwords.py),
    known or not, so neither the answer nor its time tells whether it has an account."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["email"].label = "E-mail address"

    def save(self, *args, **kwargs):
        request_password_reset(self.cleaned_data["email"])
