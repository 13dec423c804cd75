"""A Doppelkopf hand as the scorekeeper entered it: a result chip is a bracket of Re's eyes
(``re_eyes_range`` beside the figure it is scored with), and a Ramsch entered by its chips
names who has the most eyes, their bracket and the Jungfrauen, without eyes or tricks for
anybody (doppelkopf.md, "Who wins", "Game value" and "Ramsch"; figures worked out by hand).

Either way the score is the one the figures the form used to invent gave: every figure of a
bracket scores the same."""

from __future__ import annotations

from itertools import combinations

import pytest

from tests.scoring.test_doppelkopf_support import FOUR, errors, game, items, one, run

# --- a result chip: Re's eyes as a bracket ----------------------------------------------------


def test_a_bracket_of_res_eyes_scores_as_its_figure():
    # "121+" for Re with re announced: gewonnen 1, Re 2 (doppelkopf.md, game value) = 3 each,
    # exactly as 121 eyes entered without the bracket.
    chip = one([game(["Anna", "Ben"], 121, "re:re", re_eyes_range=[121, 150])])
    plain = one([game(["Anna", "Ben"], 121, "re:re")])
    assert chip["deltas"] == plain["deltas"] == {"Anna": 3, "Ben": 3, "Carl": -3, "Dora": -3}
    # "<90" (60–89): Kontra wins with 151–180 eyes, Re under 90: 1 + 1 = 2 (+1 gegen die Alten).
    assert one([game(["Anna", "Ben"], 89, re_eyes_range=[60, 89])])["deltas"]["Carl"] == 3


@pytest.mark.parametrize(
    "eyes, bracket",
    [
        (121, [90, 130]),  # across 120 : 121, where the winner changes
        (150, [121, 151]),  # across 151, where Re's keine 90 is made
        (29, [0, 29]),  # 0 eyes is no trick (schwarz), 1 to 29 is not
        (130, [121, 129.5]),  # not whole numbers
        (130, [121]),  # not two numbers
        (130, "121+"),
        (130, [140, 150]),  # the figure scored is not in it
        (130, [150, 121]),  # the wrong way round
        (240, [211, 241]),  # beyond the 240 eyes of the game
    ],
)
def test_a_bracket_must_hold_the_figure_and_score_alike_throughout(eyes, bracket):
    assert errors([game(["Anna", "Ben"], eyes, re_eyes_range=bracket)]) == [(1, "re_eyes_range")]


def test_a_bracket_of_one_figure_is_that_figure():
    assert one([game(["Anna", "Ben"], 120, re_eyes_range=[120, 120])])["winner"] == "kontra"


def test_a_bracket_belongs_to_a_game_with_parties_only():
    ramsch = {"kind": "revoke", "revoke_by": "Anna", "re_eyes_range": [121, 150]}
    assert errors([ramsch]) == [(1, "re_eyes_range")]


# --- Ramsch by its chips ----------------------------------------------------------------------


def _in_ramsch(hand):
    # Game 1 120:120 -> Bock; game 2 (Bock) 120:120 -> Ramsch; games 3-5 Bock; Ramsch from game 6.
    hands = [game(["Anna", "Ben"], 120), game(["Anna", "Ben"], 120)] + [game(["Anna", "Ben"], 130)] * 3 + [hand]
    return run(hands)["hands"][-1]


def _errors_in_ramsch(hand):
    hands = [game(["Anna", "Ben"], 120), game(["Anna", "Ben"], 120)] + [game(["Anna", "Ben"], 130)] * 3
    return errors(hands + [hand])


def chips(losers, lo, hi, jungfrauen=None):
    hand = {"kind": "ramsch", "losers": list(losers), "loser_eyes": [lo, hi]}
    if jungfrauen is not None:
        hand["jungfrauen"] = list(jungfrauen)
    return hand


def test_the_loser_pays_three_times_p_of_his_bracket_and_a_jungfrau_doubles():
    # Anna has the most, 90–119: P = 3; Dora took no trick: P = 6. Anna −18, the others +6.
    hand = _in_ramsch(chips(["Anna"], 90, 119, ["Dora"]))
    assert hand["value"] == 6 and hand["winner"] is None
    assert hand["deltas"] == {"Anna": -18, "Ben": 6, "Carl": 6, "Dora": 6}
    assert items(hand) == {"90–119 Augen": 3, "Jungfrau (Dora)": 3}


def test_tied_losers_each_pay_every_other_player():
    # Anna and Ben level with 90–119: P = 3, Dora Jungfrau 6; k = 2: −6·2 and +6·2.
    hand = _in_ramsch(chips(["Anna", "Ben"], 90, 119, ["Dora"]))
    assert hand["deltas"] == {"Anna": -12, "Ben": -12, "Carl": 12, "Dora": 12}


def test_all_the_eyes_and_everyone_else_without_a_trick_is_a_durchmarsch():
    hand = _in_ramsch(chips(["Anna"], 240, 240, ["Ben", "Carl", "Dora"]))
    assert hand["value"] == 8 and hand["deltas"] == {"Anna": 24, "Ben": -8, "Carl": -8, "Dora": -8}
    assert hand["triggers"] == ["durchmarsch"]


def test_all_the_eyes_while_the_others_took_a_trick_is_no_durchmarsch():
    # The others took tricks of no eyes (four nines): Anna 240 eyes loses, P = 8.
    hand = _in_ramsch(chips(["Anna"], 240, 240))
    assert hand["deltas"] == {"Anna": -24, "Ben": 8, "Carl": 8, "Dora": 8} and hand["triggers"] == []


@pytest.mark.parametrize(
    "hand, field",
    [
        # Anna alone with at most 89 and Ben and Carl without a trick: Dora would have 151.
        (chips(["Anna"], 60, 89, ["Ben", "Carl"]), "loser_eyes"),
        (chips(["Anna"], 60, 100), "loser_eyes"),  # two values of P
        (chips(["Anna"], 90, 119, ["Anna"]), "jungfrauen"),  # the loser took tricks
        (chips(["Anna", "Anna"], 90, 119), "losers"),
        (chips(["Emil"], 90, 119), "losers"),  # not at the table
        (chips([], 90, 119), "losers"),
        (chips(["Anna"], 90, 119, ["Zoe"]), "jungfrauen"),
        ({"kind": "ramsch", "losers": ["Anna"]}, "loser_eyes"),
        ({"kind": "ramsch", "loser_eyes": [90, 119]}, "losers"),
        ({**chips(["Anna"], 90, 119), "eyes": dict.fromkeys(FOUR, 60)}, "losers"),  # both ways at once
    ],
)
def test_ramsch_chips_that_cannot_be_are_an_error_on_their_field(hand, field):
    assert (6, field) in _errors_in_ramsch(hand)


def _invented(losers, lo, hi, jungfrauen):
    """Eyes and tricks as the entry form used to invent them from the chips (static/js/dk-entry.js,
    before it kept the chips): the least figure of the bracket the others can make up, a trick
    each for everyone not a Jungfrau. None where it found none."""
    others = [n for n in FOUR if n not in losers and n not in jungfrauen]
    k, m = len(losers), len(others)
    figure = next(
        (
            x
            for x in range(lo, hi + 1)
            if 240 - k * x >= 0 and (240 - k * x == 0 if m == 0 else 240 - k * x <= m * (x - 1))
        ),
        None,
    )
    if figure is None:
        return None
    rest, left = 240 - k * figure, 12 - (k + m)
    eyes, tricks = dict.fromkeys(FOUR, 0), dict.fromkeys(FOUR, 0)
    given_out = 0
    for i, name in enumerate(others):
        eyes[name] = rest // m + (1 if i < rest % m else 0)
        extra = max(0, min(left - given_out, eyes[name] // 30))
        tricks[name] = 1 + extra
        given_out += extra
    left -= given_out
    for i, name in enumerate(losers):
        eyes[name] = figure
        tricks[name] = 1 + left // k + (1 if i < left % k else 0)
    return {"kind": "ramsch", "eyes": eyes, "tricks": tricks}


BRACKETS = [(60, 89), (90, 119), (120, 149), (150, 179), (180, 209), (210, 239), (240, 240)]


def _every_set_of_chips():
    for k in range(1, len(FOUR) + 1):
        for losers in combinations(FOUR, k):
            rest = [name for name in FOUR if name not in losers]
            for bracket in BRACKETS:
                for j in range(len(rest) + 1):
                    for jungfrauen in combinations(rest, j):
                        yield list(losers), bracket, list(jungfrauen)


def test_the_chips_score_what_the_invented_figures_scored():
    # Keeping the chips changes no score: for every set of chips (who has the most eyes, their
    # bracket, the Jungfrauen), wherever the form found figures the hand of chips scores
    # exactly those figures' points, and where it found none it is an error.
    possible = 0
    for losers, bracket, jungfrauen in _every_set_of_chips():
        invented = _invented(losers, *bracket, jungfrauen)
        hand = chips(losers, *bracket, jungfrauen)
        if invented is None:
            assert (6, "loser_eyes") in _errors_in_ramsch(hand), hand
            continue
        possible += 1
        as_chips, as_figures = _in_ramsch(hand), _in_ramsch(invented)
        for key in ("deltas", "value", "triggers", "winner"):
            assert as_chips[key] == as_figures[key], (hand, key)
    assert possible > 100
