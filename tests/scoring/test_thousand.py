"""1000 (shared/spec/thousand.md, seed 001): figures worked out by hand from the spec and seed."""

import pytest

from scoring.errors import ScoringError
from scoring.sitting import calculate

THREE = ["Anna", "Ben", "Carl"]
FOUR = ["Anna", "Ben", "Carl", "Dora"]


def calc(hands, players=THREE, **extra):
    return calculate({"game": "thousand", "players": players, "hands": hands, **extra})


def problems(hands, players=THREE, **extra):
    with pytest.raises(ScoringError) as info:
        calc(hands, players, **extra)
    return [(p.hand, p.field) for p in info.value.problems]


# --- the seed's worked example: bid 30 raised to 60 after the widow, contract 160 -----------


def test_seed_215_with_a_bid_raised_to_60_wins_160():
    # Seed 001 "Das Anschreiben": raised to 60, 215 points with marriages -> + 160.
    # Ben: 115 card points + clubs marriage 100 = 215 >= 160 -> +160.
    # Anna 3 card points -> rounded to 5; Carl 2 -> rounded to 0.
    result = calc(
        [{"declarer": "Ben", "bid": 60, "points": {"Anna": 3, "Ben": 115, "Carl": 2}, "marriages": {"Ben": ["clubs"]}}]
    )
    hand = result["hands"][0]
    assert hand["contract"] == 160
    assert hand["made"] is True
    assert hand["deltas"] == {"Anna": 5, "Ben": 160, "Carl": 0}
    assert result["totals"] == {"Anna": 5, "Ben": 160, "Carl": 0}


def test_seed_155_with_a_contract_of_160_loses_160():
    # Seed 001: "wenn er mit gemeldeten Pärchen nur 155 Punkte erreicht, muss er 160 abziehen".
    # Ben 55 + clubs 100 = 155 < 160 -> -160. Anna 40 -> 40, Carl 25 -> 25.
    result = calc(
        [{"declarer": "Ben", "bid": 60, "points": {"Anna": 40, "Ben": 55, "Carl": 25}, "marriages": {"Ben": ["clubs"]}}]
    )
    hand = result["hands"][0]
    assert (hand["contract"], hand["made"]) == (160, False)
    assert hand["deltas"] == {"Anna": 40, "Ben": -160, "Carl": 25}


@pytest.mark.parametrize("card_points", [58, 59])
def test_158_or_159_fail_a_contract_of_160_because_it_is_judged_before_rounding(card_points):
    # Seed 001 "Achtung": 158 or 159 before rounding do not make 60 (+100); -160.
    # The others share 120 - card_points: 62 or 61 -> Anna 30 -> 30, Carl 32/31 -> 30.
    carl = 120 - card_points - 30
    result = calc(
        [
            {
                "declarer": "Ben",
                "bid": 60,
                "points": {"Anna": 30, "Ben": card_points, "Carl": carl},
                "marriages": {"Ben": ["clubs"]},
            }
        ]
    )
    hand = result["hands"][0]
    assert hand["made"] is False
    assert hand["deltas"] == {"Anna": 30, "Ben": -160, "Carl": 30}


def test_exactly_the_contract_is_made():
    # "made when T >= contract": 60 + clubs 100 = 160 against 160 -> +160; Anna 30, Carl 30.
    result = calc(
        [{"declarer": "Ben", "bid": 60, "points": {"Anna": 30, "Ben": 60, "Carl": 30}, "marriages": {"Ben": ["clubs"]}}]
    )
    assert result["hands"][0]["made"] is True
    assert result["hands"][0]["deltas"] == {"Anna": 30, "Ben": 160, "Carl": 30}


# --- the others' rounding ------------------------------------------------------------------


def test_the_others_round_to_the_nearest_five_52_down_53_up():
    # thousand.md: "52 -> 50, 53 -> 55". Anna forced (bid 0, contract 100) with 15 -> -100.
    result = calc([{"declarer": "Anna", "bid": 0, "points": {"Anna": 15, "Ben": 52, "Carl": 53}}])
    hand = result["hands"][0]
    assert (hand["contract"], hand["made"]) == (100, False)
    assert hand["deltas"] == {"Anna": -100, "Ben": 50, "Carl": 55}


def test_a_tie_rounds_up_with_an_even_round_to():
    # round_to 10: 55 -> 60 (a tie rounds up), 54 -> 50. Anna forced, 11 points -> -100.
    result = calc(
        [{"declarer": "Anna", "bid": 0, "points": {"Anna": 11, "Ben": 55, "Carl": 54}}], rules={"round_to": 10}
    )
    assert result["hands"][0]["deltas"] == {"Anna": -100, "Ben": 60, "Carl": 50}


def test_a_defenders_marriage_counts_and_is_rounded_with_his_card_points():
    # Ben 22 + hearts 60 = 82 -> 80. Carl declarer bid 0: 68 card points + spades 80 = 148 >= 100 -> +100.
    result = calc(
        [
            {
                "declarer": "Carl",
                "bid": 0,
                "points": {"Anna": 30, "Ben": 22, "Carl": 68},
                "marriages": {"Ben": ["hearts"], "Carl": ["spades"]},
            }
        ]
    )
    assert result["hands"][0]["deltas"] == {"Anna": 30, "Ben": 80, "Carl": 100}


# --- all tricks, forgot to pass, marriage values --------------------------------------------


def test_all_tricks_double_the_declarers_card_points():
    # "durch": 120 x 2 = 240 + spades 80 = 320; bid 220 -> contract 320 made -> +320; others 0.
    result = calc(
        [
            {
                "declarer": "Carl",
                "bid": 220,
                "points": {"Anna": 0, "Ben": 0, "Carl": 120},
                "marriages": {"Carl": ["spades"]},
                "all_tricks": True,
            }
        ]
    )
    hand = result["hands"][0]
    assert (hand["contract"], hand["made"]) == (320, True)
    assert hand["deltas"] == {"Anna": 0, "Ben": 0, "Carl": 320}


def test_without_all_tricks_the_same_hand_fails():
    # 120 + 80 = 200 < 320 -> -320.
    result = calc(
        [
            {
                "declarer": "Carl",
                "bid": 220,
                "points": {"Anna": 0, "Ben": 0, "Carl": 120},
                "marriages": {"Carl": ["spades"]},
            }
        ]
    )
    assert result["hands"][0]["deltas"] == {"Anna": 0, "Ben": 0, "Carl": -320}


def test_forgot_to_pass_costs_the_penalty_and_nobody_else_scores():
    # Seed 001: "werden ihm 240 Punkte abgezogen. Die Gegenspieler erhalten keine Punkte".
    result = calc([{"declarer": "Ben", "bid": 10, "forgot_to_pass": True}])
    hand = result["hands"][0]
    assert (hand["contract"], hand["made"]) == (110, False)
    assert hand["deltas"] == {"Anna": 0, "Ben": -240, "Carl": 0}


def test_forgot_to_pass_penalty_is_an_option():
    result = calc([{"declarer": "Ben", "bid": 10, "forgot_to_pass": True}], rules={"forgot_to_pass_penalty": 100})
    assert result["hands"][0]["deltas"]["Ben"] == -100


def test_pagat_marriage_values_and_bids_from_100():
    # pagat: hearts 100, clubs 60, bid_offset 0. Anna bid 150 (contract 150): 80 + clubs 60 = 140 -> -150.
    # Ben 20 + hearts 100 = 120 -> 120; Carl 20 -> 20.
    result = calc(
        [
            {
                "declarer": "Anna",
                "bid": 150,
                "points": {"Anna": 80, "Ben": 20, "Carl": 20},
                "marriages": {"Anna": ["clubs"], "Ben": ["hearts"]},
            }
        ],
        variant="pagat",
    )
    hand = result["hands"][0]
    assert (hand["contract"], hand["made"]) == (150, False)
    assert hand["deltas"] == {"Anna": -150, "Ben": 120, "Carl": 20}


def test_marriage_values_are_an_option():
    # Overridden diamonds 50: Anna 57 + diamonds 50 = 107 >= contract 105 (bid 5) -> +105.
    values = {"clubs": 100, "spades": 80, "hearts": 60, "diamonds": 50}
    result = calc(
        [
            {
                "declarer": "Anna",
                "bid": 5,
                "points": {"Anna": 57, "Ben": 33, "Carl": 30},
                "marriages": {"Anna": ["diamonds"]},
            }
        ],
        rules={"marriage_values": values},
    )
    assert result["hands"][0]["deltas"] == {"Anna": 105, "Ben": 35, "Carl": 30}


def test_bid_step_and_offset_are_options():
    # bid_step 10, bid_offset 50: bid 60 -> contract 110; bid 55 is not a multiple of 10;
    # the smallest bid is 50 (contract 100).
    hand = {"declarer": "Anna", "bid": 60, "points": {"Anna": 110, "Ben": 5, "Carl": 5}}
    result = calc([hand], rules={"bid_step": 10, "bid_offset": 50})
    assert result["hands"][0]["contract"] == 110
    assert result["hands"][0]["deltas"] == {"Anna": 110, "Ben": 5, "Carl": 5}
    assert problems([{**hand, "bid": 55}, {**hand, "bid": 40}], rules={"bid_step": 10, "bid_offset": 50}) == [
        (1, "bid"),
        (2, "bid"),
    ]


# --- four players, dealer rotation ----------------------------------------------------------


def test_with_four_the_dealer_sits_out_and_the_deal_passes_clockwise():
    hands = [
        {"declarer": "Ben", "bid": 0, "points": {"Ben": 100, "Carl": 10, "Dora": 10}},
        {"declarer": "Carl", "bid": 0, "points": {"Anna": 10, "Carl": 100, "Dora": 10}},
    ]
    result = calc(hands, FOUR)
    first, second = result["hands"]
    assert (first["dealer"], first["active"]) == ("Anna", ["Ben", "Carl", "Dora"])
    assert first["deltas"] == {"Anna": 0, "Ben": 100, "Carl": 10, "Dora": 10}
    assert (second["dealer"], second["active"]) == ("Ben", ["Anna", "Carl", "Dora"])
    assert result["totals"] == {"Anna": 10, "Ben": 100, "Carl": 110, "Dora": 20}
    assert result["next"] == {"dealer": "Carl", "active": ["Anna", "Ben", "Dora"]}


def test_with_three_everyone_plays_and_the_deal_rotates():
    result = calc([{"declarer": "Ben", "bid": 0, "points": {"Anna": 10, "Ben": 100, "Carl": 10}}] * 4)
    assert [h["dealer"] for h in result["hands"]] == ["Anna", "Ben", "Carl", "Anna"]
    assert result["hands"][0]["active"] == THREE
    assert result["next"] == {"dealer": "Ben", "active": THREE}


def test_the_sitting_out_dealer_cannot_declare_or_take_points():
    bad = {"declarer": "Anna", "bid": 0, "points": {"Anna": 100, "Carl": 10, "Dora": 10}}
    assert problems([bad], FOUR) == [(1, "declarer"), (1, "points"), (1, "points")]


def test_an_empty_sitting_starts_from_the_start_totals():
    result = calc([], start_totals={"Ben": 300})
    assert result["totals"] == {"Anna": 0, "Ben": 300, "Carl": 0}
    assert result["winner"] is None
    assert result["next"] == {"dealer": "Anna", "active": THREE}


# --- target, winner, new game ---------------------------------------------------------------


def test_passing_the_target_wins_and_the_next_hand_starts_a_new_game():
    # Start 950/990/900. Anna bid 10 (110): 70 + clubs 100 = 170 -> 1060; Ben 30 -> 1020;
    # Carl 20 -> 920. Both above 1000: the higher total, Anna, wins; totals show final scores.
    # Hand 2 starts from 0: Carl forced 100 card points -> +100; Anna 10, Ben 10.
    hands = [
        {
            "declarer": "Anna",
            "bid": 10,
            "points": {"Anna": 70, "Ben": 30, "Carl": 20},
            "marriages": {"Anna": ["clubs"]},
        },
        {"declarer": "Carl", "bid": 0, "points": {"Anna": 10, "Ben": 10, "Carl": 100}},
    ]
    result = calc(hands, start_totals={"Anna": 950, "Ben": 990, "Carl": 900})
    first, second = result["hands"]
    assert first["totals"] == {"Anna": 1060, "Ben": 1020, "Carl": 920}
    assert first["game_winner"] == "Anna"
    assert second["totals"] == {"Anna": 10, "Ben": 10, "Carl": 100}
    # deltas: the net change of the totals, resets included (calculate-api.md)
    assert second["deltas"] == {"Anna": -1050, "Ben": -1010, "Carl": -820}
    assert second["scored"] == {"Anna": 10, "Ben": 10, "Carl": 100}
    assert result["winner"] == "Anna"
    assert result["games"] == [{"winner": "Anna", "hand": 1}]


def test_exactly_the_target_is_not_a_win():
    # "a player wins with more than this": Ben 980 + 20 = 1000 is not above 1000.
    result = calc(
        [{"declarer": "Anna", "bid": 0, "points": {"Anna": 100, "Ben": 20, "Carl": 0}}], start_totals={"Ben": 980}
    )
    assert result["totals"]["Ben"] == 1000
    assert result["winner"] is None


def test_a_tie_above_the_target_goes_to_the_declarer():
    # Anna 1000 + (20 + hearts 60 = 80) = 1080; Ben declarer forced: 100 >= 100 -> 980 + 100 = 1080.
    hands = [
        {"declarer": "Ben", "bid": 0, "points": {"Anna": 20, "Ben": 100, "Carl": 0}, "marriages": {"Anna": ["hearts"]}}
    ]
    result = calc(hands, start_totals={"Anna": 1000, "Ben": 980})
    assert result["hands"][0]["totals"] == {"Anna": 1080, "Ben": 1080, "Carl": 0}
    assert result["winner"] == "Ben"


def test_a_tie_of_two_defenders_goes_to_the_first_after_the_dealer():
    # Hand 1 (dealer Anna): Carl bid 20 (120) with 100 -> -120: Anna 990 -> 1000, Ben 500 -> 510, Carl 870.
    # Hand 2 (dealer Ben): Ben bid 10 (110) with 70 -> fails. Anna 10 -> 1010; Carl 40 + clubs 100 -> 1010.
    # Tied, declarer not among them: the first after the dealer Ben clockwise is Carl.
    hands = [
        {"declarer": "Carl", "bid": 20, "points": {"Anna": 10, "Ben": 10, "Carl": 100}},
        {"declarer": "Ben", "bid": 10, "points": {"Anna": 10, "Ben": 70, "Carl": 40}, "marriages": {"Carl": ["clubs"]}},
    ]
    result = calc(hands, start_totals={"Anna": 990, "Ben": 500, "Carl": 990})
    assert result["hands"][0]["totals"] == {"Anna": 1000, "Ben": 510, "Carl": 870}
    assert result["hands"][1]["totals"] == {"Anna": 1010, "Ben": 400, "Carl": 1010}
    assert result["winner"] == "Carl"
    assert result["games"] == [{"winner": "Carl", "hand": 2}]


def test_with_four_a_tie_goes_to_the_first_after_the_dealer_not_the_first_seat():
    # thousand.md: "a tie goes to the declarer, then to the first of them after the dealer";
    # the others round to the nearest 5 ("55 stays 55"). Start Anna 950, Dora 950.
    # Hand 1, Anna deals and sits out: Ben forced (100) with 100 -> +100; Carl 20; Dora 0.
    # Hand 2, Ben deals and sits out: Carl forced with 10 -> -100 (20 - 100 = -80); Anna 55 ->
    # 1005, Dora 55 -> 1005. Tied, the declarer not among them: clockwise after Ben come Carl,
    # Dora, Anna: Dora wins (seat order alone would have given Anna).
    hands = [
        {"declarer": "Ben", "bid": 0, "points": {"Ben": 100, "Carl": 20, "Dora": 0}},
        {"declarer": "Carl", "bid": 0, "points": {"Anna": 55, "Carl": 10, "Dora": 55}},
    ]
    result = calc(hands, FOUR, start_totals={"Anna": 950, "Dora": 950})
    first, second = result["hands"]
    assert first["totals"] == {"Anna": 950, "Ben": 100, "Carl": 20, "Dora": 950}
    assert (second["dealer"], second["active"]) == ("Ben", ["Anna", "Carl", "Dora"])
    assert second["deltas"] == {"Anna": 55, "Ben": 0, "Carl": -100, "Dora": 55}
    assert second["totals"] == {"Anna": 1005, "Ben": 100, "Carl": -80, "Dora": 1005}
    assert (second["contract"], second["made"]) == (100, False)
    assert second["game_winner"] == "Dora"
    assert result["winner"] == "Dora"
    assert result["games"] == [{"winner": "Dora", "hand": 2}]
    assert result["next"] == {"dealer": "Carl", "active": ["Anna", "Ben", "Dora"]}


def test_the_others_round_57_down_and_58_up():
    # round_to 5: 57 -> 55, 58 -> 60. Anna forced with 5 card points: -100.
    result = calc([{"declarer": "Anna", "bid": 0, "points": {"Anna": 5, "Ben": 57, "Carl": 58}}])
    assert result["hands"][0]["deltas"] == {"Anna": -100, "Ben": 55, "Carl": 60}


def test_the_target_is_an_option():
    result = calc([{"declarer": "Anna", "bid": 0, "points": {"Anna": 100, "Ben": 20, "Carl": 0}}], rules={"target": 99})
    assert result["winner"] == "Anna"


def test_start_totals_above_the_target_are_an_error():
    assert problems([], start_totals={"Ben": 1005}) == [(None, "start_totals")]


# --- the barrel (pagat 880) ---------------------------------------------------------------


def test_the_barrel_caps_a_defender_and_stops_one_already_on_it():
    # pagat, start Anna 870, Ben 880. Carl bid 100 (contract 100): 70 + hearts 100 = 170 -> +100.
    # Anna 30 would reach 900: capped at 880 (+10). Ben on the barrel scores nothing for his 20.
    hands = [
        {
            "declarer": "Carl",
            "bid": 100,
            "points": {"Anna": 30, "Ben": 20, "Carl": 70},
            "marriages": {"Carl": ["hearts"]},
        }
    ]
    result = calc(hands, variant="pagat", start_totals={"Anna": 870, "Ben": 880})
    assert result["hands"][0]["deltas"] == {"Anna": 10, "Ben": 0, "Carl": 100}
    assert result["totals"] == {"Anna": 880, "Ben": 880, "Carl": 100}


def test_on_the_barrel_a_declarer_scores_his_contract_both_ways():
    # Ben on 880 declares: bid 130 with 90 + diamonds 80 = 170 -> +130 = 1010 > 1000: he wins.
    # In a second sitting he fails bid 150 with 100 -> -150 = 730.
    made = [
        {
            "declarer": "Ben",
            "bid": 130,
            "points": {"Anna": 20, "Ben": 90, "Carl": 10},
            "marriages": {"Ben": ["diamonds"]},
        }
    ]
    result = calc(made, variant="pagat", start_totals={"Ben": 880})
    assert result["hands"][0]["totals"]["Ben"] == 1010
    assert result["winner"] == "Ben"
    failed = [{"declarer": "Ben", "bid": 150, "points": {"Anna": 10, "Ben": 100, "Carl": 10}}]
    result = calc(failed, variant="pagat", start_totals={"Ben": 880})
    assert result["hands"][0]["deltas"] == {"Anna": 10, "Ben": -150, "Carl": 10}


def test_pagat_from_the_barrel_a_made_contract_of_120_lands_on_1000_and_wins():
    # thousand.md, presets: pagat has target_inclusive on ("from the barrel at 880 a contract
    # of 120 lands on 1000"). Anna (880) bids 120: 100 card points + spades 40 = 140 >= 120:
    # +120 = 1000, which wins; Ben and Carl +10 each. Hand 2 starts a new game from 0: Ben
    # bids 100 and makes it with 100; Anna and Carl take 10 each.
    hands = [
        {
            "declarer": "Anna",
            "bid": 120,
            "points": {"Anna": 100, "Ben": 10, "Carl": 10},
            "marriages": {"Anna": ["spades"]},
        },
        {"declarer": "Ben", "bid": 100, "points": {"Anna": 10, "Ben": 100, "Carl": 10}},
    ]
    result = calc(hands, variant="pagat", start_totals={"Anna": 880})
    first, second = result["hands"]
    assert first["totals"] == {"Anna": 1000, "Ben": 10, "Carl": 10}
    assert first["game_winner"] == "Anna"
    assert result["games"] == [{"winner": "Anna", "hand": 1}]
    assert second["totals"] == {"Anna": 10, "Ben": 100, "Carl": 10}
    assert second["deltas"] == {"Anna": -990, "Ben": 90, "Carl": 0}


def test_pagat_refuses_a_start_total_of_1000_the_game_would_be_over():
    # target_inclusive on: a player at 1000 has already won.
    assert problems([], variant="pagat", start_totals={"Anna": 1000}) == [(None, "start_totals")]


def test_koenigsberg_from_880_a_made_contract_of_120_lands_on_1000_and_plays_on():
    # Seed 001 "mehr als 1000": koenigsberg keeps target_inclusive off. Anna 880 bids 20
    # (contract 120): 100 + spades 80 = 180 >= 120: 1000, not a win. Hand 2: Ben's forced
    # 100 made; Anna takes 10: 1010 > 1000 wins.
    hands = [
        {
            "declarer": "Anna",
            "bid": 20,
            "points": {"Anna": 100, "Ben": 10, "Carl": 10},
            "marriages": {"Anna": ["spades"]},
        },
        {"declarer": "Ben", "bid": 0, "points": {"Anna": 10, "Ben": 100, "Carl": 10}},
    ]
    result = calc(hands, start_totals={"Anna": 880})
    first, second = result["hands"]
    assert (first["totals"], first["game_winner"]) == ({"Anna": 1000, "Ben": 10, "Carl": 10}, None)
    assert (second["totals"], second["game_winner"]) == ({"Anna": 1010, "Ben": 110, "Carl": 20}, "Anna")


def test_no_barrel_in_koenigsberg_and_a_barrel_is_an_option():
    hand = [{"declarer": "Carl", "bid": 0, "points": {"Anna": 30, "Ben": 20, "Carl": 70}}]
    assert calc(hand, start_totals={"Anna": 870})["totals"]["Anna"] == 900
    assert calc(hand, start_totals={"Anna": 870}, rules={"barrel": 500})["totals"]["Anna"] == 870


# --- errors -------------------------------------------------------------------------------


def test_every_bad_hand_is_reported_with_its_number_and_field():
    ok = {"declarer": "Ben", "bid": 0, "points": {"Anna": 10, "Ben": 100, "Carl": 10}}
    hands = [
        {**ok, "bid": 7},  # not a multiple of 5
        {**ok, "points": {"Anna": 10, "Ben": 99, "Carl": 10}},  # sums to 119
        {**ok, "marriages": {"Anna": ["clubs"], "Ben": ["clubs"]}},  # clubs claimed twice
        {**ok, "declarer": "Zoe"},  # not at the table
        {**ok, "trump": "clubs"},  # unknown field
        {**ok, "bid": True},  # a bool is not a number
        {**ok, "bid": -5},  # below the minimum
        {**ok, "bid": 425},  # contract 525 > 520
        ok,
        {"declarer": "Ben", "points": {"Anna": 10, "Ben": 100, "Carl": 10}},  # bid missing
        {**ok, "points": {"Anna": 10, "Ben": 110}},  # Carl missing
        {**ok, "marriages": {"Ben": ["stars"]}},  # unknown suit
        {**ok, "all_tricks": "yes"},
        {**ok, "all_tricks": True},  # Ben would need all 120
    ]
    assert problems(hands) == [
        (1, "bid"),
        (2, "points"),
        (3, "marriages"),
        (4, "declarer"),
        (5, "trump"),
        (6, "bid"),
        (7, "bid"),
        (8, "bid"),
        (10, "bid"),
        (11, "points"),
        (12, "marriages"),
        (13, "all_tricks"),
        (14, "points"),
    ]


def test_the_highest_bid_is_what_520_points_allow():
    # koenigsberg: 240 + 100 + 80 + 60 + 40 = 520 -> bid 420 is allowed, 425 is not.
    hand = {
        "declarer": "Ben",
        "bid": 420,
        "points": {"Anna": 0, "Ben": 120, "Carl": 0},
        "all_tricks": True,
        "marriages": {"Ben": ["clubs", "spades", "hearts", "diamonds"]},
    }
    assert calc([hand])["hands"][0]["deltas"]["Ben"] == 520
    # pagat: offset 0, bids 100 … 520; 95 is below, 103 not a multiple, 525 above
    ok = {"declarer": "Ben", "points": {"Anna": 10, "Ben": 100, "Carl": 10}}
    bad = [{**ok, "bid": 95}, {**ok, "bid": 103}, {**ok, "bid": 525}]
    assert problems(bad, variant="pagat") == [(1, "bid"), (2, "bid"), (3, "bid")]


def test_a_defender_cannot_meld_when_the_declarer_took_every_trick():
    hand = {
        "declarer": "Ben",
        "bid": 140,
        "points": {"Anna": 0, "Ben": 120, "Carl": 0},
        "all_tricks": True,
        "marriages": {"Anna": ["clubs"]},
    }
    assert problems([hand]) == [(1, "marriages")]


def test_forgot_to_pass_and_all_tricks_cannot_both_be_true():
    assert problems([{"declarer": "Ben", "bid": 0, "forgot_to_pass": True, "all_tricks": True}]) == [(1, "all_tricks")]


def test_points_are_required_unless_the_declarer_forgot_to_pass():
    assert problems([{"declarer": "Ben", "bid": 0}]) == [(1, "points")]


def test_a_player_not_active_in_points_or_marriages():
    # Hand 1: dealer Anna sits out, so her (empty) marriages are an error; hand 2: dealer Ben
    # sits out: he cannot declare, have points, and Anna's points are missing.
    hand = {"declarer": "Carl", "bid": 0, "points": {"Ben": 10, "Carl": 100, "Dora": 10}}
    hands = [{**hand, "marriages": {"Anna": []}}, hand]
    assert problems(hands, FOUR) == [(1, "marriages"), (2, "points"), (2, "points")]


def test_rules_are_checked_by_the_sitting():
    assert problems([], rules={"barrel": "high", "marriage_values": {"clubs": 1}}) == [(None, "rules"), (None, "rules")]
