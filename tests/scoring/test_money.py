"""The money of an evening (scoring/money.py, docs/rules/money.en.md): figures worked out by hand."""

import pytest

from scoring.errors import ScoringError
from scoring.money import Line, Payment, difference, fewest_transfers, settle_evening

FOUR = ["Anna", "Ben", "Carl", "Dora"]
FIVE = ["Anna", "Ben", "Carl", "Dora", "Emil"]
# A Doppelkopf evening of four: every game's points sum to zero, so the totals do.
TOTALS_FOUR = {"Anna": 7, "Ben": -3, "Carl": 2, "Dora": -6}
# Five at the table, one sits out each game: he scores 0 in it, so the totals still sum to zero.
TOTALS_FIVE = {"Anna": 9, "Ben": -1, "Carl": -5, "Dora": 3, "Emil": -6}


def points(mode, rate, players, totals):
    return settle_evening(rules={"per_point": mode, "rate": rate}, players=players, totals=totals)


def moves(settlement):
    return [(line.payer, line.payee, line.cents) for line in settlement.lines]


def paid(settlement):
    return [(p.payer, p.payee, p.cents) for p in settlement.payments]


# between_players: net = rate x (total - mean); mean 0 in Doppelkopf, so rate x total.


@pytest.mark.parametrize("rate, factor", [(5, 1), (10, 2)])
def test_between_players_four(rate, factor):
    # 5 ct: Anna +35, Ben -15, Carl +10, Dora -30. No debt equals a credit, so the largest
    # debtor pays the largest creditor: Dora -> Anna 30 (Anna +5 left); Ben (-15) -> Carl (+10)
    # 10; now Ben -5 equals Anna +5: Ben -> Anna 5. Three transfers = n - 1. 10 ct: all doubled.
    s = points("between_players", str(rate), FOUR, TOTALS_FOUR)
    assert dict(s.nets) == {"Anna": 35 * factor, "Ben": -15 * factor, "Carl": 10 * factor, "Dora": -30 * factor}
    assert moves(s) == [("Dora", "Anna", 30 * factor), ("Ben", "Carl", 10 * factor), ("Ben", "Anna", 5 * factor)]
    assert paid(s) == moves(s)
    assert s.cashbox == 0
    assert dict(s.lines[0].figures) == {"payer_total": -6, "payee_total": 7, "mean": "0", "rate": str(rate)}


@pytest.mark.parametrize("rate, factor", [(5, 1), (10, 2)])
def test_between_players_five(rate, factor):
    # 5 ct: Anna +45, Ben -5, Carl -25, Dora +15, Emil -30. Emil (largest debtor) -> Anna 30
    # (Anna +15 left); Carl -25 -> Anna 15 (Anna and Dora tie at 15: the earlier seat);
    # Carl -10 -> Dora 10; Ben -5 = Dora +5: Ben -> Dora 5. Four transfers = n - 1.
    s = points("between_players", str(rate), FIVE, TOTALS_FIVE)
    assert dict(s.nets) == {k: v * 5 * factor for k, v in TOTALS_FIVE.items()}
    assert moves(s) == [
        ("Emil", "Anna", 30 * factor),
        ("Carl", "Anna", 15 * factor),
        ("Carl", "Dora", 10 * factor),
        ("Ben", "Dora", 5 * factor),
    ]


@pytest.mark.parametrize("rate, expected", [(5, [50, 25, 65]), (10, [100, 50, 130])])
def test_cashbox_difference_four(rate, expected):
    # Best total 7 (Anna, pays nothing). Ben 7-(-3)=10 points, Carl 5, Dora 13, times the rate.
    s = points("cashbox_difference", str(rate), FOUR, TOTALS_FOUR)
    assert moves(s) == [(p, None, c) for p, c in zip(["Ben", "Carl", "Dora"], expected, strict=True)]
    assert s.cashbox == sum(expected)
    assert dict(s.nets) == {"Anna": 0, "Ben": -expected[0], "Carl": -expected[1], "Dora": -expected[2]}
    assert dict(s.lines[0].figures) == {"total": -3, "best": 7, "rate": str(rate)}


@pytest.mark.parametrize("rate, expected", [(5, [50, 70, 30, 75]), (10, [100, 140, 60, 150])])
def test_cashbox_difference_five(rate, expected):
    # Best 9 (Anna). Ben 10 points, Carl 14, Dora 6, Emil 15: 225 cents at 5 ct, 450 at 10 ct.
    s = points("cashbox_difference", str(rate), FIVE, TOTALS_FIVE)
    assert moves(s) == [(p, None, c) for p, c in zip(["Ben", "Carl", "Dora", "Emil"], expected, strict=True)]
    assert s.cashbox == sum(expected) == 225 * rate // 5
    assert paid(s) == moves(s)


@pytest.mark.parametrize("rate", [5, 10])
def test_cashbox_minus(rate):
    # Only the negative totals pay: four players Ben 3 and Dora 6 points (45 ct at 5 ct);
    # five players Ben 1, Carl 5, Emil 6 points (60 ct at 5 ct). Winners pay nothing.
    four = points("cashbox_minus", str(rate), FOUR, TOTALS_FOUR)
    assert moves(four) == [("Ben", None, 3 * rate), ("Dora", None, 6 * rate)]
    assert four.cashbox == 9 * rate
    assert dict(four.lines[1].figures) == {"total": -6, "rate": str(rate)}
    five = points("cashbox_minus", str(rate), FIVE, TOTALS_FIVE)
    assert moves(five) == [("Ben", None, 1 * rate), ("Carl", None, 5 * rate), ("Emil", None, 6 * rate)]
    assert five.cashbox == 12 * rate


def test_between_players_rounds_by_largest_remainder():
    # 2.5 ct a point: +7.5, -2.5, -2.5, -2.5 cents. Rounded down 7, -3, -3, -3 (sum -2); the two
    # cents left go to the largest remainders (all .5, so the first in seat order): Anna 8, Ben -2.
    s = points("between_players", "2.5", FOUR, {"Anna": 3, "Ben": -1, "Carl": -1, "Dora": -1})
    assert dict(s.nets) == {"Anna": 8, "Ben": -2, "Carl": -3, "Dora": -3}
    assert sum(s.nets.values()) == 0


def test_between_players_against_the_mean_in_1000():
    # 1000's totals don't sum to zero: 1020 + 640 + 380 = 2040, mean 680. At 0.1 ct a point:
    # Anna +34, Ben -4, Carl -30. Carl -> Anna 30, Ben -> Anna 4.
    s = points("between_players", "0.1", ["Anna", "Ben", "Carl"], {"Anna": 1020, "Ben": 640, "Carl": 380})
    assert dict(s.nets) == {"Anna": 34, "Ben": -4, "Carl": -30}
    assert moves(s) == [("Carl", "Anna", 30), ("Ben", "Anna", 4)]
    assert s.lines[0].figures["mean"] == "680"


def test_cashbox_payment_rounds_half_up():
    # 2.5 ct x 3 minus points = 7.5 -> 8; 2.5 x 1 = 2.5 -> 3.
    s = points("cashbox_minus", "2.5", ["Anna", "Ben", "Carl"], {"Anna": 4, "Ben": -3, "Carl": -1})
    assert moves(s) == [("Ben", None, 8), ("Carl", None, 3)]


# The seed's stakes (000, the Maw family): 20 cents a game, 2 euros a robber (first to 3 games).
SEED_STAKES = {"per_game": 20, "per_match": 200}
AC, BD = ["Anna", "Carl"], ["Ben", "Dora"]  # partners sit opposite


def game(winners, losers):
    return {"winners": winners, "losers": losers}


def test_forty_five_in_teams():
    # Robber 1: AC, BD, AC, AC (3-1); robber 2: BD, BD, AC, BD (1-3); robber 3: AC, AC, AC.
    # Games: AC won 7, BD 4; each member: 20 x (7 - 4) = +60 for AC. Robbers: AC 2, BD 1:
    # +200. Anna and Carl +260 each, Ben and Dora -260; Ben's debt equals Anna's credit, so
    # Ben -> Anna 260 and Dora -> Carl 260.
    order = "ABAA" + "BBAB" + "AAA"
    games = [game(AC, BD) if w == "A" else game(BD, AC) for w in order]
    matches = [game(AC, BD), game(BD, AC), game(AC, BD)]
    s = settle_evening(rules=SEED_STAKES, players=FOUR, games=games, matches=matches)
    assert dict(s.nets) == {"Anna": 260, "Ben": -260, "Carl": 260, "Dora": -260}
    assert paid(s) == [("Ben", "Anna", 260), ("Dora", "Carl", 260)]
    assert len(s.lines) == 2 * 11 + 2 * 3  # each loser pays one winner per game and per robber
    assert s.lines[0] == Line("Ben", "Anna", 20, "game", {"number": 1, "stake": 20, "winners": 2, "losers": 2})
    assert s.lines[-1].reason == "match" and s.lines[-1].cents == 200


def test_forty_five_stakes_into_the_cashbox():
    # The same evening with the game stakes into the cashbox: Anna and Carl lost 4 games (80
    # ct each), Ben and Dora 7 (140 each): 440 ct. The robbers still go to the winners.
    order = "ABAA" + "BBAB" + "AAA"
    games = [game(AC, BD) if w == "A" else game(BD, AC) for w in order]
    matches = [game(AC, BD), game(BD, AC), game(AC, BD)]
    s = settle_evening(rules={**SEED_STAKES, "per_game_to": "cashbox"}, players=FOUR, games=games, matches=matches)
    assert s.cashbox == 440
    assert dict(s.nets) == {"Anna": 200 - 80, "Ben": -200 - 140, "Carl": 200 - 80, "Dora": -200 - 140}
    assert paid(s) == [
        ("Ben", "Anna", 200),
        ("Dora", "Carl", 200),
        *[(p, None, c) for p, c in [("Anna", 80), ("Ben", 140), ("Carl", 80), ("Dora", 140)]],
    ]


def test_forty_five_cut_throat():
    # Three each for himself; games won by Anna, Anna, Ben, Carl, Anna: the winner takes 20
    # from each of the two others. Anna 3 x 40 - 2 x 20 = +80, Ben 40 - 4 x 20 = -40, Carl
    # -40. Anna wins the robber (3 games): 2 euros from each: Anna +480, Ben and Carl -240.
    three = ["Anna", "Ben", "Carl"]
    games = [game([w], [p for p in three if p != w]) for w in ["Anna", "Anna", "Ben", "Carl", "Anna"]]
    s = settle_evening(rules=SEED_STAKES, players=three, games=games, matches=[game(["Anna"], ["Ben", "Carl"])])
    assert dict(s.nets) == {"Anna": 480, "Ben": -240, "Carl": -240}
    assert paid(s) == [("Ben", "Anna", 240), ("Carl", "Anna", 240)]


def test_a_pot_split_among_winners_odd_cent_to_the_first_seat():
    # Three losers pay 25 each: a pot of 75 for two winners, 37.5 each: Ben (earlier seat) 38,
    # Dora 37. The losers fill the winners in seat order: Anna 25 -> Ben, Carl 13 -> Ben and
    # 12 -> Dora, Emil 25 -> Dora.
    s = settle_evening(rules={"per_game": 25}, players=FIVE, games=[game(["Dora", "Ben"], ["Emil", "Anna", "Carl"])])
    assert moves(s) == [("Anna", "Ben", 25), ("Carl", "Ben", 13), ("Carl", "Dora", 12), ("Emil", "Dora", 25)]
    assert dict(s.nets) == {"Anna": -25, "Ben": 38, "Carl": -25, "Dora": 37, "Emil": -25}


def test_a_game_without_winners_costs_nothing():
    s = settle_evening(rules={"per_game": 20}, players=FOUR, games=[game([], FOUR), game(FOUR, [])])
    assert s.lines == () and s.payments == ()


def test_fees():
    # Evening fee 3 euros from each of the four who came (Emil is a guest); lost solos 50 ct
    # each: Ben lost 2, Dora 1; Carl forgot the pennant: 5 euros. Cashbox 1200 + 150 + 500.
    rules = {"per_evening": 300, "per_lost_solo": 50, "per_missed_pennant": 500}
    s = settle_evening(
        rules=rules, players=FIVE, attended=FOUR, lost_solos={"Ben": 2, "Dora": 1, "Anna": 0}, missed_pennant="Carl"
    )
    assert s.cashbox == 1850
    assert [(line.payer, line.cents, line.reason) for line in s.lines] == [
        *[(p, 300, "evening fee") for p in FOUR],
        ("Ben", 100, "lost solo"),
        ("Dora", 50, "lost solo"),
        ("Carl", 500, "missed pennant"),
    ]
    assert dict(s.lines[4].figures) == {"solos": 2, "fee": 50}
    assert paid(s) == [("Anna", None, 300), ("Ben", None, 400), ("Carl", None, 800), ("Dora", None, 350)]
    assert s.nets["Emil"] == 0


def test_fees_with_points_between_players():
    # Points settle between the players, fees go into the cashbox: two kinds of payment.
    s = settle_evening(
        rules={"per_point": "between_players", "rate": 5, "per_evening": 200}, players=FOUR, totals=TOTALS_FOUR
    )
    assert paid(s) == [
        ("Dora", "Anna", 30),
        ("Ben", "Carl", 10),
        ("Ben", "Anna", 5),
        *[(p, None, 200) for p in FOUR],
    ]
    assert dict(s.nets) == {"Anna": 35 - 200, "Ben": -15 - 200, "Carl": 10 - 200, "Dora": -30 - 200}


def test_correction_into_the_cashbox():
    # Difference to the best at 10 ct: Ben 100, Carl 50, Dora 130 (paid). A hand corrected
    # moves 2 points from Ben to Dora: Ben -1 (80), Dora -8 (150). The cashbox pays Ben back
    # 20, Dora pays 20 more; the paid lines stay as they were.
    old = points("cashbox_difference", "10", FOUR, TOTALS_FOUR)
    new = points("cashbox_difference", "10", FOUR, {**TOTALS_FOUR, "Ben": -1, "Dora": -8})
    fix = difference(old=old, new=new)
    assert moves(fix) == [(None, "Ben", 20), ("Dora", None, 20)]
    assert {line.reason for line in fix.lines} == {"correction"}
    assert dict(fix.lines[0].figures) == {"was": 100, "now": 80}
    assert fix.cashbox == 0
    assert paid(fix) == [(None, "Ben", 20), ("Dora", None, 20)]


def test_correction_between_players():
    # 5 ct: old nets +35, -15, +10, -30; corrected Ben -1, Dora -8: +35, -5, +10, -40. Ben is
    # owed 10 more, Dora owes 10 more: Dora -> Ben 10 on top of what was paid.
    old = points("between_players", "5", FOUR, TOTALS_FOUR)
    new = points("between_players", "5", FOUR, {**TOTALS_FOUR, "Ben": -1, "Dora": -8})
    fix = difference(old=old, new=new)
    assert moves(fix) == [("Dora", "Ben", 10)]
    assert dict(fix.lines[0].figures) == {"payer_was": -30, "payer_now": -40, "payee_was": -15, "payee_now": -5}
    assert dict(fix.nets) == {"Anna": 0, "Ben": 10, "Carl": 0, "Dora": -10}


def test_no_correction_when_nothing_changed():
    s = points("between_players", "5", FOUR, TOTALS_FOUR)
    assert difference(old=s, new=s).lines == ()


def test_equal_debts_and_credits_settle_each_other_first():
    # Largest to largest alone: Anna 8 -> Emil, Ben 7 -> Dora, Carl 1 -> Dora, Carl 1 -> Emil
    # (four). Anna's 8 equals Dora's 8: Anna -> Dora 8, Ben 7 -> Emil, Carl 2 -> Emil (three).
    assert fewest_transfers([-8, -7, -2, 8, 9], FIVE) == [("Anna", "Dora", 8), ("Ben", "Emil", 7), ("Carl", "Emil", 2)]


def test_settlement_is_immutable():
    s = points("between_players", "5", FOUR, TOTALS_FOUR)
    with pytest.raises(AttributeError):
        s.cashbox = 1
    with pytest.raises(TypeError):
        s.nets["Anna"] = 0
    with pytest.raises(TypeError):
        s.lines[0].figures["rate"] = "1"
    assert isinstance(s.payments[0], Payment)


def problems(**kwargs):
    with pytest.raises(ScoringError) as info:
        settle_evening(**kwargs)
    return [(p.field, p.render()) for p in info.value.problems]


def test_bad_facts_are_reported_together_naming_the_field():
    found = problems(
        rules={"per_point": "cashbox_minus", "per_game": 20},
        players=FOUR,
        totals={"Anna": 1},
        games=[game(["Anna"], ["Anna"]), game(["Zoe"], ["Ben"])],
        matches="x",
        lost_solos={"Ben": -1},
        attended=["Anna", "Anna"],
        missed_pennant="Zoe",
    )
    assert [f for f, _ in found] == ["totals", "games", "games", "matches", "lost_solos", "attended", "missed_pennant"]
    assert found[1][1].startswith("Number 1:") and found[2][1].startswith("Number 2:")


def test_bad_players_and_rules():
    assert [f for f, _ in problems(rules={}, players=["Anna", "Anna"])] == ["players"]
    assert [f for f, _ in problems(rules={}, players=[])] == ["players"]
    assert problems(rules={"per_point": "everyone"}, players=FOUR) == [
        ("rules", "Rule option “per_point” is not one of the allowed values.")
    ]


def test_totals_are_needed_only_for_money_per_point():
    assert settle_evening(rules={}, players=FOUR).lines == ()
    assert [f for f, _ in problems(rules={"per_point": "between_players"}, players=FOUR)] == ["totals"]
