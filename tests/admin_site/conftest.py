"""A staff superuser using the Django admin through the test client, and the change forms
as a browser would post them."""

import pytest
from django import forms
from django.contrib.auth import get_user_model

from tests.factories import PASSWORD


@pytest.fixture
def boss(client, db):
    user = get_user_model().objects.create_superuser("boss", "boss@example.org", PASSWORD)
    client.force_login(user)
    client.user = user
    return client


def admin_url(model, *parts):
    return "/".join([f"/admin/leagues/{model}", *map(str, parts), ""])


def _add(data, form):
    for bound in form:
        value = bound.value()
        if isinstance(bound.field.widget, forms.MultiWidget):  # a date and a time, say
            parts = bound.field.widget.decompress(value)
            data.update({f"{bound.html_name}_{i}": str(v) for i, v in enumerate(parts) if v is not None})
            continue
        if bound.field.show_hidden_initial:  # as loaded, posted back beside the field
            data[bound.html_initial_name] = "" if value is None else str(value)
        if value is None or value is False:
            continue
        if value is True:
            data[bound.html_name] = "on"
        elif isinstance(value, (list, tuple)):
            data[bound.html_name] = [str(v) for v in value]
        else:
            data[bound.html_name] = str(value)


def change_form(page):
    """What the admin page ``page`` posts when saved unchanged: the fields it lets one edit
    and every row of its inlines (with their management forms)."""
    assert page.status_code == 200
    data = {}
    _add(data, page.context["adminform"].form)
    for inline in page.context["inline_admin_formsets"]:
        _add(data, inline.formset.management_form)
        for form in inline.formset.forms:
            _add(data, form)
    return data


def inline_row(data, prefix, field, value):
    """The key of the inline row of ``prefix`` whose ``field`` is ``value`` ("memberships-0")."""
    count = int(data[f"{prefix}-TOTAL_FORMS"])
    for index in range(count):
        if data.get(f"{prefix}-{index}-{field}") == str(value):
            return f"{prefix}-{index}"
    raise AssertionError(f"no row of {prefix} with {field}={value}")
