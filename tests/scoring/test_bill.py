"""The restaurant bill (shared/spec/league.md, "End of a season: the restaurant bill";
calculate-api.md, POST /api/v1/bill-split/): figures worked out by hand."""

import pytest

from scoring.bill import METHODS, split_bill
from scoring.errors import ScoringError

SPEC_SCORES = {"Anna": 42, "Ben": -10, "Carl": 5, "Dora": -37}


def errors(data):
    with pytest.raises(ScoringError) as info:
        split_bill(data)
    return [(p.hand, p.field) for p in info.value.problems]


def test_the_spec_example_per_point_with_paid_by():
    # 187.40 / 4 = 46.85; mean score 0; rate 0.10 EUR per point:
    # Anna 46.85 - 4.20 = 42.65, Ben 46.85 + 1.00 = 47.85, Carl 46.85 - 0.50 = 46.35,
    # Dora 46.85 + 3.70 = 50.55. Anna paid: one transfer from each other player, in scores order.
    result = split_bill(
        {
            "total": "187.40",
            "scores": SPEC_SCORES,
            "method": "per_point",
            "cents_per_point": 10,
            "tip_percent": 0,
            "paid_by": "Anna",
        }
    )
    assert result == {
        "total": "187.40",
        "rate": "0.1000",
        "shares": {"Anna": "42.65", "Ben": "47.85", "Carl": "46.35", "Dora": "50.55"},
        "transfers": [
            {"from": "Ben", "to": "Anna", "amount": "47.85"},
            {"from": "Carl", "to": "Anna", "amount": "46.35"},
            {"from": "Dora", "to": "Anna", "amount": "50.55"},
        ],
        "chooses_restaurant": "Dora",
    }


def test_per_point_is_the_default_with_10_cents():
    result = split_bill({"total": "187.40", "scores": SPEC_SCORES})
    assert result["rate"] == "0.1000"
    assert result["shares"]["Anna"] == "42.65"
    assert result["transfers"] == []  # nobody said who paid


def test_per_point_with_another_rate():
    # 20 cents: Anna 46.85 - 8.40 = 38.45, Ben 46.85 + 2.00 = 48.85, Carl 45.85, Dora 54.25.
    result = split_bill({"total": "187.40", "scores": SPEC_SCORES, "cents_per_point": 20})
    assert result["rate"] == "0.2000"
    assert result["shares"] == {"Anna": "38.45", "Ben": "48.85", "Carl": "45.85", "Dora": "54.25"}


def test_per_point_lowers_the_rate_so_the_best_pays_nothing():
    # 30.00 / 3 = 10.00, mean 0; at 20 cents Anna (100) would pay 10 - 20 = -10: the rate falls
    # to 10.00 / 100 = 0.10: Anna 0.00, Ben 10.00, Carl 10.00 + 10.00 = 20.00.
    result = split_bill(
        {"total": "30.00", "scores": {"Anna": 100, "Ben": 0, "Carl": -100}, "cents_per_point": 20, "paid_by": "Carl"}
    )
    assert result["rate"] == "0.1000"
    assert result["shares"] == {"Anna": "0.00", "Ben": "10.00", "Carl": "20.00"}
    # no transfer for 0.00
    assert result["transfers"] == [{"from": "Ben", "to": "Carl", "amount": "10.00"}]


def test_a_lowered_rate_is_shown_to_four_decimals():
    # 10.00 / 3 = 3.333…; mean 100; Anna 300 is 200 above: rate = 333.33… cents / 200 = 5/3 cents
    # = 0.016666… EUR -> "0.0167". Ben and Carl: 333.33… + 5/3 x 100 = 500 cents each.
    result = split_bill({"total": "10.00", "scores": {"Anna": 300, "Ben": 0, "Carl": 0}})
    assert result["rate"] == "0.0167"
    assert result["shares"] == {"Anna": "0.00", "Ben": "5.00", "Carl": "5.00"}


def test_equal_split_leftover_cent_goes_to_the_lower_score():
    # 100.00 / 3 = 33.333…: 33.33 each, 1 cent left, remainders equal: the lowest score (Carl).
    result = split_bill({"total": "100.00", "scores": {"Anna": 10, "Ben": 5, "Carl": 0}, "method": "equal"})
    assert result["shares"] == {"Anna": "33.33", "Ben": "33.33", "Carl": "33.34"}
    assert result["rate"] is None
    assert result["chooses_restaurant"] == "Carl"


def test_leftover_ties_go_to_the_lower_score_then_the_earlier_in_scores():
    # 0.02 / 3: 2/3 cent each, two cents left: Carl (-1, lowest), then Ben (0, before Anna).
    result = split_bill({"total": "0.02", "scores": {"Ben": 0, "Anna": 0, "Carl": -1}, "method": "equal"})
    assert result["shares"] == {"Ben": "0.01", "Anna": "0.00", "Carl": "0.01"}


def test_by_rank_weights_by_place_and_ties_share_the_average():
    # places: Anna 1, Ben and Carl share 2 and 3 -> 2.5 each, Dora 4; sum 10.
    # 100.00 x 1/10 = 10.00, x 2.5/10 = 25.00, x 4/10 = 40.00.
    result = split_bill(
        {"total": "100.00", "scores": {"Anna": 30, "Ben": 20, "Carl": 20, "Dora": 10}, "method": "by_rank"}
    )
    assert result["shares"] == {"Anna": "10.00", "Ben": "25.00", "Carl": "25.00", "Dora": "40.00"}
    assert result["rate"] is None


def test_by_rank_largest_remainder():
    # weights 1, 2, 3 of 6: 1.666…, 3.333…, 5.00 -> floors 1.66 + 3.33 + 5.00 = 9.99; the cent goes
    # to the largest remainder (Anna, 0.666… cent).
    result = split_bill({"total": "10.00", "scores": {"Anna": 3, "Ben": 2, "Carl": 1}, "method": "by_rank"})
    assert result["shares"] == {"Anna": "1.67", "Ben": "3.33", "Carl": "5.00"}


def test_tip_raises_the_total_first():
    # 10 % of 187.40 = 18.74 -> 206.14; / 4 = 51.535; mean 0, rate 0.10:
    # Anna 51.535 - 4.20 = 47.335, Ben 52.535, Carl 51.035, Dora 55.235: every remainder is half a
    # cent; floors sum to 206.12, two cents left: the lowest scores first, Dora then Ben.
    result = split_bill({"total": "187.40", "scores": SPEC_SCORES, "tip_percent": 10})
    assert result["total"] == "206.14"
    assert result["shares"] == {"Anna": "47.33", "Ben": "52.54", "Carl": "51.03", "Dora": "55.24"}


def test_the_tip_is_rounded_half_up_to_the_cent():
    # 10 % of 0.05 = 0.005 -> 0.01; 12.5 % of 10.00 = 1.25.
    assert split_bill({"total": "0.05", "scores": {"A": 0}, "tip_percent": 10})["total"] == "0.06"
    assert split_bill({"total": 10, "scores": {"A": 0}, "tip_percent": "12.5"})["total"] == "11.25"


def test_several_payers_settle_largest_debtor_to_largest_creditor():
    # equal: 25.00 each. Balances: Anna +45, Ben +5, Carl -25, Dora -25.
    # Carl (largest debtor, before Dora) pays Anna 25; Dora pays Anna 20; Dora pays Ben 5.
    result = split_bill(
        {
            "total": "100.00",
            "scores": {"Anna": 1, "Ben": 2, "Carl": 3, "Dora": 4},
            "method": "equal",
            "paid": {"Anna": "70.00", "Ben": 30},
        }
    )
    assert result["transfers"] == [
        {"from": "Carl", "to": "Anna", "amount": "25.00"},
        {"from": "Dora", "to": "Anna", "amount": "20.00"},
        {"from": "Dora", "to": "Ben", "amount": "5.00"},
    ]


def test_chooses_restaurant_tied_goes_to_the_first_in_scores():
    assert split_bill({"total": "9.00", "scores": {"A": 5, "B": -3, "C": -3}})["chooses_restaurant"] == "B"


def test_money_can_be_a_number():
    result = split_bill({"total": 187.4, "scores": {"A": 0, "B": 0}, "method": "equal"})
    assert result["total"] == "187.40"
    assert result["shares"] == {"A": "93.70", "B": "93.70"}


def test_methods_are_labelled_for_the_form():
    assert set(METHODS) == {"equal", "per_point", "by_rank"}


def test_every_problem_is_reported_with_hand_null_and_the_field():
    assert errors(
        {
            "total": "12.345",
            "scores": {"A": 1.5},
            "method": "random",
            "cents_per_point": -1,
            "tip_percent": "abc",
            "currency": "EUR",
        }
    ) == [
        (None, "currency"),
        (None, "total"),
        (None, "scores"),
        (None, "method"),
        (None, "cents_per_point"),
        (None, "tip_percent"),
    ]


@pytest.mark.parametrize("total", ["-5.00", -1, True, "abc", "1,50", None, [], 1.005, float("nan")])
def test_a_bad_total(total):
    assert errors({"total": total, "scores": {"A": 0}}) == [(None, "total")]


@pytest.mark.parametrize("scores", [{"A": True}, {"A": "3"}, [], {}, "A", None])
def test_bad_scores(scores):
    assert errors({"total": "1.00", "scores": scores}) == [(None, "scores")]


@pytest.mark.parametrize("tip", [-1, 101, "1.234", True, "x"])
def test_a_bad_tip(tip):
    assert errors({"total": "1.00", "scores": {"A": 0}, "tip_percent": tip}) == [(None, "tip_percent")]


def test_paid_by_must_be_a_player():
    assert errors({"total": "1.00", "scores": {"A": 0}, "paid_by": "Zoe"}) == [(None, "paid_by")]


def test_paid_must_add_up_to_the_total_with_the_tip():
    # 10.00 + 10 % = 11.00; 10.00 paid is not enough.
    assert errors({"total": "10.00", "scores": {"A": 0, "B": 1}, "tip_percent": 10, "paid": {"A": "10.00"}}) == [
        (None, "paid")
    ]
    # 11.00 / 2 = 5.50, mean 0.5, rate 0.10: A 5.50 + 0.05 = 5.55, B 5.50 - 0.05 = 5.45.
    result = split_bill({"total": "10.00", "scores": {"A": 0, "B": 1}, "tip_percent": 10, "paid": {"A": "11.00"}})
    assert result["total"] == "11.00"
    assert result["shares"] == {"A": "5.55", "B": "5.45"}
    assert result["transfers"] == [{"from": "B", "to": "A", "amount": "5.45"}]


def test_paid_names_players_with_amounts():
    assert errors({"total": "10.00", "scores": {"A": 0}, "paid": {"Zoe": "10.00", "A": "-1"}}) == [
        (None, "paid"),
        (None, "paid"),
    ]


def test_paid_by_and_paid_together_is_a_problem():
    assert errors({"total": "10.00", "scores": {"A": 0}, "paid_by": "A", "paid": {"A": "10.00"}}) == [(None, "paid")]


def test_the_body_must_be_an_object():
    assert errors([1, 2]) == [(None, None)]


def test_by_rank_ties_with_a_tip_and_the_leftover_cent_to_the_earlier_of_equal_scores():
    # league.md: tip 12.5 % of 100.00 = 12.50 -> 112.50. by_rank: Anna (7) place 1, Ben and
    # Carl (3) share places 2 and 3 -> 2.5 each, Dora (-1) 4; sum 10. Exact: 11.25, 28.125,
    # 28.125, 45.00: floors 112.49, one cent left; Ben and Carl have the same remainder and the
    # same score: the earlier in scores, Ben, gets it. Ben paid everything: the largest debtor
    # (Dora) pays first, then Carl, then Anna.
    result = split_bill(
        {
            "total": "100.00",
            "scores": {"Anna": 7, "Ben": 3, "Carl": 3, "Dora": -1},
            "method": "by_rank",
            "tip_percent": "12.5",
            "paid": {"Ben": "112.50"},
        }
    )
    assert result["total"] == "112.50"
    assert result["rate"] is None
    assert result["shares"] == {"Anna": "11.25", "Ben": "28.13", "Carl": "28.12", "Dora": "45.00"}
    assert result["transfers"] == [
        {"from": "Dora", "to": "Ben", "amount": "45.00"},
        {"from": "Carl", "to": "Ben", "amount": "28.12"},
        {"from": "Anna", "to": "Ben", "amount": "11.25"},
    ]
    assert result["chooses_restaurant"] == "Dora"


def test_a_lowered_rate_with_paid_settles_to_the_cent():
    # 100.00 / 3 = 33.333…, mean 0; at 10 cents Anna (500) would pay 33.33 - 50.00 < 0: the rate
    # falls to 3333.33… cents / 500 = 6.666… cents = 0.0667 EUR. Anna 0.00; Ben and Carl
    # 33.333… + 6.666… x 250 = 50.00 each. Anna paid 60.00, Carl 40.00: Ben owes 50.00 and pays
    # the largest creditor Anna 60.00 - 0.00 = 60.00 first, up to his 50.00; Carl (-10.00) then
    # pays Anna the remaining 10.00.
    result = split_bill(
        {
            "total": "100.00",
            "scores": {"Anna": 500, "Ben": -250, "Carl": -250},
            "paid": {"Anna": "60.00", "Carl": "40.00"},
        }
    )
    assert result["rate"] == "0.0667"
    assert result["shares"] == {"Anna": "0.00", "Ben": "50.00", "Carl": "50.00"}
    assert result["transfers"] == [
        {"from": "Ben", "to": "Anna", "amount": "50.00"},
        {"from": "Carl", "to": "Anna", "amount": "10.00"},
    ]
    assert result["chooses_restaurant"] == "Ben"
