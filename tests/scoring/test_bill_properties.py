"""The restaurant bill: invariants of league.md checked on random bills (hypothesis)."""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.bill import split_bill
from scoring.errors import ScoringError

FAST = settings(max_examples=100, deadline=None)


def cents(text):
    euros, _, rest = text.partition(".")
    assert len(rest) == 2
    return int(euros) * 100 + int(rest)


names = st.lists(st.text("ABCDEFGHIJ", min_size=1, max_size=3), min_size=1, max_size=8, unique=True)


@st.composite
def bills(draw, payers=None):
    players = draw(names)
    scores = {p: draw(st.integers(-500, 500)) for p in players}
    total = draw(st.integers(0, 100_000))
    data = {
        "total": f"{total // 100}.{total % 100:02d}",
        "scores": scores,
        "method": draw(st.sampled_from(["equal", "per_point", "by_rank"])),
        "cents_per_point": draw(st.integers(0, 200)),
        "tip_percent": draw(st.sampled_from([0, 5, 10, 12.5, "15.25"])),
    }
    if payers == "one":
        data["paid_by"] = draw(st.sampled_from(players))
    return data


def with_tip(data):
    total = cents(data["total"])
    tip = Fraction(str(data["tip_percent"])) * total / 100
    return total + int(tip + Fraction(1, 2))


@FAST
@given(bills())
def test_shares_sum_exactly_to_the_bill_with_tip(data):
    result = split_bill(data)
    assert cents(result["total"]) == with_tip(data)
    assert sum(cents(s) for s in result["shares"].values()) == cents(result["total"])
    assert all(cents(s) >= 0 for s in result["shares"].values())
    assert list(result["shares"]) == list(data["scores"])


@FAST
@given(bills())
def test_a_higher_score_never_pays_more(data):
    result = split_bill(data)
    shares = {p: cents(s) for p, s in result["shares"].items()}
    for a, score_a in data["scores"].items():
        for b, score_b in data["scores"].items():
            if score_a > score_b:
                assert shares[a] <= shares[b], (a, b)


@FAST
@given(bills(), st.data())
def test_transfers_settle_every_balance_in_at_most_n_minus_1(data, draw):
    total = with_tip(data)
    players = list(data["scores"])
    # split the total (with tip) among some payers, to the cent
    cuts = sorted(draw.draw(st.lists(st.integers(0, total), min_size=len(players) - 1, max_size=len(players) - 1)))
    amounts = [b - a for a, b in zip([0, *cuts], [*cuts, total], strict=True)]
    data["paid"] = {
        p: f"{c // 100}.{c % 100:02d}" for p, c in zip(players, amounts, strict=True) if c or p == players[0]
    }
    result = split_bill(data)
    balance = {p: cents(data["paid"].get(p, "0.00")) - cents(result["shares"][p]) for p in players}
    assert len(result["transfers"]) <= len(players) - 1
    for transfer in result["transfers"]:
        amount = cents(transfer["amount"])
        assert amount > 0
        balance[transfer["from"]] += amount
        balance[transfer["to"]] -= amount
    assert set(balance.values()) == {0}


@FAST
@given(bills(payers="one"))
def test_paid_by_one_player_collects_every_other_share(data):
    result = split_bill(data)
    payer = data["paid_by"]
    expected = [p for p in data["scores"] if p != payer and cents(result["shares"][p])]
    assert [t["from"] for t in result["transfers"]] == expected
    assert {t["to"] for t in result["transfers"]} <= {payer}
    collected = sum(cents(t["amount"]) for t in result["transfers"])
    assert collected == cents(result["total"]) - cents(result["shares"][payer])


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**9), 10**9) | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=10,
)
FIELDS = ["total", "scores", "method", "cents_per_point", "tip_percent", "paid_by", "paid", "other"]


@settings(max_examples=200, deadline=None)
@given(bills(), st.data())
def test_any_json_in_any_field_gives_a_result_or_a_scoring_error(data, draw):
    for name in draw.draw(st.lists(st.sampled_from(FIELDS), min_size=1, max_size=3)):
        data[name] = draw.draw(json_values)
    try:
        split_bill(data)
    except ScoringError as error:
        assert all(p.hand is None for p in error.problems)


@given(json_values)
@settings(max_examples=50, deadline=None)
def test_any_json_body(body):
    with pytest.raises(ScoringError):
        split_bill(body)
