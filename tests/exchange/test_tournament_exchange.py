"""Tournaments in the league's data out and in (leagues/exchange/tournament_file.py): the JSON
export carries each tournament (its format, rounds and games planned, lot, entrants and pairs
or teams), each round's night names its tournament and round number and each table its games
or matches planned; an import makes them again, so the imported tournament's page ranks as the
original's and draws the same next round, and it refuses, naming the place in the file, what
the tournament's pages could not have made. A file without tournaments imports as before."""

import copy
import datetime

import pytest
from django.urls import reverse

from leagues.exchange import league_file as exchange
from leagues.models import ClubNight, League, Meeting, Tournament, TournamentParty, TournamentPlayer
from leagues.tournaments import page, services
from tests.exchange.files import exported, imported
from tests.exchange.test_league_exchange import sheets, upload, without_people_and_names
from tests.factories import UserFactory
from tests.tournaments import test_tournament_robbers as robbers
from tests.tournaments import test_tournament_rounds as serien

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 11, 24)


@pytest.fixture
def pairs():
    """The Maw pairs tournament of tests/tournaments/test_tournament_robbers.py, made by Kurt:
    round 1 played (Cork beat Clare 3-2, Mayo beat Kerry 3-1, each table ended by its robber);
    round 2 drawn, Kerry beat Cork 3-0, Clare v Mayo still at 1-1."""
    tournament, players = robbers.robbers()
    kurt = UserFactory(username="kurt", first_name="Kurt")
    Tournament.objects.filter(pk=tournament.pk).update(created_by=kurt)
    night = services.draw_round(tournament=tournament, date=DAY, host=players[0])
    tables = robbers.tables_of(night)
    robbers.play_games(tables[frozenset({"Cork", "Clare"})], ["Clare", "Cork", "Clare", "Cork", "Cork"])
    robbers.play_games(tables[frozenset({"Kerry", "Mayo"})], ["Mayo", "Kerry", "Mayo", "Mayo"])
    night = services.draw_round(tournament=tournament, date=DAY + datetime.timedelta(days=7), host=players[0])
    tables = robbers.tables_of(night)
    robbers.play_games(tables[frozenset({"Kerry", "Cork"})], ["Kerry"] * 3)
    robbers.play_games(tables[frozenset({"Clare", "Mayo"})], ["Mayo", "Clare"])
    tournament.refresh_from_db()
    return tournament


def copy_of(data, slug="kopie"):
    return imported(data, user=UserFactory(username=f"neu-{slug}"), name="Kopie", slug=slug)


def changed(export, change):
    broken = copy.deepcopy(export)
    change(broken)
    return broken


def shown(tournament):
    """What the tournament's pages show, without the ids of its tables' meetings."""
    view = page.tournament_view(tournament)
    rounds = [
        (r.number, r.date, [(t.number, t.closed, t.games_planned, t.hands, t.scores) for t in tables])
        for r, tables in view["rounds"]
    ]
    parties = [(name, names) for _pk, name, names in view["parties"]]
    return view["rows"], rounds, parties, view["drawn"], view["finished"], view["may_draw"]


# --- out and in -------------------------------------------------------------------------------


def test_the_export_carries_the_tournament_its_rounds_and_each_tables_robber(pairs):
    export = exported(pairs.league)
    assert export["tournaments"] == [
        {
            "name": "Convent Hall",
            "format": "maw_pairs",
            "rounds_planned": 2,
            "games_per_player": None,  # a round is a robber
            "seed": "robber",
            "created_at": pairs.created_at.isoformat(),
            "created_by": "kurt",  # no player of the league is his: his login name
            "entrants": robbers.NAMES,
            # by name, each with its players (Aoife+Brian, Ciara+Declan, Eimear+Fergal, Grainne+Hugh)
            "parties": [
                {"name": "Clare", "players": ["Eimear", "Fergal"]},
                {"name": "Cork", "players": ["Ciara", "Declan"]},
                {"name": "Kerry", "players": ["Aoife", "Brian"]},
                {"name": "Mayo", "players": ["Grainne", "Hugh"]},
            ],
        }
    ]
    assert [(n["date"], n["tournament"], n["round_number"]) for n in export["club_nights"]] == [
        ("2026-11-24", 1, 1),
        ("2026-12-01", 1, 2),
    ]
    # Every table of a Maw pairs round plays one robber, no number of games.
    assert {(m["club_night"], m["games_planned"], m["matches_planned"]) for m in export["meetings"]} == {
        (1, None, 1),
        (2, None, 1),
    }


def test_an_imported_tournament_ranks_and_shows_as_the_original(pairs):
    copied = copy_of(exported(pairs.league))
    tournament = Tournament.objects.get(league=copied)
    assert (tournament.name, tournament.format, tournament.rounds_planned, tournament.seed) == (
        "Convent Hall",
        "maw_pairs",
        2,
        "robber",
    )
    assert tournament.created_at == pairs.created_at and tournament.created_by is None
    assert shown(tournament) == shown(pairs)
    # Round 2 still plays at Clare v Mayo: the ranking is round 1's (robbers, games), as worked
    # out in tests/tournaments/test_tournament_robbers.py.
    rows, rounds, *_rest = shown(tournament)
    assert [(r.place, r.party, *r.figures) for r in rows] == robbers.AFTER_1
    assert [len(tables) for _n, _d, tables in rounds] == [2, 2]
    assert sheets(copied) == sheets(pairs.league)


def test_the_imported_tournaments_page_shows_the_originals_ranking(client, pairs):
    user = UserFactory(username="neu")
    copied = imported(exported(pairs.league), user=user, name="Kopie", slug="kopie")
    tournament = Tournament.objects.get(league=copied)
    client.force_login(user)  # the importer is the new league's admin
    response = client.get(reverse("tournament", kwargs={"slug": copied.slug, "pk": tournament.pk}))
    assert response.status_code == 200
    assert response.context["rows"] == page.tournament_view(pairs)["rows"]
    assert "Convent Hall" in response.content.decode()


def test_the_tournament_round_trips(pairs):
    export = exported(pairs.league)
    again = exported(copy_of(export))
    assert without_people_and_names(again) == without_people_and_names(export)
    assert again["tournaments"][0]["created_by"] is None  # who made it: an account, not kept


def test_an_imported_ddv_tournament_draws_the_same_next_round():
    # The lot and the earlier tables travel: round 2 seats the twelve as the original does.
    tournament, players = serien.ddv_tournament(serien.NAMES, games=4)
    night = services.draw_round(tournament=tournament, date=serien.DAY, host=players[0])
    serien.play(night, serien.ROUND_1[1])
    export = exported(tournament.league)
    assert export["tournaments"][0]["games_per_player"] == 4
    assert [m["games_planned"] for m in export["meetings"]] == [4, 4, 4]  # tables of four
    copied = Tournament.objects.get(league=copy_of(export))
    assert shown(copied) == shown(tournament)
    later = datetime.date(2026, 11, 28)
    original = services.draw_round(tournament=tournament, date=later, host=players[0])
    again = services.draw_round(tournament=copied, date=later, host=copied.league.players.get(name=players[0].name))
    assert serien.seated(again) == serien.seated(original) == serien.ROUND_2[0]


def test_an_older_file_without_tournaments_imports_its_rounds_as_a_clubs_own_nights(pairs):
    export = exported(pairs.league)
    del export["tournaments"]
    for night in export["club_nights"]:
        del night["tournament"], night["round_number"]
    for meeting in export["meetings"]:
        del meeting["games_planned"], meeting["matches_planned"]
    copied = copy_of(export)
    assert not Tournament.objects.filter(league=copied).exists()
    assert ClubNight.objects.filter(league=copied, tournament__isnull=True).count() == 2
    assert not Meeting.objects.filter(league=copied, matches_planned__isnull=False).exists()


# --- what an import refuses --------------------------------------------------------------------


def _tournament(change):
    return lambda d: change(d["tournaments"][0])


def _party(n, change):
    return lambda d: change(d["tournaments"][0]["parties"][n - 1])


def _night(n, **fields):
    return lambda d: d["club_nights"][n - 1].update(fields)


def _hand_after_the_robber(data):
    """The Cork v Clare table of round 1 (won by Cork at hand 10) with an 11th hand."""
    table = next(m for m in data["meetings"] if m["club_night"] == 1 and m["teams"].keys() == {"Cork", "Clare"})
    hand = copy.deepcopy(table["hands"][-1])
    hand.update(position=hand["position"] + 1, number=hand["number"] + 1, idempotency_key=None, history=[])
    table["hands"].append(hand)


T = "tournaments[1]"
REFUSED = [
    (T, "an object was expected", lambda d: d["tournaments"].__setitem__(0, [])),
    ("tournaments", "not the expected kind", lambda d: d.update(tournaments={})),
    (f"{T}.name", "missing", _tournament(lambda t: t.pop("name"))),
    (f"{T}.name", "at most 80 characters", _tournament(lambda t: t.update(name="x" * 81))),
    (f"{T}.format", "choose one of the list", _tournament(lambda t: t.update(format="chess"))),
    (f"{T}.format", "played in a league of", _tournament(lambda t: t.update(format="ddv"))),
    (f"{T}.rounds_planned", "from 1 to 20", _tournament(lambda t: t.update(rounds_planned=0))),
    (f"{T}.rounds_planned", "not the expected kind", _tournament(lambda t: t.update(rounds_planned="2"))),
    (f"{T}.games_per_player", "a whole robber or match", _tournament(lambda t: t.update(games_per_player=24))),
    (f"{T}.seed", "missing", _tournament(lambda t: t.pop("seed"))),
    (f"{T}.seed", "cannot be blank", _tournament(lambda t: t.update(seed=""))),
    (f"{T}.created_at", "valid date/time", _tournament(lambda t: t.update(created_at="yesterday"))),
    (
        f"{T}.entrants[1]",
        "Nobody is not one of the players",
        _tournament(lambda t: t["entrants"].__setitem__(0, "Nobody")),
    ),
    (f"{T}.entrants[2]", "Aoife is entered twice", _tournament(lambda t: t["entrants"].__setitem__(1, "Aoife"))),
    (f"{T}.parties[1].players[1]", "Eimear is not an entrant", _tournament(lambda t: t["entrants"].remove("Eimear"))),
    (
        f"{T}.parties[2].players[1]",
        "Eimear plays in another pair",
        _party(2, lambda p: p["players"].__setitem__(0, "Eimear")),
    ),
    (f"{T}.parties[1].players", "a pair or team of 2 players", _party(1, lambda p: p["players"].pop())),
    (f"{T}.parties[1].players", "missing", _party(1, lambda p: p.pop("players"))),
    (f"{T}.parties[2].name", "another pair or team has this name", _party(2, lambda p: p.update(name="Clare"))),
    (f"{T}.parties[1].name", "give the pair or team a name", _party(1, lambda p: p.update(name="  "))),
    (f"{T}.entrants", "Grainne plays in no pair or team", _tournament(lambda t: t["parties"].pop())),
    ("club_nights[1].tournament", "not the place of a tournament", _night(1, tournament=2)),
    ("club_nights[1].tournament", "not the place of a tournament", _night(1, tournament=0)),
    ("club_nights[1].tournament", "not the expected kind", _night(1, tournament="1")),
    ("club_nights[1].round_number", "a round number without a tournament", _night(1, tournament=None)),
    ("club_nights[2].round_number", "missing", _night(2, round_number=None)),
    ("club_nights[2].round_number", "from 1 to", _night(2, round_number=0)),
    ("club_nights[2].round_number", "tournaments[1] has a round 1 already", _night(2, round_number=1)),
    ("club_nights[2].round_number", "tournaments[1] plans 2 rounds", _night(2, round_number=3)),
    (
        T,
        "numbered 1, 2",
        lambda d: (d["tournaments"][0].update(rounds_planned=3), d["club_nights"][1].update(round_number=3)),
    ),
    (T, "numbered 1, 2", _night(1, tournament=None, round_number=None)),
    ("meetings[1].matches_planned", "a whole number from 1", lambda d: d["meetings"][0].update(matches_planned=0)),
    ("meetings[1].matches_planned", "not both", lambda d: d["meetings"][0].update(games_planned=6)),
    ("meetings[1].hands", "Cork wins the robber at hand 10, but the sheet goes on to hand 11", _hand_after_the_robber),
]


@pytest.mark.parametrize(("where", "message", "change"), REFUSED, ids=[f"{w} {m}" for w, m, _c in REFUSED])
def test_it_refuses_a_tournament_the_pages_could_not_have_made_naming_the_place(pairs, where, message, change):
    before = [m.objects.count() for m in (League, Tournament, TournamentParty, TournamentPlayer, ClubNight, Meeting)]
    with pytest.raises(exchange.ImportProblem) as error:
        copy_of(changed(exported(pairs.league), change))
    text = error.value.errors[0]["message"]
    assert text.startswith(f"{where}: ") and message in text, text
    after = [m.objects.count() for m in (League, Tournament, TournamentParty, TournamentPlayer, ClubNight, Meeting)]
    assert after == before  # nothing stored


@pytest.fixture
def serie():
    """Round 1 of the twelve players' DDV tournament of tests/tournaments/test_tournament_rounds.py,
    played (three tables of four, each 4 games)."""
    tournament, players = serien.ddv_tournament(serien.NAMES, games=4)
    night = services.draw_round(tournament=tournament, date=serien.DAY, host=players[0])
    serien.play(night, serien.ROUND_1[1])
    return tournament


def _no_round(data):
    """Round 1 as a club's own night: its tables' games planned are then no tournament's."""
    data["club_nights"][0].update(tournament=None, round_number=None)


SINGLES_REFUSED = [
    (
        f"{T}.parties",
        "single players has no pairs",
        _tournament(lambda t: t.update(parties=[{"name": "X", "players": ["Anna"]}])),
    ),
    ("meetings[1].games_planned", "a whole number from 1", lambda d: d["meetings"][0].update(games_planned=0)),
    ("meetings[1].games_planned", "only a table of a tournament's round", _no_round),
    ("meetings[2].hands", "has played its 3 games", lambda d: d["meetings"][1].update(games_planned=3)),
]


@pytest.mark.parametrize(
    ("where", "message", "change"), SINGLES_REFUSED, ids=[f"{w} {m}" for w, m, _c in SINGLES_REFUSED]
)
def test_it_refuses_a_serie_the_draw_could_not_have_planned_naming_the_place(serie, where, message, change):
    with pytest.raises(exchange.ImportProblem) as error:
        copy_of(changed(exported(serie.league), change))
    text = error.value.errors[0]["message"]
    assert text.startswith(f"{where}: ") and message in text, text


def test_the_import_page_answers_a_bad_tournament_with_a_400_naming_it(client, pairs):
    client.force_login(UserFactory())
    bad = changed(exported(pairs.league), _night(2, round_number=1))
    response = client.post(reverse("league_import"), {"file": upload(bad), "name": "X"})
    assert response.status_code == 400
    assert "club_nights[2].round_number" in " ".join(response.context["form"].errors["file"])
    assert not League.objects.filter(name="X").exists()
