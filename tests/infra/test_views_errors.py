"""Errors Django answers before a view: JSON in the API's shape under /api/, pages elsewhere."""

import pytest
from django.test import RequestFactory

from tests.factories import LeagueFactory, member

pytestmark = pytest.mark.django_db


def test_it_answers_an_unknown_api_address_in_the_error_shape(client):
    response = client.get("/api/v1/no-such-endpoint/")
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    [error] = response.json()["errors"]
    assert error["hand"] is None and error["field"] is None and error["message"]


def test_it_answers_a_meeting_id_that_is_no_number_in_the_error_shape(client):
    # schemathesis sent "null,null" as the id: <int:pk> does not match, so DRF never runs.
    league = LeagueFactory()
    client.force_login(member(league))
    response = client.get(f"/api/v1/leagues/{league.slug}/meetings/null,null/")
    assert response.status_code == 404
    assert response.json()["errors"][0]["message"]


def test_it_keeps_the_site_404_page_elsewhere(client):
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")


def test_it_answers_a_server_error_under_the_api_in_the_error_shape():
    from leagues import error_pages as errors

    response = errors.server_error(RequestFactory().post("/api/v1/calculate/"))
    assert response.status_code == 500
    assert b'"errors"' in response.content
