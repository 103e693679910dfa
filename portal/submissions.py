"""One submission token per form: a double click, a reload of the answer or a second tab
sending the same page again makes one object, not two.

Each page that creates something carries a hidden `submission_token`, a fresh UUID per page
shown (`{% submission_token %}` in the template, or `SubmissionTokenField` on a form), and
the object created keeps it under a named unique constraint (`token_field`,
`unique_token`). `create_once` returns the object of that token when there is one; when two
requests race past that look, the constraint decides and the loser gets the winner's
object. Intake applications were the first to use it."""

import uuid

from django import forms
from django.db import IntegrityError, models, transaction

from .errors import DomainError

FIELD = "submission_token"


def new_token() -> uuid.UUID:
    return uuid.uuid4()


def token_from(data) -> uuid.UUID | None:
    """The token a form sent, or None (an older page, an API client): nothing to dedupe on."""
    try:
        return uuid.UUID(str(data.get(FIELD, "")))
    except ValueError:
        return None


class SubmissionTokenField(forms.UUIDField):
    """For a Django form: hidden, a fresh token on each unbound form."""

    widget = forms.HiddenInput

    def __init__(self, **kwargs):
        kwargs.setdefault("initial", new_token)
        super().__init__(**kwargs)


def token_field():
    """The model field an object keeps the token of the form that created it in."""
    return models.UUIDField(null=True, blank=True, editable=False)


def unique_token(prefix):
    return models.UniqueConstraint(fields=[FIELD], name=f"{prefix}_submission_token_unique")


def earlier(scope, token):
    """The object `scope` already holds for `token`, or None. `scope` is the queryset the
    earlier object must be in (the same author's, the same team's), so a token copied from
    someone else's page finds nothing of theirs."""
    if token is None:
        return None
    return scope.filter(**{FIELD: token}).first()


def create_once(scope, token, create):
    """(object, created): the earlier object of `token`, or `create()` (which must store
    the token). An IntegrityError that is not about this token (a name taken meanwhile) is
    raised for the caller to turn into its own message."""
    found = earlier(scope, token)
    if found is not None:
        return found, False
    try:
        with transaction.atomic():
            return create(), True
    except IntegrityError:
        found = earlier(scope, token)
        if found is not None:
            return found, False
        if token is not None and scope.model._default_manager.filter(**{FIELD: token}).exists():
            # A token copied from someone else's page: theirs is not shown, nothing is made.
            raise DomainError(
                "This form was already sent: reload the page and try again."
            ) from None
        raise
