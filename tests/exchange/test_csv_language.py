"""The league's CSV in the reader's language: German Excel opens a file with a semicolon
between cells, a byte order mark and German headers in columns (a comma-separated file lands
in one column); English keeps commas and no mark. The paper import's reader reads the German file
back cell for cell."""

import csv
import datetime
import io
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import translation
from django.utils.translation import pgettext

from leagues.exchange import paper_reading, spreadsheet
from leagues.models import Player, Role
from leagues.table import meetings, services
from tests.factories import LeagueFactory, member

pytestmark = pytest.mark.django_db

BOM = "\ufeff"


@pytest.fixture(autouse=True)
def _default_language_after():
    """A request leaves its language active in the test's thread: German is not handed on."""
    yield
    translation.deactivate()


@pytest.fixture
def league():
    league = LeagueFactory(game="doppelkopf", variant="club")
    players = [Player.objects.create(league=league, name=name) for name in ("Anna", "Ben", "Carl", "Dora")]
    meeting = meetings.start_meeting(league=league, date=datetime.date(2026, 1, 9), players=players)
    # Re Anna+Carl with 150 eyes: each Re player +1, each Kontra player −1 (doppelkopf.md).
    services.enter_hand(meeting=meeting, payload={"kind": "normal", "re": ["Anna", "Carl"], "re_eyes": 150}, by=None)
    return league


def url(league):
    return reverse("league_export_csv", kwargs={"slug": league.slug})


@pytest.mark.parametrize("role", [Role.MEMBER, Role.SCOREKEEPER, Role.ADMIN])
def test_a_german_reader_gets_semicolons_a_bom_and_german_headers(client, league, role):
    client.force_login(member(league, role))
    response = client.get(url(league), HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    text = response.getvalue().decode("utf-8")
    assert text.startswith(BOM)
    rows = list(csv.reader(io.StringIO(text[1:]), delimiter=";"))
    # The member's own player ("Spieler…", at no table) comes last, in columns of his own.
    # The words are the catalogue's German (Saison, Datum, Gastgeber, Tisch, Spiel, Runde, "Anna
    # Punkte", "Anna Stand"), so that the test follows it. An evening at one table has no table.
    with translation.override("de"):
        columns = [pgettext("a CSV column", name) for name in ("season", "date", "host", "table", "hand", "round")]
        for name in ("Anna", "Ben", "Carl", "Dora"):
            columns += [pgettext("a CSV column", f"%(name)s {kind}") % {"name": name} for kind in ("delta", "total")]
        normal = pgettext("a round in a CSV", "normal")
    assert rows[0][:14] == columns
    assert rows[1][:14] == ["1", "09.01.2026", "Anna", "", "1", normal, "1", "1", "-1", "-1", "1", "1", "-1", "-1"]


def test_an_english_reader_gets_commas_and_english_headers(client, league):
    client.force_login(member(league))
    text = client.get(url(league), HTTP_ACCEPT_LANGUAGE="en").getvalue().decode("utf-8")
    assert not text.startswith(BOM)
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0][:6] == ["season", "date", "host", "table", "hand", "round"]
    assert rows[0][6:8] == ["Anna delta", "Anna total"]
    assert rows[1][:6] == ["1", "2026-01-09", "Anna", "", "1", "normal"]


def test_outsiders_get_no_csv_in_any_language(client, league):
    assert client.get(url(league), HTTP_ACCEPT_LANGUAGE="de").status_code == 302
    client.force_login(member(LeagueFactory(), Role.ADMIN))
    assert client.get(url(league), HTTP_ACCEPT_LANGUAGE="de").status_code == 404


def test_the_paper_import_reads_the_german_csv_back_cell_for_cell(client, league):
    client.force_login(member(league))
    text = client.get(url(league), HTTP_ACCEPT_LANGUAGE="de").getvalue().decode("utf-8")
    expected = list(csv.reader(io.StringIO(text[1:]), delimiter=";"))
    assert [cells for _row, cells in paper_reading.read_rows(text)] == expected


def test_a_german_cell_with_decimals_has_a_decimal_comma_and_stays_safe():
    text = "".join(
        spreadsheet.csv_chunks(
            ["name", "share"], [{"name": "=1+1", "share": Decimal("12.50")}], dialect=spreadsheet.dialect_for("de")
        )
    )
    assert text == BOM + "name;share\r\n'=1+1;12,50\r\n"
    english = "".join(spreadsheet.csv_chunks(["name", "share"], [{"name": "Anna", "share": Decimal("12.50")}]))
    assert english == "name,share\r\nAnna,12.50\r\n"
