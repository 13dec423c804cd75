"""The money of an evening: invariants checked on random evenings (hypothesis)."""

from collections import Counter
from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.money import difference, settle_evening

FAST = settings(max_examples=150, deadline=None)
MODES = ["off", "between_players", "cashbox_difference", "cashbox_minus"]

# Rates of at most two decimals of a cent, from 0.01 to 500.
rates = st.integers(1, 50_000).map(lambda hundredths: str(Decimal(hundredths) / 100))


@st.composite
def outcomes(draw, players):
    """A finished game: winners and losers from the players, nobody on both sides."""
    sides = draw(st.lists(st.sampled_from(["won", "lost", "out"]), min_size=len(players), max_size=len(players)))
    return {
        "winners": [p for p, s in zip(players, sides, strict=True) if s == "won"],
        "losers": [p for p, s in zip(players, sides, strict=True) if s == "lost"],
    }


@st.composite
def evenings(draw, mode=None):
    players = draw(st.lists(st.text("ABCDEFGH", min_size=1, max_size=2), min_size=1, max_size=8, unique=True))
    stake = st.integers(0, 500)
    rules = {
        "per_point": mode or draw(st.sampled_from(MODES)),
        "rate": draw(rates),
        "per_game": draw(stake),
        "per_game_to": draw(st.sampled_from(["winners", "cashbox"])),
        "per_match": draw(stake),
        "per_match_to": draw(st.sampled_from(["winners", "cashbox"])),
        "per_evening": draw(stake),
        "per_lost_solo": draw(stake),
        "per_missed_pennant": draw(stake),
    }
    return {
        "rules": rules,
        "players": players,
        "totals": {p: draw(st.integers(-1_000, 1_000)) for p in players},
        "games": draw(st.lists(outcomes(players), max_size=8)),
        "matches": draw(st.lists(outcomes(players), max_size=3)),
        "lost_solos": {p: draw(st.integers(0, 3)) for p in players},
        "attended": draw(st.lists(st.sampled_from(players), unique=True)),
        "missed_pennant": draw(st.none() | st.sampled_from(players)),
    }


def nets_of(moves):
    """Each side's balance after (payer, payee, cents) moves; None is the cashbox."""
    balance = Counter()
    for payer, payee, cents in moves:
        balance[payer] -= cents
        balance[payee] += cents
    return balance


def check_nets(settlement, moves):
    balance = nets_of(moves)
    assert all(balance[p] == settlement.nets[p] for p in settlement.players)
    assert balance[None] == settlement.cashbox
    assert set(balance) <= set(settlement.players) | {None}


@FAST
@given(evenings(mode="between_players"))
def test_points_between_players_are_zero_sum_in_at_most_n_minus_one_transfers(evening):
    evening["rules"] = {"per_point": "between_players", "rate": evening["rules"]["rate"]}
    s = settle_evening(**evening)
    assert sum(s.nets.values()) == 0
    assert s.cashbox == 0
    assert len(s.payments) <= len(s.players) - 1
    check_nets(s, [(p.payer, p.payee, p.cents) for p in s.payments])
    # Each net is within a cent of rate x (total - mean).
    rate = Decimal(evening["rules"]["rate"])
    mean = Decimal(sum(evening["totals"].values())) / len(s.players)
    assert all(abs(s.nets[p] - rate * (evening["totals"][p] - mean)) < 1 for p in s.players)


@FAST
@given(evenings())
def test_lines_and_payments_both_add_up_to_the_nets(evening):
    s = settle_evening(**evening)
    check_nets(s, [(line.payer, line.payee, line.cents) for line in s.lines])
    check_nets(s, [(p.payer, p.payee, p.cents) for p in s.payments])
    between = [p for p in s.payments if p.payer is not None and p.payee is not None]
    assert len(between) <= max(0, len(s.players) - 1)
    assert all(line.cents > 0 and line.payer != line.payee for line in s.lines)
    # Nothing ever comes out of the cashbox when an evening settles; what goes in is >= 0.
    assert all(line.payer is not None for line in s.lines)
    assert all(p.cents > 0 for p in s.payments)
    assert s.cashbox >= 0


@FAST
@given(evenings(mode="cashbox_difference"))
def test_the_best_pays_nothing_into_the_cashbox(evening):
    evening["rules"] = {"per_point": "cashbox_difference", "rate": evening["rules"]["rate"]}
    s = settle_evening(**evening)
    best = max(evening["totals"].values())
    payers = {line.payer for line in s.lines}
    assert not payers & {p for p, t in evening["totals"].items() if t == best}
    assert all(s.nets[p] <= 0 for p in s.players)


@FAST
@given(evenings(), st.data())
def test_old_lines_plus_the_correction_give_the_new_settlement(evening, data):
    old = settle_evening(**evening)
    changed = {**evening, "totals": {p: data.draw(st.integers(-1_000, 1_000)) for p in evening["players"]}}
    changed["games"] = data.draw(st.lists(outcomes(evening["players"]), max_size=8))
    new = settle_evening(**changed)
    fix = difference(old=old, new=new)
    moves = [(line.payer, line.payee, line.cents) for line in old.lines + fix.lines]
    check_nets(new, moves)
    check_nets(fix, [(p.payer, p.payee, p.cents) for p in fix.payments])
    assert all(line.reason == "correction" and line.cents > 0 for line in fix.lines)
