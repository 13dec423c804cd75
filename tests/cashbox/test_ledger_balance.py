"""The computed balance ("Soll") is the sum of the entries, whatever was recorded."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from leagues.cashbox import selectors, services
from leagues.exceptions import InvalidInput
from leagues.models import MONEY_IN, MONEY_OUT, CashboxEntry, Role
from tests.factories import LeagueFactory, member

pytestmark = pytest.mark.django_db

# (kind, cents) or ("undo", index of an earlier step)
steps = st.lists(
    st.one_of(
        st.tuples(st.sampled_from([*MONEY_IN, *MONEY_OUT]), st.integers(1, 100_000_000)),
        st.tuples(st.just("undo"), st.integers(0, 30)),
    ),
    max_size=12,
)


@given(steps)
def test_the_balance_is_the_sum_of_the_entries(sequence):
    league = LeagueFactory()
    admin = member(league, Role.ADMIN)
    expected = 0
    for kind, value in sequence:
        try:
            if kind == "undo":
                ids = list(CashboxEntry.objects.filter(league=league).values_list("pk", flat=True))
                if not ids:
                    continue
                services.counter_entry(league=league, entry_id=ids[value % len(ids)], note="x", user=admin)
            else:
                services.record_entry(league=league, kind=kind, cents=value, note="x", user=admin)
        except InvalidInput:
            continue  # refused (more out than in, an entry undone twice): nothing was written
        expected = sum(CashboxEntry.objects.filter(league=league).values_list("cents", flat=True))
    assert selectors.balance(league=league) == expected
    assert selectors.ledger(league=league).balance == expected
    # Money out never takes the ledger below zero; only counter-entries (which mend it) may.
    if not CashboxEntry.objects.filter(league=league, kind="counter").exists():
        assert expected >= 0


def test_money_out_never_exceeds_the_balance():
    league = LeagueFactory()
    admin = member(league, Role.ADMIN)
    services.record_entry(league=league, kind="deposit", cents=1000, note="x", user=admin)
    with pytest.raises(InvalidInput) as refused:
        services.record_entry(league=league, kind="purchase", cents=1001, note="x", user=admin)
    assert refused.value.errors[0]["field"] == "amount"
    services.record_entry(league=league, kind="purchase", cents=1000, note="x", user=admin)
    assert selectors.balance(league=league) == 0
