"""Standings figures (leagues.selectors.standings), against HandResult rows
built by hand so the figures can be worked out on paper."""

import datetime
import random

import pytest
from django.utils import timezone

from leagues.models import Hand, HandResult, Meeting, MeetingResult, Player, Season, Seat
from leagues.stats import selectors
from leagues.table import replay, results, services
from scoring.thousand import example_request
from tests.factories import LeagueFactory, UserFactory, meeting_for

pytestmark = pytest.mark.django_db


def played(league, date, seats, hands, *, season=1, closed=False):
    """A meeting of ``league`` with HandResult rows as a replay would write them.

    ``hands``: one dict per hand, player name -> delta; a seated player missing from it sat
    out. Optional keys: "solo" (the soloist's name), "games" ({name: games won at this hand}),
    "totals" ({name: running total}, for race games whose totals reset).
    """
    season_obj, _ = Season.objects.get_or_create(league=league, number=season, defaults={"started_on": date})
    if closed and season_obj.closed_on is None:
        season_obj.closed_on = date
        season_obj.save()
    players = [Player.objects.get_or_create(league=league, name=name)[0] for name in seats]
    meeting = Meeting.objects.create(
        league=league, season=season_obj, date=date, host=players[0], game=league.game, variant=league.variant
    )
    Seat.objects.bulk_create(Seat(meeting=meeting, player=p, position=i) for i, p in enumerate(players))
    running = dict.fromkeys(seats, 0)
    rows = []
    for number, hand in enumerate(hands, 1):
        record = Hand.objects.create(meeting=meeting, position=number, number=number, payload={"kind": "normal"})
        for player in players:
            delta = hand.get(player.name, 0)
            running[player.name] += delta
            total = hand.get("totals", {}).get(player.name, running[player.name])
            rows.append(
                HandResult(
                    hand=record,
                    meeting=meeting,
                    season=season_obj,
                    league=league,
                    player=player,
                    number=number,
                    active=player.name in hand,
                    delta=delta,
                    total=total,
                    won=player.name in hand and delta > 0,
                    games_won=hand.get("games", {}).get(player.name, 0),
                    solo=hand.get("solo") == player.name,
                )
            )
    HandResult.objects.bulk_create(rows)
    # The per-meeting sums the standings read, as services.write_results keeps them.
    seat_order = {p.id: i for i, p in enumerate(players)}
    MeetingResult.objects.bulk_create(results.meeting_result_rows(meeting, rows, seat_order=seat_order))
    return meeting


def ended(league):
    """Every evening of ``league`` closed: only then has it a winner."""
    Meeting.objects.filter(league=league, closed_at=None).update(closed_at=timezone.now())


FIVE = ["Anna", "Ben", "Carl", "Dora", "Emil"]


def two_meetings(league):
    """Worked on paper: season totals Anna 1, Ben 5, Carl 0, Dora -6, Emil 0."""
    first = played(
        league,
        datetime.date(2026, 1, 9),
        FIVE,
        [
            {"Ben": 1, "Carl": -1, "Dora": 1, "Emil": -1},
            {"Anna": 3, "Carl": -1, "Dora": -1, "Emil": -1, "solo": "Anna"},
            {"Anna": -2, "Ben": 2, "Dora": 2, "Emil": -2},
        ],
    )
    second = played(
        league,
        datetime.date(2026, 2, 13),
        ["Ben", "Emil", "Dora", "Carl", "Anna"],
        [
            {"Emil": 2, "Dora": -2, "Carl": 2, "Anna": -2},
            {"Dora": -6, "Emil": 2, "Anna": 2, "Ben": 2, "solo": "Dora"},
        ],
    )
    return first, second


def by_name(rows):
    return {row.player.name: row for row in rows}


def test_it_sums_the_season_from_hand_results():
    league = LeagueFactory()
    two_meetings(league)
    s = selectors.standings(league=league)
    rows = by_name(s.table)
    assert {n: r.total for n, r in rows.items()} == {"Anna": 1, "Ben": 5, "Carl": 0, "Dora": -6, "Emil": 0}
    assert {n: r.games for n, r in rows.items()} == {"Anna": 4, "Ben": 3, "Carl": 3, "Dora": 5, "Emil": 5}
    assert {n: r.wins for n, r in rows.items()} == {"Anna": 2, "Ben": 3, "Carl": 1, "Dora": 2, "Emil": 2}
    assert (rows["Anna"].solos, rows["Anna"].solos_won) == (1, 1)
    assert (rows["Dora"].solos, rows["Dora"].solos_won) == (1, 0)
    assert rows["Ben"].average == pytest.approx(5 / 3)


def test_it_ranks_by_total_with_shared_places():
    league = LeagueFactory()
    two_meetings(league)
    s = selectors.standings(league=league)
    # Carl and Emil tie on 0 and share third place; Emil has more wins, so he is listed first.
    assert [(r.rank, r.player.name) for r in s.table] == [
        (1, "Ben"),
        (2, "Anna"),
        (3, "Emil"),
        (3, "Carl"),
        (5, "Dora"),
    ]
    assert s.choosing_restaurant.name == "Dora"


def test_it_names_the_winner_of_each_meeting():
    league = LeagueFactory()
    first, second = two_meetings(league)
    # Only a closed evening has a winner (league.md, the pennant).
    assert [m.winner for m in selectors.standings(league=league).meetings] == [None, None]
    ended(league)
    s = selectors.standings(league=league)
    assert [(m.id, m.winner.name, m.winner_total, m.hands) for m in s.meetings] == [
        (first.id, "Ben", 3, 3),
        (second.id, "Emil", 4, 2),
    ]
    assert by_name(s.table)["Ben"].evenings_won == 1
    assert by_name(s.table)["Emil"].evenings_won == 1


def test_a_tie_for_the_evening_goes_to_the_first_in_seat_order():
    league = LeagueFactory()
    meeting = played(
        league,
        datetime.date(2026, 3, 6),
        ["Carl", "Anna", "Ben", "Dora"],
        [{"Anna": 2, "Ben": 2, "Carl": -2, "Dora": -2}],
    )
    ended(league)
    s = selectors.standings(league=league)
    assert s.meetings[0].id == meeting.id
    assert s.meetings[0].winner.name == "Anna"  # Anna sits before Ben


def test_the_chart_carries_each_running_total_meeting_by_meeting():
    league = LeagueFactory()
    two_meetings(league)
    chart = selectors.standings(league=league).chart
    # One point per meeting, labelled by its date.
    assert chart["labels"] == ["09.01.", "13.02."]
    series = {d["label"]: d["data"] for d in chart["datasets"]}
    # Anna: 0 + 3 - 2 = 1 after the first evening, -2 + 2 = 0 more in the second.
    assert series["Anna"] == [1, 1]
    # Dora: 1 - 1 + 2 = 2, then -2 - 6 = -8 more.
    assert series["Dora"] == [2, -6]
    assert chart["datasets"][0]["label"] == "Ben"  # the leader first in the legend


def test_a_player_who_missed_a_meeting_keeps_his_total_on_the_chart():
    league = LeagueFactory()
    played(league, datetime.date(2026, 1, 9), FIVE, [{"Ben": 1, "Carl": -1, "Dora": 1, "Emil": -1}])
    played(
        league,
        datetime.date(2026, 1, 16),
        ["Anna", "Carl", "Dora", "Emil"],
        [{"Anna": 1, "Carl": 1, "Dora": -1, "Emil": -1}],
    )
    series = {d["label"]: d["data"] for d in selectors.standings(league=league).chart["datasets"]}
    assert series["Ben"] == [1, 1]


def test_the_all_time_table_spans_seasons_and_the_season_table_does_not():
    league = LeagueFactory()
    played(
        league,
        datetime.date(2025, 5, 1),
        ["Anna", "Ben", "Carl", "Dora"],
        [{"Anna": 4, "Ben": -4, "Carl": 4, "Dora": -4}],
        season=1,
        closed=True,
    )
    played(
        league,
        datetime.date(2026, 1, 9),
        ["Ben", "Anna", "Carl", "Dora"],
        [{"Anna": -1, "Ben": 1, "Carl": -1, "Dora": 1}],
        season=2,
    )
    s = selectors.standings(league=league)
    assert s.season.number == 2
    assert by_name(s.table)["Anna"].total == -1
    assert by_name(s.all_time)["Anna"].total == 3
    first = selectors.standings(league=league, season_number=1)
    assert by_name(first.table)["Anna"].total == 4
    with pytest.raises(Season.DoesNotExist):
        selectors.standings(league=league, season_number=7)


def test_an_evening_imported_as_totals_counts_in_the_totals_not_in_the_averages():
    """Its rows hold totals and no games (imported_total): the all-time average is the played
    evenings' points per game, in the season it is in and in every other."""
    league = LeagueFactory()
    paper = played(league, datetime.date(2025, 5, 1), ["Anna", "Ben", "Carl", "Dora"], [], season=1, closed=True)
    results.store_imported_totals(
        meeting=paper, totals={p.pk: 10 * (i + 1) for i, p in enumerate(league.players.all())}
    )
    played(
        league,
        datetime.date(2026, 1, 9),
        ["Ben", "Anna", "Carl", "Dora"],
        [{"Anna": 3, "Ben": -1, "Carl": -1, "Dora": -1}, {"Anna": -1, "Ben": 1, "Carl": 1, "Dora": -1}],
        season=2,
    )
    ended(league)  # as leagues/exchange/paper_import.py closes an evening copied from paper
    anna = by_name(selectors.standings(league=league).all_time)["Anna"]
    assert (anna.total, anna.imported_total, anna.games) == (10 + 2, 10, 2)
    assert anna.average == pytest.approx(1.0)
    first = selectors.standings(league=league, season_number=1)
    assert by_name(first.table)["Dora"].total == 40 and by_name(first.table)["Dora"].average is None
    assert by_name(first.all_time)["Dora"].average == pytest.approx(-1.0)
    assert first.meetings[0].imported_totals and first.meetings[0].winner.name == "Dora"


def test_race_games_rank_by_games_won_and_count_points_across_resets():
    league = LeagueFactory(game="forty_five", variant="bruff")
    played(
        league,
        datetime.date(2026, 1, 9),
        ["Xaver", "Yusuf", "Zoe"],
        [
            {"Xaver": 20, "Yusuf": 10, "Zoe": 15},
            {"Xaver": 25, "Yusuf": 0, "Zoe": 20, "games": {"Xaver": 1}},  # Xaver reaches 45
            # The next game starts from 0: deltas include the reset.
            {"Xaver": -40, "Yusuf": 5, "Zoe": -35, "totals": {"Xaver": 5, "Yusuf": 15, "Zoe": 0}},  # 5, 15, 0 scored
        ],
    )
    # A second evening that stops right after a game: its final score counts once.
    played(
        league,
        datetime.date(2026, 1, 16),
        ["Xaver", "Yusuf", "Zoe"],
        [{"Xaver": 30, "Yusuf": 45, "Zoe": 0, "games": {"Yusuf": 1}}],
    )
    ended(league)
    s = selectors.standings(league=league)
    assert s.race
    rows = by_name(s.table)
    assert rows["Xaver"].games_won == 1
    assert rows["Xaver"].points == 20 + 25 + 5 + 30
    assert rows["Yusuf"].points == 10 + 0 + 15 + 45
    assert rows["Zoe"].points == 15 + 20 + 0 + 0
    # One game each for Xaver and Yusuf: Yusuf has fewer points, so Xaver leads.
    assert [r.player.name for r in s.table] == ["Xaver", "Yusuf", "Zoe"]
    assert [m.winner.name for m in s.meetings] == ["Xaver", "Yusuf"]


def test_the_next_host_is_who_waited_longest_ties_by_last_seat_order():
    league = LeagueFactory()
    played(league, datetime.date(2026, 1, 9), FIVE, [])
    played(league, datetime.date(2026, 2, 13), ["Ben", "Emil", "Dora", "Carl", "Anna"], [])
    rotation = selectors.standings(league=league).rotation
    assert [m.host.name for m in rotation.hosted] == ["Anna", "Ben"]
    # Carl, Dora and Emil never hosted; the last meeting seated Emil, Dora, Carl in that order.
    assert [p.name for p, _ in rotation.due] == ["Emil", "Dora", "Carl"]
    assert rotation.suggested.name == "Emil"
    assert not rotation.complete


def test_after_a_complete_season_the_longest_wait_hosts_first():
    league = LeagueFactory()
    for day, host in enumerate(["Anna", "Ben", "Carl"], 1):
        order = [host] + [n for n in ["Anna", "Ben", "Carl"] if n != host]
        played(league, datetime.date(2026, 1, day), order, [], closed=host == "Carl")
    rotation = selectors.standings(league=league).rotation
    assert rotation.complete
    assert [p.name for p, _ in rotation.due] == ["Anna", "Ben", "Carl"]


def test_an_inactive_player_is_never_due():
    league = LeagueFactory()
    played(league, datetime.date(2026, 1, 9), ["Anna", "Ben", "Carl", "Dora"], [])
    Player.objects.filter(name="Dora").update(active=False)
    rotation = selectors.standings(league=league).rotation
    assert [p.name for p, _ in rotation.due] == ["Ben", "Carl"]


def test_an_empty_league_has_empty_standings():
    league = LeagueFactory()
    s = selectors.standings(league=league)
    assert s.season is None and s.table == [] and s.rotation.due == []


def fill(league, meetings, hands):
    for i in range(meetings):
        seats = FIVE[i % 5 :] + FIVE[: i % 5]
        deals = []
        for h in range(hands):
            active = [n for n in seats if n != seats[h % 5]]
            deals.append({active[0]: 1, active[1]: 1, active[2]: -1, active[3]: -1, "solo": None})
        played(league, datetime.date(2026, 1, 1) + datetime.timedelta(days=7 * i), seats, deals, season=1 + i // 5)


def test_the_chart_shows_the_evenings_of_the_season_so_far():
    league = LeagueFactory()
    fill(league, 12, 3)
    s = selectors.standings(league=league)
    assert len(s.chart["labels"]) == 2  # one point per meeting: the third season has two so far


def test_race_points_match_a_real_replay_of_1000():
    """Against the 1000 engine: points = every finished game's final score plus the game in
    progress, summed over the season's meetings."""
    league = LeagueFactory(game="thousand", variant="koenigsberg")
    user = UserFactory()
    expected = dict.fromkeys(["Anna", "Ben", "Carl"], 0)
    games = dict.fromkeys(expected, 0)
    # Seed 1 ends a game in the middle of the evening; seed 2's evening ends with a game's last hand.
    for day, seed in ((1, 1), (8, 2)):
        meeting = meeting_for(league, ["Anna", "Ben", "Carl"], date=datetime.date(2026, 1, day))
        request = example_request(random.Random(seed), 40, players=["Anna", "Ben", "Carl"])
        for payload in request["hands"]:
            services.enter_hand(meeting=meeting, payload=payload, by=user)
        result = replay.calculate_meeting(meeting)
        ended = {game["hand"] for game in result["games"]}
        for game in result["games"]:
            games[game["winner"]] += game.get("games", 1)
        # Each finished game's final score, and the game still in progress (none when the
        # evening's last hand ended a game).
        for number in ended | {len(result["hands"])}:
            for name, score in result["hands"][number - 1]["totals"].items():
                expected[name] += score
    rows = by_name(selectors.standings(league=league).table)
    assert {n: r.points for n, r in rows.items()} == expected
    assert {n: r.games_won for n, r in rows.items()} == games
