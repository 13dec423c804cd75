"""The CSV export is safe to open in a spreadsheet: a text that would start a formula begins
with a single quote (OWASP, CSV injection); numbers stay numbers, negative ones too."""

import csv
import io

import pytest
from django.urls import reverse

from leagues.exchange import league_file as exchange
from leagues.exchange.spreadsheet import safe_cell
from leagues.models import Player
from leagues.table import meetings, services
from tests.factories import LeagueFactory, member

pytestmark = pytest.mark.django_db

FORMULA = "=cmd|' /C calc'!A0"


@pytest.mark.parametrize("text", ["=1+1", "+1", "-1", "@SUM(A1)", "\t=1", "\r=1"])
def test_a_text_that_starts_a_formula_begins_with_a_quote(text):
    assert safe_cell(text) == "'" + text


@pytest.mark.parametrize("value", ["Anna", "", "1=1", -3, 0, 12])
def test_anything_else_is_left_as_it_is(value):
    assert safe_cell(value) == value


def test_a_player_named_like_a_formula_is_text_in_the_league_csv(client):
    league = LeagueFactory(game="doppelkopf", variant="club")
    user = member(league)
    players = [Player.objects.create(league=league, name=name) for name in (FORMULA, "@Ben", "Carl", "Dora")]
    meeting = meetings.start_meeting(league=league, date=league.created_at.date(), players=players)
    services.enter_hand(meeting=meeting, payload={"kind": "normal", "re": [FORMULA, "Carl"], "re_eyes": 150}, by=user)
    client.force_login(user)
    text = client.get(reverse("league_export_csv", kwargs={"slug": league.slug})).getvalue().decode()
    assert FORMULA not in text.replace("'" + FORMULA, "")
    rows = list(csv.reader(io.StringIO(text)))
    header, first = rows[0], dict(zip(rows[0], rows[1], strict=True))
    assert f"'{FORMULA} delta" in header and "'@Ben delta" in header
    assert first["'@Ben delta"].lstrip("-").isdigit() and first["'@Ben delta"].startswith("-")
    assert first["host"] == "'" + FORMULA
    assert "".join(exchange.export_csv(league=league)) == text
