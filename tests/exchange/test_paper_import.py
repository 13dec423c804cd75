"""Import of a paper season: a CSV of each player's total per evening, stored
as such and counted in the standings; a CSV of hands, replayed by the engine; every problem
named by row and column, nothing stored on error or before the confirmation; who may."""

import datetime
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from leagues import exceptions
from leagues.exchange import paper_import
from leagues.models import Hand, Meeting, MeetingResult, Player, Role
from leagues.seasons import selectors as seasons_selectors
from leagues.stats import selectors as stats_selectors
from leagues.table import replay, results, services, verify
from tests.exchange.files import exported, imported
from tests.factories import LeagueFactory, UserFactory, meeting_for, member

pytestmark = pytest.mark.django_db

# Two evenings from a notebook (figures made up by hand): Emil was not at the first, Ann not
# at the second.
TOTALS = """date,host,Ann,Ben,Cem,Dora,Emil
2024-01-12,Ann,30,-10,-20,0,
09.02.2024,Ben,,15,-5,-10,0
"""

# One evening of three plain games under the club rules, no calls, no special points, each
# won by Re with Kontra on 90 or more eyes: 1 point (gewonnen) to each winner, -1 to each
# loser (doppelkopf.md, "Signs"); no loser is under 60, so the club's loser-gets-points rule
# does not apply.
#   hand 1: Re Ann+Ben 150 eyes  -> Ann +1, Ben +1, Cem -1, Dora -1
#   hand 2: Re Cem+Dora 121 eyes -> Cem +1, Dora +1, Ann -1, Ben -1
#   hand 3: Re Ben+Dora 150 eyes -> Ben +1, Dora +1, Ann -1, Cem -1
# Evening: Ann -1, Ben +1, Cem -1, Dora +1; Ben and Dora tie, Ben sits first: Ben wins it.
HANDS = """date;players;kind;re;re_eyes
2024-03-01;Ann|Ben|Cem|Dora;normal;Ann|Ben;150
;;normal;Cem|Dora;121
2024-03-01;;normal;Ben|Dora;150
"""


@pytest.fixture
def league():
    return LeagueFactory()


@pytest.fixture
def user():
    return UserFactory()


def run(league, user, kind, text, commit=True):
    return paper_import.run(league=league, kind=kind, text=text, user=user, commit=commit)


def problems(league, user, kind, text):
    with pytest.raises(paper_import.PaperImportProblem) as caught:
        run(league, user, kind, text)
    return [(e.row, e.column) for e in caught.value.errors], [str(e) for e in caught.value.errors]


def table(rows):
    return [(r.player.name, r.total, r.games, r.wins, r.evenings_won) for r in rows]


def test_imported_totals_count_in_the_season_and_all_time_tables(league, user):
    run(league, user, "totals", TOTALS)
    standings = stats_selectors.standings(league=league)
    # Sums by hand: Ann 30; Ben -10+15 = 5; Cem -20-5 = -25; Dora 0-10 = -10; Emil 0.
    # Evenings: Ann has the highest total of the first, Ben of the second. No games.
    expected = [
        ("Ann", 30, 0, 0, 1),
        ("Ben", 5, 0, 0, 1),
        ("Emil", 0, 0, 0, 0),
        ("Dora", -10, 0, 0, 0),
        ("Cem", -25, 0, 0, 0),
    ]
    assert table(standings.table) == expected
    assert [(r.player.name, r.total) for r in standings.all_time] == [(n, t) for n, t, *_ in expected]
    assert [(m.date, m.host.name, m.winner.name, m.winner_total, m.imported_totals) for m in standings.meetings] == [
        (datetime.date(2024, 1, 12), "Ann", "Ann", 30, True),
        (datetime.date(2024, 2, 9), "Ben", "Ben", 15, True),
    ]
    meetings = list(Meeting.objects.filter(league=league))
    assert all(m.imported_totals and m.closed_at and not m.hands.exists() for m in meetings)
    # Seat order: the host first, then the others in the file's column order.
    assert [s.player.name for s in meetings[1].seats.in_order()] == ["Ben", "Cem", "Dora", "Emil"]


def test_imported_hands_are_replayed_and_counted_with_imported_totals(league, user):
    run(league, user, "totals", TOTALS)
    outcome = run(league, user, "hands", HANDS)
    (evening,) = outcome.evenings
    assert (evening.hands, evening.imported_totals, evening.winner) == (3, False, "Ben")
    assert evening.totals == [("Ann", -1), ("Ben", 1), ("Cem", -1), ("Dora", 1)]
    meeting = Meeting.objects.get(date=datetime.date(2024, 3, 1))
    assert list(meeting.hands.live().values_list("number", flat=True)) == [1, 2, 3]
    assert meeting.hands.first().payload == {"kind": "normal", "re": ["Ann", "Ben"], "re_eyes": 150}
    standings = stats_selectors.standings(league=league)
    # Season 1 (nobody but Ann and Ben has hosted yet): the totals above plus this evening:
    # Ann 30-1 = 29 (3 games, won hand 1), Ben 5+1 = 6 (3 games, hands 1 and 3, 2 evenings),
    # Dora -10+1 = -9 (won hands 2 and 3), Cem -25-1 = -26 (won hand 2), Emil 0.
    assert table(standings.table) == [
        ("Ann", 29, 3, 1, 1),
        ("Ben", 6, 3, 2, 2),
        ("Emil", 0, 0, 0, 0),
        ("Dora", -9, 3, 2, 0),
        ("Cem", -26, 3, 1, 0),
    ]
    assert standings.season.number == 1 and len(standings.meetings) == 3
    # Points per game count the games played here only: Ann's -1 in 3 games, not 29 in 3.
    ann = next(r for r in standings.all_time if r.player.name == "Ann")
    assert ann.average == pytest.approx(-1 / 3)
    assert next(
        r for r in seasons_selectors.season_table(season=standings.season) if r.player.name == "Dora"
    ).average == (pytest.approx(1 / 3))


def test_imported_totals_survive_a_replay_and_verify_replays(league, user):
    run(league, user, "totals", TOTALS)
    first = Meeting.objects.order_by("date").first()
    results.replay_meeting(meeting=first)
    checked, found = verify.verify_replays(league=league, rebuild=True)
    assert (checked, found) == (2, [])
    assert dict(MeetingResult.objects.filter(meeting=first).values_list("player__name", "total")) == {
        "Ann": 30,
        "Ben": -10,
        "Cem": -20,
        "Dora": 0,
    }


def test_no_hand_can_be_entered_into_imported_totals(league, user):
    run(league, user, "totals", TOTALS)
    meeting = Meeting.objects.order_by("date").first()
    with pytest.raises(exceptions.MeetingClosed):
        services.enter_hand(meeting=meeting, payload={"kind": "normal", "re": ["Ann", "Ben"], "re_eyes": 150}, by=user)
    assert not Hand.objects.exists()


def test_an_evening_entered_after_the_import_follows_the_host_rotation(league, user):
    run(league, user, "totals", TOTALS)
    # Cem, Dora and Emil have not hosted season 1 yet: an evening hosted by Cem stays in it.
    later = meeting_for(league, ["Cem", "Ann", "Ben", "Dora"], date=datetime.date(2024, 4, 5))
    assert later.season.number == 1
    assert replay.calculate_meeting(later, payloads=[])["hands"] == []


def test_totals_errors_are_named_by_row_and_column_and_nothing_is_stored(league, user):
    text = """Datum,Gastgeber,Ann,Ben,Cem,Dora
2024-13-01,Ann,1,2,3,4
2024-01-12,Zoe,1,2,3,4
2024-01-19,Ann,1,zwei,3,4.5
2024-01-26,Ben,,1,2,
"""
    where, messages = problems(league, user, "totals", text)
    assert where == [
        (2, "Datum"),
        (3, "Gastgeber"),
        (4, "Ben"),
        (4, "Dora"),
    ]
    assert messages[2] == "Row 4, column “Ben”: “zwei” is not a whole number."
    assert not Meeting.objects.exists() and not Player.objects.exists()


def test_a_table_too_small_for_the_game_is_named_by_its_row(league, user):
    text = "date,host,Ann,Ben,Cem,Dora\n2024-01-12,Ann,1,2,3,4\n2024-01-19,Ann,1,2,3,\n"
    where, messages = problems(league, user, "totals", text)
    assert where == [(3, "players")]
    assert "4 to" in messages[0]
    assert not Meeting.objects.exists() and not Player.objects.exists()


def test_hand_errors_are_the_engines_named_by_row_and_column_and_nothing_is_stored(league, user):
    text = HANDS.replace(";Cem|Dora;121", ";Cem|Dora;300")
    where, messages = problems(league, user, "hands", text)
    assert where == [(3, "re_eyes")]
    assert messages[0].startswith("Row 3, column “re_eyes”: ")
    assert not Meeting.objects.exists() and not Hand.objects.exists() and not Player.objects.exists()


def test_hand_rows_are_checked_before_the_engine(league, user):
    text = """date,players,kind,re,re_eyes,specials,colour
2024-03-01,Ann|Ben|Cem|Dora,normal,Ann|Ben,viel,re:fuchs
,,,Cem|Dora,121,fuchs
"""
    where, _messages = problems(league, user, "hands", text)
    assert where == [(1, "colour")]
    text = text.replace(",colour", "")
    where, _messages = problems(league, user, "hands", text)
    assert where == [(2, "re_eyes"), (3, "kind")]


def test_a_hand_as_json_names_its_payload_column(league, user):
    text = 'date,players,payload\n2024-03-01,Ann|Ben|Cem|Dora,"{""kind"": ""normal"", ""re"": [""Ann""], ""re_eyes"": 150}"\n'
    where, _messages = problems(league, user, "hands", text)
    assert where == [(2, "payload")]


def test_an_evening_before_the_leagues_last_is_refused(league, user):
    meeting_for(league, ["Ann", "Ben", "Cem", "Dora"], date=datetime.date(2024, 2, 1))
    where, messages = problems(league, user, "totals", TOTALS)
    assert where == [(2, "date")]
    assert Meeting.objects.count() == 1


def test_a_race_game_imports_hands_not_totals(user):
    league = LeagueFactory(game="twenty_five", variant=selectors_variant("twenty_five"))
    where, _messages = problems(league, user, "totals", TOTALS)
    assert where == [(None, None)]


def selectors_variant(game):
    from scoring.registry import get_game

    return next(iter(get_game(game).presets))


# --- the page: preview, then confirm; who may ------------------------------------------------


def upload(kind, text):
    return {"kind": kind, "file": SimpleUploadedFile("season.csv", text.encode(), content_type="text/csv")}


def test_the_preview_stores_nothing_and_the_confirmation_stores_it(client, league):
    client.force_login(member(league, Role.ADMIN))
    url = reverse("paper_import", kwargs={"slug": league.slug})
    players = Player.objects.count()
    response = client.post(url, upload("totals", TOTALS))
    assert response.status_code == 200
    page = response.content.decode()
    assert "imported totals" in page and "Ann +30" in page
    assert [e.totals[0] for e in response.context["outcome"].evenings] == [("Ann", 30), ("Ben", 15)]
    assert not Meeting.objects.exists() and Player.objects.count() == players
    confirm = {"kind": "totals", "text": TOTALS, "confirm": "True"}
    response = client.post(url, confirm)
    assert response.status_code == 302
    assert Meeting.objects.filter(league=league, imported_totals=True).count() == 2
    league_page = client.get(league.get_absolute_url()).content.decode()
    assert league_page.count("imported totals") == 2


def test_the_page_names_every_problem_and_stores_nothing(client, league):
    client.force_login(member(league, Role.ADMIN))
    url = reverse("paper_import", kwargs={"slug": league.slug})
    response = client.post(url, upload("totals", TOTALS.replace("-20", "-2x")))
    assert response.status_code == 400
    assert "Row 2, column “Cem”" in response.content.decode()
    assert not Meeting.objects.exists()
    assert client.post(url, {"kind": "totals"}).status_code == 400


@pytest.mark.parametrize(("role", "status"), [(Role.MEMBER, 403), (Role.SCOREKEEPER, 403), (Role.ADMIN, 200)])
def test_only_a_league_admin_imports(client, league, role, status):
    client.force_login(member(league, role))
    url = reverse("paper_import", kwargs={"slug": league.slug})
    assert client.get(url).status_code == status
    response = client.post(url, {"kind": "totals", "text": TOTALS, "confirm": "True"})
    assert response.status_code == (302 if role == Role.ADMIN else 403)
    assert Meeting.objects.exists() == (role == Role.ADMIN)


def test_anonymous_and_other_leagues_members_cannot_import(client, league):
    url = reverse("paper_import", kwargs={"slug": league.slug})
    response = client.get(url)
    assert response.status_code == 302 and "login" in response["Location"]
    assert client.post(url, {"kind": "totals", "text": TOTALS, "confirm": "True"}).status_code == 302
    client.force_login(member(LeagueFactory(), Role.ADMIN))
    assert client.get(url).status_code == 404
    assert client.post(url, {"kind": "totals", "text": TOTALS, "confirm": "True"}).status_code == 404
    assert not Meeting.objects.exists()


def test_imported_totals_go_through_a_json_export_and_import(league, user):
    run(league, user, "totals", TOTALS)
    run(league, user, "hands", HANDS)
    data = exported(league)
    assert [m["imported_totals"] for m in data["meetings"]] == [
        {"Ann": 30, "Ben": -10, "Cem": -20, "Dora": 0},
        {"Ben": 15, "Cem": -5, "Dora": -10, "Emil": 0},
        None,
    ]
    copy = imported(data, user=user, name="Kopie", slug="kopie")
    assert table(stats_selectors.standings(league=copy).table) == table(stats_selectors.standings(league=league).table)
    assert copy.meetings.filter(imported_totals=True).count() == 2
    assert verify.verify_replays(league=copy) == (3, [])


def test_an_imported_totals_evening_has_a_sheet_page(client, league, user):
    run(league, user, "totals", TOTALS)
    meeting = Meeting.objects.order_by("date").first()
    client.force_login(member(league, Role.SCOREKEEPER))
    assert client.get(meeting.get_absolute_url()).status_code == 200
    standings = client.get(reverse("standings", kwargs={"slug": league.slug})).content.decode()
    assert standings.count("imported totals") == 2


def test_the_page_of_an_imported_evening_shows_its_totals(client, league, user):
    run(league, user, "totals", TOTALS)
    meeting = Meeting.objects.filter(league=league).order_by("date").first()
    client.force_login(member(league, Role.SCOREKEEPER))
    response = client.get(meeting.get_absolute_url())
    assert response.status_code == 200
    # Seat order, Ann hosting: Ann 30, Ben -10, Cem -20, Dora 0 (the first row of TOTALS).
    html = response.content.decode()
    shown = re.findall(r'<li><span>([^<]+)</span><b class="[^"]*">([^<]+)</b></li>', html)
    assert shown == [("Ann", "+30"), ("Ben", "-10"), ("Cem", "-20"), ("Dora", "0")]
    assert "No hands yet" not in html and 'id="hand-form"' not in html
