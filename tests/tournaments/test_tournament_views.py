"""A tournament's pages (leagues/tournaments/views/): who may read and who may write, bad input
answered with a 400 and a message naming the field, the result list and the big screen
answered 304 while nothing it shows changed."""

import datetime

import pytest
from django.urls import reverse

from leagues.models import ClubNight, Player, Role, Tournament
from leagues.table import services as table_services
from leagues.tournaments import services
from tests.factories import LeagueFactory, member

pytestmark = pytest.mark.django_db

TOKEN = "abcdefghijklmnopqrstuvwxyz012345"
NAMES = ["Anna", "Ben", "Carla", "Dirk", "Emma", "Frank", "Gina", "Hugo"]
DAY = datetime.date(2026, 11, 21)


@pytest.fixture
def league(db):
    league = LeagueFactory(slug="pokal", game="doppelkopf", variant="ddv", public_token=TOKEN)
    for name in NAMES:
        Player.objects.create(league=league, name=name)
    return league


@pytest.fixture
def people(league):
    return {
        "anonymous": None,
        "stranger": member(LeagueFactory(), Role.ADMIN),
        "member": member(league, Role.MEMBER),
        "scorekeeper": member(league, Role.SCOREKEEPER),
        "admin": member(league, Role.ADMIN),
    }


@pytest.fixture
def tournament(league):
    tournament = services.create_tournament(league=league, name="Herbstpokal", format="ddv", rounds_planned=2)
    services.register_players(tournament=tournament, players=list(league.players.filter(name__in=NAMES)))
    return tournament


def login(client, people, who):
    client.logout()
    if people[who] is not None:
        client.force_login(people[who])


def url(name, league, **kwargs):
    return reverse(name, kwargs={"slug": league.slug, **kwargs})


def draw_post(league):
    return {"draw-date": "2026-11-21", "draw-host": league.players.get(name="Anna").pk}


# who: (list, page, results, big screen, its poll, new page, create, players, draw)
MATRIX = {
    "anonymous": (302, 302, 302, 302, 302, 302, 302, 302, 302),
    "stranger": (404, 404, 404, 404, 404, 404, 404, 404, 404),
    "member": (200, 200, 200, 200, 200, 403, 403, 403, 403),
    "scorekeeper": (200, 200, 200, 200, 200, 200, 302, 302, 302),
    "admin": (200, 200, 200, 200, 200, 200, 302, 302, 302),
}


@pytest.mark.parametrize("who", MATRIX)
def test_who_may_read_and_write(client, league, people, tournament, who):
    login(client, people, who)
    players = [p.pk for p in league.players.filter(name__in=NAMES)]
    t = {"pk": tournament.pk}
    answers = (
        client.get(url("tournaments", league)).status_code,
        client.get(url("tournament", league, **t)).status_code,
        client.get(url("tournament_results", league, **t)).status_code,
        client.get(url("tournament_live", league, **t)).status_code,
        client.get(url("tournament_live_hx", league, **t), HTTP_HX_REQUEST="true").status_code,
        client.get(url("tournament_new", league)).status_code,
        client.post(url("tournament_new", league), {"name": "Cup", "format": "ddv", "rounds_planned": "3"}).status_code,
        client.post(url("tournament_players", league, **t), {"entrants-players": players}).status_code,
        client.post(url("tournament_draw", league, **t), draw_post(league)).status_code,
    )
    assert answers == MATRIX[who]
    wrote = who in ("scorekeeper", "admin")
    assert Tournament.objects.filter(name="Cup").exists() == wrote
    assert ClubNight.objects.filter(tournament=tournament).exists() == wrote


@pytest.mark.parametrize("who", MATRIX)
def test_who_may_register_and_take_off_pairs(client, people, who):
    league = LeagueFactory(game="forty_five", variant="merrimack")
    people = {**people, "member": member(league, Role.MEMBER), "scorekeeper": member(league, Role.SCOREKEEPER)}
    people["admin"] = member(league, Role.ADMIN)
    first, second = (Player.objects.create(league=league, name=name) for name in ("Aoife", "Brian"))
    tournament = services.create_tournament(league=league, name="Robbers", format="maw_pairs", rounds_planned=2)
    party = services.add_party(tournament=tournament, name="Kerry", players=[first, second])
    login(client, people, who)
    t = {"pk": tournament.pk}
    added = client.post(url("tournament_party_add", league, **t), {"party-name": "Cork", "party-players": [first.pk]})
    removed = client.post(url("tournament_party_remove", league, party=party.pk, **t))
    expected = {"admin": (400, 302), "scorekeeper": (400, 302), "member": (403, 403), "stranger": (404, 404)}
    expected["anonymous"] = (302, 302)
    assert (added.status_code, removed.status_code) == expected[who]
    if who in ("admin", "scorekeeper"):
        assert "Players: choose 2 players of this league." in added.content.decode()
        assert not tournament.parties.exists()


def test_a_tournament_of_another_league_is_not_found(client, league, people, tournament):
    other = LeagueFactory(game="doppelkopf", variant="ddv")
    theirs = services.create_tournament(league=other, name="Fremd", format="ddv", rounds_planned=1)
    login(client, people, "admin")
    assert client.get(url("tournament", league, pk=theirs.pk)).status_code == 404
    assert client.post(url("tournament_draw", league, pk=theirs.pk), draw_post(league)).status_code == 404


def test_a_new_tournament_with_bad_input_names_the_fields(client, league, people):
    login(client, people, "scorekeeper")
    response = client.post(url("tournament_new", league), {"name": "Cup", "format": "skat", "rounds_planned": "99"})
    assert response.status_code == 400
    text = response.content.decode()
    assert "Format: choose one of the list." in text and "Rounds: from 1 to 20." in text
    response = client.post(
        url("tournament_new", league), {"name": "Cup", "format": "fifty_six_teams", "rounds_planned": "2"}
    )
    assert response.status_code == 400
    assert "Format: this tournament is played in a league of 56." in response.content.decode()
    response = client.post(
        url("tournament_new", league), {"name": "Cup", "format": "ddv", "rounds_planned": "3", "games_per_player": "10"}
    )
    assert response.status_code == 400
    assert "Games per player: a multiple of 4 from 4 to 96." in response.content.decode()
    assert not Tournament.objects.exists()


def test_the_draw_opens_the_tables_and_the_next_waits_for_them(client, league, people, tournament):
    login(client, people, "scorekeeper")
    response = client.post(url("tournament_draw", league, pk=tournament.pk), draw_post(league))
    assert response.status_code == 302
    night = ClubNight.objects.get(tournament=tournament)
    assert (night.round_number, night.tables.count()) == (1, 2)
    page = client.get(url("tournament", league, pk=tournament.pk)).content.decode()
    assert "Round 1, being played" in page
    assert f'href="/l/{league.slug}/m/{night.tables.first().pk}/"' in page
    assert f'href="/l/{league.slug}/n/{night.pk}/"' in page
    assert client.get(reverse("club_night", kwargs={"slug": league.slug, "pk": night.pk})).status_code == 200
    again = client.post(url("tournament_draw", league, pk=tournament.pk), draw_post(league))
    assert again.status_code == 400
    assert "Round 1 is still being played." in again.content.decode()
    bad = client.post(url("tournament_draw", league, pk=tournament.pk), {"draw-date": "soon", "draw-host": "x"})
    assert bad.status_code == 400
    assert "Date: this is not a valid value." in bad.content.decode()


def test_the_result_list_prints_the_ranking_and_every_round(client, league, people, tournament):
    night = services.draw_round(tournament=tournament, date=DAY, host=league.players.get(name="Anna"))
    for table in night.tables.all():
        seats = [seat.player.name for seat in table.seats.order_by("position")]
        payload = {"kind": "points", "re": seats[:2], "winner": "re", "value": 3}
        for _number in range(24):
            table_services.enter_hand(meeting=table, payload=payload, by=None)
    login(client, people, "member")
    response = client.get(url("tournament_results", league, pk=tournament.pk))
    text = response.content.decode()
    assert "css/report.css" in text and "data-print" in text
    assert "Ranking after round 1" not in text and "Round 1" in text
    ranking = response.context["rows"]
    # Both tables: the Re pair +72 each (24 games of 3), so four share 1st with a table win each.
    assert [(row.place, row.figures) for row in ranking[:4]] == [(1, [72, 1, 72])] * 4
    assert [row.place for row in ranking[4:]] == [5] * 4


def test_the_big_screen_answers_304_until_a_hand_is_entered(client, league, people, tournament):
    night = services.draw_round(tournament=tournament, date=DAY, host=league.players.get(name="Anna"))
    login(client, people, "member")
    part = url("tournament_live_hx", league, pk=tournament.pk)
    first = client.get(part, HTTP_HX_REQUEST="true")
    assert first.status_code == 200 and 'hx-trigger="every 3s"' in first.content.decode()
    etag = first["ETag"]
    assert client.get(part, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=etag).status_code == 304
    table = night.tables.first()
    seats = [seat.player.name for seat in table.seats.order_by("position")]
    table_services.enter_hand(
        meeting=table, payload={"kind": "points", "re": seats[:2], "winner": "re", "value": 2}, by=None
    )
    changed = client.get(part, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert "1 of 24 games played" in changed.content.decode()


def test_the_big_screen_by_the_public_link(client, league, tournament):
    args = {"token": TOKEN, "pk": tournament.pk}
    assert client.get(reverse("public_tournament_live", kwargs=args)).status_code == 200
    assert client.get(reverse("public_tournament_live_hx", kwargs=args)).status_code == 200
    wrong = {"token": "z" * 32, "pk": tournament.pk}
    assert client.get(reverse("public_tournament_live", kwargs=wrong)).status_code == 404
    assert client.get(reverse("public_tournament_live_hx", kwargs=wrong)).status_code == 404


def test_a_tables_sheet_works_and_it_cannot_be_ended_before_its_games(client, league, people, tournament):
    night = services.draw_round(tournament=tournament, date=DAY, host=league.players.get(name="Anna"))
    table = night.tables.order_by("table_number").first()
    seats = [seat.player.name for seat in table.seats.order_by("position")]
    table_services.enter_hand(
        meeting=table, payload={"kind": "points", "re": seats[:2], "winner": "re", "value": 2}, by=None
    )
    login(client, people, "scorekeeper")
    sheet = url("meeting", league, pk=table.pk)
    assert client.get(sheet).status_code == 200
    refused = client.post(url("meeting_close", league, pk=table.pk), {"confirm": "1"})
    assert refused.status_code == 400
    assert "This table plays 24 games: 23 games are left." in refused.content.decode()
    table.refresh_from_db()
    assert table.closed_at is None


@pytest.fixture
def robber_table(db):
    """A table of a Maw pairs round (Kerry v Mayo) two games to one into its robber."""
    league = LeagueFactory(slug="robbers", game="forty_five", variant="merrimack")
    players = [Player.objects.create(league=league, name=name) for name in ("Aoife", "Brian", "Ciara", "Declan")]
    players += [Player.objects.create(league=league, name=name) for name in ("Eimear", "Fergal", "Grainne", "Hugh")]
    tournament = services.create_tournament(league=league, name="Robbers", format="maw_pairs", rounds_planned=1)
    for number, name in enumerate(("Kerry", "Cork", "Clare", "Mayo")):
        services.add_party(tournament=tournament, name=name, players=players[2 * number : 2 * number + 2])
    night = services.draw_round(tournament=tournament, date=DAY, host=players[0])
    table = next(t for t in night.tables.all() if "Kerry" in t.teams)
    other = next(iter(set(table.teams) - {"Kerry"}))
    for pair in ("Kerry", other, "Kerry"):
        for _hand in range(2):
            table_services.enter_hand(meeting=table, payload={"tricks": [pair] * 5, "top_trump_trick": 1}, by=None)
    return table


def sweep_post(pair, expected):
    return {"expected_hand": str(expected), **{f"trick_{n}": pair for n in range(1, 6)}, "top_trump_trick": "1"}


@pytest.mark.parametrize(
    ("who", "status"), [("anonymous", 302), ("stranger", 404), ("member", 403), ("scorekeeper", 400), ("admin", 400)]
)
def test_who_may_end_a_robber_table_and_that_it_is_refused_before_the_robber(client, robber_table, who, status):
    people = {
        "anonymous": None,
        "stranger": member(LeagueFactory(), Role.ADMIN),
        "member": member(robber_table.league, Role.MEMBER),
        "scorekeeper": member(robber_table.league, Role.SCOREKEEPER),
        "admin": member(robber_table.league, Role.ADMIN),
    }
    login(client, people, who)
    response = client.post(url("meeting_close", robber_table.league, pk=robber_table.pk), {"confirm": "1"})
    assert response.status_code == status
    if status == 400:
        assert "This table plays a robber: it ends when a pair has won 3 games." in response.content.decode()
    robber_table.refresh_from_db()
    assert robber_table.closed_at is None


def test_the_hand_that_wins_the_robber_ends_the_table_and_a_further_one_is_refused(client, robber_table):
    league = robber_table.league
    client.force_login(member(league, Role.SCOREKEEPER))
    page = client.get(url("meeting", league, pk=robber_table.pk)).content.decode()
    assert 'id="hand-form"' in page
    add = url("hand_add_hx", league, pk=robber_table.pk)
    client.post(add, sweep_post("Kerry", 7), HTTP_HX_REQUEST="true")
    won = client.post(add, sweep_post("Kerry", 8), HTTP_HX_REQUEST="true")
    assert won.status_code == 200
    html = won.content.decode()
    assert "The evening is over" in html and 'id="hand-form"' not in html and "End the evening" not in html
    robber_table.refresh_from_db()
    assert robber_table.closed_at is not None
    again = client.post(add, sweep_post("Kerry", 9), HTTP_HX_REQUEST="true")
    assert again.status_code == 400
    assert "Kerry has won the robber at this table: the round is over here." in again.content.decode()
    assert robber_table.hands.count() == 8


def test_a_56_tournaments_pages_show_the_matches_and_the_ranking(client):
    league = LeagueFactory(slug="onam", game="fifty_six", variant="tournament")
    players = [Player.objects.create(league=league, name=f"{letter}{n}") for letter in "ABCD" for n in (1, 2, 3)]
    tournament = services.create_tournament(
        league=league, name="Onam", format="fifty_six_teams", rounds_planned=2, games_per_player=6
    )
    for number, name in enumerate(("Alappuzha", "Kollam", "Kottayam", "Thrissur")):
        services.add_party(tournament=tournament, name=name, players=players[3 * number : 3 * number + 3])
    night = services.draw_round(tournament=tournament, date=DAY, host=players[0])
    for table in night.tables.all():
        bidder = table.seats.order_by("position").first().player.name
        for _number in range(6):  # the first seat's team bids 28 and makes it: 6 to 0
            payload = {"bidder": bidder, "bid": 28, "trump": "clubs", "bidder_team_points": 30}
            table_services.enter_hand(meeting=table, payload=payload, by=None)
    client.force_login(member(league, Role.MEMBER))
    for name in ("tournament", "tournament_results", "tournament_live"):
        response = client.get(url(name, league, pk=tournament.pk))
        assert response.status_code == 200
        text = response.content.decode()
        assert "Match points" in text and "Alappuzha" in text
        # The big screen shows the round in play only; the other pages every round's tables.
        assert ("6 of 6 games played" in text) == (name != "tournament_live")
    rows = response.context["rows"]
    assert [(row.place, row.figures) for row in rows] == [(1, [2, 6, 6])] * 2 + [(3, [0, -6, 0])] * 2
