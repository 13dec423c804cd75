"""The exports are streamed: written as the league is read, some evenings at a time, in pieces
that join to the very file a whole-document export wrote (the CSV's rows, the JSON as
``json.dumps`` writes it indented for the page and compact for the API)."""

import datetime
import json

import pytest
from django.urls import reverse

from leagues.exchange import league_file as exchange
from leagues.exchange import spreadsheet
from leagues.models import Player
from leagues.table import meetings, services
from tests.factories import LeagueFactory, member

pytestmark = pytest.mark.django_db

FIRST = {"kind": "normal", "re": ["Anna", "Carl"], "re_eyes": 150}
SECOND = {"kind": "normal", "re": ["Ben", "Dora"], "re_eyes": 150}


@pytest.fixture
def league():
    """Three evenings of Anna, Ben, Carl and Dora (a round of four hands, closed; one hand;
    none), and a member who plays as Zoé and was at no table."""
    league = LeagueFactory(game="doppelkopf", variant="club")
    league.user = member(league, first_name="Zoé")
    players = [Player.objects.create(league=league, name=name) for name in ("Anna", "Ben", "Carl", "Dora")]
    first = meetings.start_meeting(league=league, date=datetime.date(2026, 1, 9), players=players)
    for payload in (FIRST, SECOND, FIRST, SECOND):
        services.enter_hand(meeting=first, payload=payload, by=league.user)
    meetings.close_meeting(meeting=first, user=league.user)
    second = meetings.start_meeting(league=league, date=datetime.date(2026, 1, 16), players=players[1:] + players[:1])
    services.enter_hand(meeting=second, payload=SECOND, by=league.user)
    meetings.start_meeting(league=league, date=datetime.date(2026, 1, 23), players=players)
    return league


def streamed(client, league, name, **headers):
    client.force_login(league.user)
    response = client.get(reverse(name, kwargs={"slug": league.slug}), **headers)
    assert response.status_code == 200 and response.streaming
    return response.getvalue().decode("utf-8")


def test_the_csv_is_the_file_it_was(client, league):
    assert streamed(client, league, "league_export_csv", HTTP_ACCEPT_LANGUAGE="en") == (
        "season,date,host,table,hand,round,Anna delta,Anna total,Ben delta,Ben total,"
        "Carl delta,Carl total,Dora delta,Dora total,Zoé delta,Zoé total\r\n"
        "1,2026-01-09,Anna,,1,normal,1,1,-1,-1,1,1,-1,-1,,\r\n"
        "1,2026-01-09,Anna,,2,normal,-1,0,1,0,-1,0,1,0,,\r\n"
        "1,2026-01-09,Anna,,3,normal,1,1,-1,-1,1,1,-1,-1,,\r\n"
        "1,2026-01-09,Anna,,4,normal,-1,0,1,0,-1,0,1,0,,\r\n"
        "1,2026-01-16,Ben,,1,normal,-1,-1,1,1,-1,-1,1,1,,\r\n"
    )


def test_the_german_csv_streams_what_it_writes_at_once(client, league):
    text = streamed(client, league, "league_export_csv", HTTP_ACCEPT_LANGUAGE="de")
    assert text == "".join(exchange.export_csv(league=league, language="de"))
    assert text.startswith("\ufeff") and text.count("\r\n") == 6 and "16.01.2026;Ben;;1;" in text


def test_csv_pieces_join_to_one_file():
    header = ["name", "score"]
    rows = [{"name": f"=P{i}", "score": i} for i in range(7)]
    pieces = list(spreadsheet.csv_chunks(header, rows, rows_per_chunk=3))
    assert len(pieces) == 3
    assert "".join(pieces) == "".join(spreadsheet.csv_chunks(header, rows))
    assert "".join(pieces).splitlines()[1:3] == ["'=P0,0", "'=P1,1"]


def test_the_json_is_what_json_dumps_writes_of_the_whole(client, league):
    text = streamed(client, league, "league_export_json")
    data = json.loads(text)
    assert text == json.dumps(data, ensure_ascii=False, indent=1)
    assert [len(m["hands"]) for m in data["meetings"]] == [4, 1, 0]
    assert data["meetings"][0]["hands"][1]["payload"] == SECOND
    assert [r["type"] for r in data["meetings"][0]["hands"][0]["history"]] == ["+"]
    compact = streamed(client, league, "api_league_export")
    assert compact == json.dumps(json.loads(compact), ensure_ascii=False, separators=(",", ":"))
    data.pop("exported_at")
    assert {**json.loads(compact), "exported_at": None} == {**data, "exported_at": None}


def test_evenings_read_a_few_at_a_time_give_the_same_file(league, monkeypatch):
    # A hand deleted and one corrected, with a line break and a quote in a reason: their
    # history goes with their evening, whichever batch it is read in.
    meeting = league.meetings.order_by("date").last()
    hand = services.enter_hand(meeting=meeting, payload=FIRST, by=league.user).hand
    hand = services.change_hand(hand=hand, payload=SECOND, by=league.user, version=hand.version).hand
    services.delete_hand(hand=hand, by=league.user, version=hand.version)
    first = league.meetings.order_by("date").first()
    meetings.reopen_meeting(meeting=first, user=league.user, reason='Falsch „notiert“\nund "korrigiert"')
    whole = "".join(exchange.export_json(league=league)).split("\n", 4)[4]
    monkeypatch.setattr(exchange, "MEETINGS_AT_ONCE", 1)
    assert "".join(exchange.export_json(league=league)).split("\n", 4)[4] == whole
    deleted = json.loads("{" + whole)["meetings"][2]["hands"][0]
    assert deleted["deleted_at"] and [r["version"] for r in deleted["history"]] == [1, 2, 3]


def test_a_league_without_evenings_has_an_empty_list_of_them():
    league = LeagueFactory()
    data = "".join(exchange.export_json(league=league))
    assert data.endswith('"meetings": []\n}') and json.loads(data)["meetings"] == []
    compact = "".join(exchange.export_json(league=league, compact=True))
    assert compact.endswith('"meetings":[]}')
