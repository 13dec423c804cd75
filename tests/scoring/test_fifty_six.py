"""56 (shared/spec/fifty-six.md, seed 002): figures worked out by hand from the stake table."""

import pytest

from scoring.errors import ScoringError
from scoring.sitting import calculate

SIX = ["Anna", "Ben", "Carl", "Dora", "Emil", "Fritz"]  # A: Anna, Carl, Emil; B: Ben, Dora, Fritz


def calc(hands, **extra):
    return calculate({"game": "fifty_six", "players": SIX, "hands": hands, **extra})


def problems(hands, **extra):
    with pytest.raises(ScoringError) as info:
        calc(hands, **extra)
    return [(p.hand, p.field) for p in info.value.problems]


def hand(bidder="Anna", bid=28, points=28, double=0, trump="hearts"):
    return {"bidder": bidder, "bid": bid, "trump": trump, "double": double, "bidder_team_points": points}


@pytest.mark.parametrize(
    "bid, points, winner, stake",
    [
        (28, 28, "A", 1),  # 28-39 made: the bidders score 1 (taking exactly the bid is enough)
        (28, 27, "B", 2),  # 28-39 lost: the others score 2
        (39, 56, "A", 1),
        (39, 38, "B", 2),
        (40, 40, "A", 2),  # 40-47: 2 / 3
        (47, 46, "B", 3),
        (48, 50, "A", 3),  # 48-55: 3 / 4
        (55, 0, "B", 4),
        (56, 56, "A", 4),  # 56: 4 / 5
        (56, 55, "B", 5),
    ],
)
def test_the_stake_table_by_bid(bid, points, winner, stake):
    result = calc([hand("Anna", bid, points)])
    figures = result["hands"][0]
    assert (figures["winner_team"], figures["stake"]) == (winner, stake)
    loser = "B" if winner == "A" else "A"
    assert figures["deltas"] == {winner: stake, loser: 0}  # the other team scores nothing


def test_teams_sit_alternately_and_scores_add_up():
    # Ben (team B) bids 40, takes 44 -> B +2; Carl (A) bids 30, takes 20 -> B +2; Emil (A) 28/30 -> A +1.
    result = calc([hand("Ben", 40, 44), hand("Carl", 30, 20), hand("Emil", 28, 30)])
    assert result["parties"] == ["A", "B"]
    assert [h["totals"] for h in result["hands"]] == [{"A": 0, "B": 2}, {"A": 0, "B": 4}, {"A": 1, "B": 4}]
    assert result["totals"] == {"A": 1, "B": 4}
    assert result["winner"] is None


def test_the_deal_passes_counterclockwise_to_the_dealers_right():
    # players[0] deals first, then players[i-1]: Anna, Fritz, Emil; next Dora.
    result = calc([hand()] * 3)
    assert [h["dealer"] for h in result["hands"]] == ["Anna", "Fritz", "Emil"]
    assert result["hands"][0]["active"] == SIX
    assert result["next"] == {"dealer": "Dora", "active": SIX}


def test_named_teams():
    teams = {"Red": ["Anna", "Ben", "Carl"], "Blue": ["Dora", "Emil", "Fritz"]}
    result = calc([hand("Ben", 48, 40)], teams=teams)
    # Ben (Red) bid 48 and took 40: Blue scores 4.
    assert result["parties"] == ["Red", "Blue"]
    assert result["hands"][0]["deltas"] == {"Red": 0, "Blue": 4}


def test_seed_double_doubles_and_redouble_quadruples():
    # Seed 002: "Double … Verdopplung der Punkte", "Re-Double … Vervierfachung".
    # 40 made doubled: 2 x 2 = 4; 48 lost redoubled: 4 x 4 = 16.
    result = calc([hand("Anna", 40, 41, double=1), hand("Ben", 48, 47, double=2)])
    assert [(h["winner_team"], h["stake"]) for h in result["hands"]] == [("A", 4), ("A", 16)]
    assert result["totals"] == {"A": 20, "B": 0}


def test_tournament_double_adds_one_and_redouble_adds_two():
    # 40 made doubled: 2 + 1 = 3; 48 lost redoubled: 4 + 2 = 6.
    result = calc([hand("Anna", 40, 41, double=1), hand("Ben", 48, 47, double=2)], variant="tournament")
    assert [h["stake"] for h in result["hands"]] == [3, 6]


def test_double_and_redouble_are_options():
    result = calc(
        [hand("Anna", 28, 30, double=1), hand("Anna", 28, 30, double=2)], rules={"double": "x3", "redouble": "+4"}
    )
    assert [h["stake"] for h in result["hands"]] == [3, 5]


def test_double_may_be_omitted():
    bare = {"bidder": "Anna", "bid": 28, "trump": "no_trump", "bidder_team_points": 30}
    assert calc([bare])["hands"][0]["stake"] == 1


# --- tables -------------------------------------------------------------------------------


def test_with_tables_the_losers_pay_and_a_team_that_cannot_pay_loses_the_match():
    # tables 3: A 3, B 3.
    # 1: Ben (B) 40 made -> stake 2, A pays 2: A 1, B 5.
    # 2: Ben 28 made -> 1, A pays its last token: A 0, B 6 (paid in full, still in the match).
    # 3: Ben 28 made -> 1, A has 0: pays 0 and loses; B wins the match. Totals A 0, B 6.
    # 4: a new match from 3 each: Anna (A) 28 made -> B pays 1: A 4, B 2; deltas +4 / -4.
    hands = [hand("Ben", 40, 40), hand("Ben", 28, 30), hand("Ben", 28, 30), hand("Anna", 28, 30)]
    result = calc(hands, rules={"tables": 3})
    totals = [h["totals"] for h in result["hands"]]
    assert totals == [{"A": 1, "B": 5}, {"A": 0, "B": 6}, {"A": 0, "B": 6}, {"A": 4, "B": 2}]
    assert [h["deltas"] for h in result["hands"]][:2] == [{"A": -2, "B": 2}, {"A": -1, "B": 1}]
    assert result["hands"][3]["deltas"] == {"A": 4, "B": -4}
    assert [h["match_winner"] for h in result["hands"]] == [None, None, "B", None]
    assert result["winner"] == "B"
    assert result["matches"] == [{"winner": "B", "hand": 3}]


def test_with_tables_a_team_pays_what_it_has():
    # tables 3: Anna (A) bids 56 and takes 50: B wins 5, A has only 3 -> pays 3 and loses.
    result = calc([hand("Anna", 56, 50)], rules={"tables": 3})
    figures = result["hands"][0]
    assert (figures["stake"], figures["paid"]) == (5, 3)
    assert figures["totals"] == {"A": 0, "B": 6}
    assert result["winner"] == "B"


def test_tables_start_the_totals():
    assert calc([], rules={"tables": 12})["totals"] == {"A": 12, "B": 12}
    assert calc([])["totals"] == {"A": 0, "B": 0}


# --- errors -------------------------------------------------------------------------------


def test_every_bad_hand_is_reported():
    hands = [
        hand(bid=27),
        hand(bid=57, points=56),
        hand(points=-1),
        hand(points=57),
        hand(bidder="Zoe"),
        hand(trump="stars"),
        hand(double=3),
        hand(double=True),
        hand(bid="30"),
        {**hand(), "tricks": 5},
        {"bid": 28, "trump": "clubs", "bidder_team_points": 30},
        hand(),
    ]
    assert problems(hands) == [
        (1, "bid"),
        (2, "bid"),
        (3, "bidder_team_points"),
        (4, "bidder_team_points"),
        (5, "bidder"),
        (6, "trump"),
        (7, "double"),
        (8, "double"),
        (9, "bid"),
        (10, "tricks"),
        (11, "bidder"),
    ]


def test_six_players_only():
    with pytest.raises(ScoringError) as info:
        calculate({"game": "fifty_six", "players": SIX[:4], "hands": []})
    assert [(p.hand, p.field) for p in info.value.problems] == [(None, "players")]


def test_two_teams_of_three():
    teams = {"X": ["Anna", "Ben", "Carl", "Dora"], "Y": ["Emil", "Fritz"]}
    assert problems([], teams=teams) == [(None, "teams")]
