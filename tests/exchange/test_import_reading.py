"""An import reads its file as ``json.loads`` would, but keeps each meeting as text until it
comes to it; the command says how far it got."""

import datetime
import io
import json
from io import StringIO

import pytest
from django.core.management import call_command

from leagues.exchange import import_checks
from leagues.exchange import league_file as exchange
from leagues.models import League, Player
from leagues.table import chain, results, services, verify
from leagues.table import meetings as table_meetings
from tests.exchange.files import exported, imported
from tests.factories import LeagueFactory, UserFactory

NORMAL = {"kind": "normal", "re": ["Anna", "Carl"], "re_eyes": 150}


def read(text: str) -> import_checks.LeagueFile:
    return import_checks.read_json(io.BytesIO(text.encode()))


@pytest.mark.parametrize(
    "text",
    [
        '{"format": "x", "meetings": [{"a": 1}, {"b": [2, "\\u00fc\\n"]}], "players": []}',
        ' \n{ "meetings" :\n[ {"a" : null} ,\t{} ] , "z": 1}\r\n',
        '{"meetings": [1], "meetings": [2, 3]}',
        '{"seasons": [], "meetings": []}',
        "{}",
    ],
)
def test_a_file_reads_as_json_loads_reads_it(text):
    file, loaded = read(text), json.loads(text)
    meetings = loaded.pop("meetings", [])
    assert file.head == loaded
    assert list(file.meetings()) == meetings and file.meeting_count() == len(meetings)


@pytest.mark.parametrize("text", ['{"meetings": {"a": 1}}', '{"meetings": "none"}', "[1, 2]", '"text"'])
def test_whatever_holds_no_list_of_meetings_is_kept_whole(text):
    file = read(text)
    assert file.head == json.loads(text) and file.meeting_count() == 0


@pytest.mark.parametrize(
    "text",
    [
        '{"a": 1,}',
        '{"a" 1}',
        '{"meetings": [1,]}',
        '{"meetings": [1 2]}',
        '{"meetings": [',
        '{"meetings": [{]}',
        "{} x",
        '{"a": 1}}',
        "{1: 2}",
        "{'a': 1}",
        "",
        "\ufeff{}",
    ],
)
def test_what_json_loads_refuses_is_no_export(text):
    with pytest.raises(ValueError):
        json.loads(text)
    with pytest.raises(import_checks.ImportProblem, match="not a league export"):
        read(text)


def test_a_problem_in_a_meeting_is_named_by_its_place():
    text = json.dumps({"players": [{"name": "Anna"}], "meetings": [{}, {"hands": [{"payload": "a\x00"}]}]})
    with pytest.raises(import_checks.ImportProblem) as error:
        read(text)
    assert error.value.errors[0]["message"].startswith("meetings[2].hands[1].payload: ")
    with pytest.raises(import_checks.ImportProblem, match="nested"):
        read('{"meetings": [' + "[" * 40 + "]" * 40 + "]}")


@pytest.fixture
def export(db):
    league = LeagueFactory(game="doppelkopf", variant="club")
    players = [Player.objects.create(league=league, name=name) for name in ("Anna", "Ben", "Carl", "Dora")]
    for day in range(1, 8):
        meeting = table_meetings.start_meeting(league=league, date=datetime.date(2026, 1, day), players=players)
        services.enter_hand(meeting=meeting, payload=NORMAL, by=None)
    return exported(league)


def test_the_command_says_how_far_it_got(tmp_path, export, monkeypatch):
    UserFactory(username="admin")
    path = tmp_path / "league.json"
    path.write_text(json.dumps(export))
    monkeypatch.setattr(exchange, "PROGRESS_EVERY", 3)
    out = StringIO()
    call_command("import_league", str(path), "--name", "Kopie", "--slug", "kopie", "--admin", "admin", stdout=out)
    assert out.getvalue().splitlines() == [
        "Stored 3 of 7 evenings.",
        "Stored 6 of 7 evenings.",
        "Stored 7 of 7 evenings.",
        "Replayed 3 of 7 evenings.",
        "Replayed 6 of 7 evenings.",
        "Replayed 7 of 7 evenings.",
        "Imported Kopie (kopie): 7 meetings.",
    ]
    quiet = StringIO()
    call_command(
        "import_league", str(path), "--name", "K2", "--slug", "k2", "--admin", "admin", "-v", "0", stdout=quiet
    )
    assert quiet.getvalue() == ""
    assert League.objects.get(slug="k2").meetings.count() == 7


def test_a_league_that_carries_its_rounds_replays_each_evening_once(db, monkeypatch):
    # 120 against 120 opens a Bock round, carried into the next evenings.
    league = LeagueFactory(game="doppelkopf", variant="club", rule_overrides={"carry_special_rounds": True})
    players = [Player.objects.create(league=league, name=name) for name in ("Anna", "Ben", "Carl", "Dora")]
    split = {"kind": "normal", "re": ["Ben", "Dora"], "re_eyes": 120}
    for day, hands in ((1, [split]), (8, [NORMAL, NORMAL]), (15, [NORMAL, NORMAL, NORMAL])):
        meeting = table_meetings.start_meeting(league=league, date=datetime.date(2026, 1, day), players=players)
        for payload in hands:
            services.enter_hand(meeting=meeting, payload=payload, by=None)
    written = []
    write_results = results.write_results

    def counted(meeting, *args, **kwargs):
        written.append(meeting.date)
        return write_results(meeting, *args, **kwargs)

    write_reached = chain.write_reached

    def counted_reached(reached):
        written.extend(one.meeting.date for one in reached)
        return write_reached(reached)

    # An evening's own replay writes it; the evenings it carries rounds into are written together.
    monkeypatch.setattr(results, "write_results", counted)
    monkeypatch.setattr(chain, "write_reached", counted_reached)
    copy = imported(exported(league), user=UserFactory(), name="Kopie", slug="kopie")
    assert written == sorted(copy.meetings.values_list("date", flat=True))
    assert verify.verify_replays(league=copy) == (3, [])
    assert rounds(copy) == rounds(league) and "bock" in rounds(league)[-1]


def rounds(league) -> list[list[str]]:
    """The round of each hand of each evening."""
    return [
        list(m.results.filter(player__name="Ben").order_by("number").values_list("round", flat=True))
        for m in league.meetings.order_by("date")
    ]
