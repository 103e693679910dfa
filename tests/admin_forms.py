"""Sending a Django admin form back as a person would: as the page shows it, but for a few
changes (tests of what the admin's saves keep right: counts, flags, history)."""

import datetime

from django.urls import reverse

from jobs.models import JobDescription


def admin_post(client, url, **changes):
    """The admin form at `url` sent back as shown but for `changes`; asserts it was saved."""
    context = client.get(url).context
    form = context["adminform"].form
    data = {}
    # The inlines (read-only history rows) as the page sends them: their management forms.
    for inline in context.get("inline_admin_formsets") or []:
        management = inline.formset.management_form
        for name in management.fields:
            data[f"{management.prefix}-{name}"] = management[name].value()
        for row in inline.formset.forms:  # a shown row: its id and its parent's
            for bound in row:
                value = bound.value()
                data[bound.html_name] = "" if value is None else getattr(value, "pk", value)
    for bound in form:
        value = bound.field.prepare_value(bound.value())
        if isinstance(value, datetime.datetime):
            data[f"{bound.name}_0"], data[f"{bound.name}_1"] = value.date(), value.time()
        else:
            data[bound.name] = "" if value is None else value
    data.update(changes)
    response = client.post(url, data)
    assert response.status_code == 302, response.context["adminform"].form.errors
    return response


def admin_post_job(client, job, **changes):
    """The admin's change form for `job`, sent back as shown but for `changes`."""
    admin_post(client, reverse("admin:jobs_jobdescription_change", args=[job.pk]), **changes)
    return JobDescription.objects.get(pk=job.pk)
