"""The framework floor the benchmarks measure pages against: a logged-in page of one line,
through the same middleware, session and login as every page, and linked from nowhere."""

from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_it_sends_an_anonymous_visitor_to_log_in(client):
    response = client.get(reverse("floor"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_it_renders_one_line_for_whoever_is_logged_in(client, django_user_model):
    client.force_login(django_user_model.objects.create_user("anna", password="x" * 12))
    response = client.get(reverse("floor"), HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    assert response.content.decode().strip() == (
        '<!doctype html><html lang="en"><title>Kartenliga</title><p>anna</p></html>'
    )
    assert "Content-Security-Policy" in response  # through the same middleware as every page


def test_it_answers_only_get(client, django_user_model):
    client.force_login(django_user_model.objects.create_user("anna", password="x" * 12))
    assert client.post(reverse("floor")).status_code == 405


def test_no_template_links_to_it():
    for template in Path(settings.BASE_DIR, "templates").rglob("*"):
        if template.is_file() and template.name != "floor.html":
            text = template.read_text(errors="replace")
            assert "bench/floor" not in text and "'floor'" not in text and '"floor"' not in text, template
