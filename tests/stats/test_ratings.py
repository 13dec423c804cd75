"""Ratings: each hand's match as the page documents it, and the updates checked
against openskill's Plackett-Luce model called directly (a solo: tests/stats/test_ratings_solo.py)."""

import datetime

import pytest
from openskill.models import PlackettLuce

from leagues.models import Player, Role
from leagues.stats import derived_cache, ratings
from leagues.table import services
from tests.factories import LeagueFactory, meeting_for, member, night_for
from tests.stats.test_ratings_solo import one_against_three

FIVE = ["Anna", "Ben", "Carl", "Dora", "Emil"]
# At a table of five the dealer sits out: Anna deals hand 1 (Ben, Carl, Dora, Emil play),
# Ben deals hand 2 (Anna, Carl, Dora, Emil play), Carl deals hand 3 (doppelkopf.md "Table").
# H1: Re Ben+Dora 131, nothing said: Re wins (target 121).
# H2: Emil's trump solo 100 eyes: Re misses 121, Kontra (Anna, Carl, Dora) wins.
# H3: a revoke by Emil: the revoker against the three others, who win.
HANDS = [
    {"kind": "normal", "re": ["Ben", "Dora"], "re_eyes": 131},
    {"kind": "solo", "solo": "trumpf", "re": ["Emil"], "re_eyes": 100},
    {"kind": "revoke", "revoke_by": "Emil"},
]


@pytest.fixture(autouse=True)
def fresh_cache(db):
    derived_cache.clear()
    yield
    derived_cache.clear()


@pytest.fixture
def league(db):
    league = LeagueFactory(game="doppelkopf", variant="club")
    keeper = member(league, Role.SCOREKEEPER, username="keeper", first_name="Keeper")
    meeting = meeting_for(league, FIVE, date=datetime.date(2026, 11, 20))
    for payload in HANDS:
        services.enter_hand(meeting=meeting, payload=payload, by=keeper)
    return league


def test_the_ratings_are_openskills_updates_hand_by_hand(league):
    model = PlackettLuce()
    r = {name: model.rating(name=name) for name in FIVE}

    def rate(winners, losers):
        new = model.rate([[r[n] for n in winners], [r[n] for n in losers]], ranks=[1, 2])
        for team, names in zip(new, (winners, losers), strict=True):
            for rating, name in zip(team, names, strict=True):
                r[name] = rating

    def one_lost(one, three):
        r[one], new = one_against_three(r[one], [r[n] for n in three], ranks=[2, 1])
        r.update(zip(three, new, strict=True))

    rate(["Ben", "Dora"], ["Carl", "Emil"])  # H1: Re won; Anna sat out
    # H2: Emil's solo lost: one match, Emil against the mean of Anna, Carl, Dora (Ben sat out).
    one_lost("Emil", ["Anna", "Carl", "Dora"])
    # H3: Emil revoked, a solo lost: Emil against Anna, Ben, Dora (Carl sat out).
    one_lost("Emil", ["Anna", "Ben", "Dora"])
    got = {row.player.name: row for row in ratings.compute_ratings(league=league).rows}
    for name in FIVE:
        assert got[name].mu == pytest.approx(r[name].mu, abs=1e-9)
        assert got[name].sigma == pytest.approx(r[name].sigma, abs=1e-9)
        assert got[name].ordinal == pytest.approx(r[name].ordinal(), abs=1e-9)
    # The ranking orders by ordinal; Dora won all three of her hands and is first.
    assert [row.player.name for row in ratings.compute_ratings(league=league).rows][0] == "Dora"
    assert got["Dora"].win_rate == 100 and got["Emil"].games == 3 and got["Emil"].wins == 0


def test_ramsch_rates_every_player_for_himself_by_the_points_of_the_hand():
    names = {"Anna": 1, "Ben": 2, "Carl": 3, "Dora": 4}
    # Ramsch, one loser (most eyes) -3P, the three others +P each: the three tie for first.
    rows = [(1, True, 3, True), (2, True, 3, True), (3, True, -9, False), (4, True, 3, True), (5, False, 0, False)]
    [(teams, ranks)] = ratings.matches_of_hand({"kind": "ramsch"}, rows, doppelkopf=True, names=names)
    assert teams == [[1], [2], [3], [4]] and ranks == [1, 1, 2, 1]


def test_a_game_nobody_won_is_a_tie():
    names = {"Anna": 1, "Ben": 2, "Carl": 3, "Dora": 4}
    rows = [(1, True, 1, False), (2, True, 1, False), (3, True, -1, False), (4, True, -1, False)]
    [(teams, ranks)] = ratings.matches_of_hand(
        {"kind": "normal", "re": ["Anna", "Ben"]}, rows, doppelkopf=True, names=names
    )
    assert teams == [[1, 2], [3, 4]] and ranks == [1, 1]


def test_a_correction_changes_the_ratings_on_the_next_read(league):
    before = {r.player.name: r.mu for r in ratings.league_ratings(league=league).rows}
    hand = league.meetings.get().hands.get(number=1)
    keeper = Player.objects.get(league=league, name="Keeper").user
    services.change_hand(hand=hand, payload={**HANDS[0], "re_eyes": 100}, by=keeper, version=hand.version)
    after = {r.player.name: r.mu for r in ratings.league_ratings(league=league).rows}
    assert after["Ben"] < before["Ben"] and after["Carl"] > before["Carl"]


def test_a_club_night_is_one_point_of_the_chart(db):
    # A club night's two tables are one evening: the chart has one date for it, with every
    # player's rating after his own table (an evening before it is a point of its own).
    league = LeagueFactory(game="doppelkopf", variant="club")
    keeper = member(league, Role.SCOREKEEPER, username="keeper", first_name="Keeper")
    before = meeting_for(league, ["Anna", "Ben", "Carl", "Dora"], date=datetime.date(2026, 11, 13))
    services.enter_hand(meeting=before, payload={"kind": "normal", "re": ["Anna", "Ben"], "re_eyes": 131}, by=keeper)
    before.closed_at = datetime.datetime(2026, 11, 13, 23, tzinfo=datetime.timezone.utc)
    before.save(update_fields=["closed_at"])
    night = night_for(league, [["Anna", "Ben", "Carl", "Dora"], ["Emil", "Fritz", "Gabi", "Hans"]])
    for table, re in zip(night.tables.order_by("table_number"), (["Carl", "Dora"], ["Emil", "Gabi"]), strict=True):
        services.enter_hand(meeting=table, payload={"kind": "normal", "re": re, "re_eyes": 131}, by=keeper)

    chart = ratings.league_ratings(league=league).chart

    assert chart["labels"] == ["2026-11-13", "2026-11-20"]
    by_name = {d["label"]: d["data"] for d in chart["datasets"]}
    assert by_name["Emil"][0] is None and by_name["Emil"][1] is not None
    assert by_name["Carl"][0] is not None and by_name["Carl"][1] != by_name["Carl"][0]
