"""The league's money in the JSON export and back: the cashbox's ledger (entries, counter-
entries, the bill's share), its counts and the payments ticked come back as they were, who
did it as text; a bank account never goes out; a tampered file is refused naming the place,
and nothing of it is stored."""

import copy
import datetime

import pytest

from leagues.cashbox import services, settlement
from leagues.exchange import league_file as exchange
from leagues.models import BankAccount, CashboxEntry, EntryKind, League, Membership, Payment, Role
from leagues.seasons.services import settle_bill
from tests.cashbox.test_settlement import MONEY, closed_evening
from tests.exchange.files import exported, imported
from tests.factories import LeagueFactory, UserFactory, member

pytestmark = pytest.mark.django_db

MONEY_PARTS = ("cashbox", "cash_counts", "payments")
NOW = datetime.datetime(2026, 1, 10, 20, 0, tzinfo=datetime.timezone.utc)


@pytest.fixture
def source(db):
    league = LeagueFactory(slug="kasse", money_rules=MONEY)
    keeper, admin = member(league, Role.SCOREKEEPER), member(league, Role.ADMIN)
    services.save_bank_account(
        membership=Membership.objects.get(user=admin), iban="DE89 3704 0044 0532 0130 00", holder="Kassenwart"
    )
    evening = closed_evening(league, keeper)
    for line in settlement.evening_settlement(meeting=evening).open:
        services.tick_payment(meeting=evening, key=line.key, paid_how="cash", user=keeper, now=NOW)
    deposit = services.record_entry(league=league, kind="deposit", cents=5000, note="Start", user=admin, now=NOW)
    services.record_entry(league=league, kind="purchase", cents=1230, note="Karten", user=admin, now=NOW)
    services.counter_entry(league=league, entry_id=deposit.pk, note="doppelt", user=admin, now=NOW)
    services.record_entry(league=league, kind="deposit", cents=4000, note="Neu", user=admin, now=NOW)
    services.record_count(league=league, cents=2800, counted_on=datetime.date(2026, 1, 10), note="", user=admin)
    league.seasons.update(closed_on=evening.date)  # everyone hosted, as far as the bill asks
    evening.season.refresh_from_db()
    for share in ("10", "20"):  # the second bill replaces the first: its share is countered
        settle_bill(season=evening.season, bill={"total": "100", "method": "equal", "from_cashbox": share}, user=admin)
    return league


def test_the_money_goes_out_and_comes_back(source):
    export = exported(source)
    kinds = [e["kind"] for e in export["cashbox"]]
    assert kinds == ["evening", "deposit", "purchase", "counter", "deposit", "dinner", "counter", "dinner"]
    assert export["cashbox"][3]["counters"] == 2 and export["cashbox"][6]["counters"] == 6
    assert [e["bill"] for e in export["cashbox"][5:]] == [1, 1, 2]
    assert export["cashbox"][0]["meeting"] == 1 and export["cashbox"][0]["recorded_by"]
    assert [(p["payer"], p["payee"], p["cents"], p["cashbox_entry"]) for p in export["payments"]] == [
        ("Anna", "Ben", 10, None),
        ("Carl", "Dora", 30, None),
        ("Carl", None, 50, 1),
    ]
    assert [c["cents"] for c in export["cash_counts"]] == [2800]
    assert "DE89" not in str(export) and "Kassenwart" not in str(export)

    copied = imported(export, user=UserFactory(username="neu"), name="Kopie", slug="kopie")
    again = exported(copied)
    assert {part: again[part] for part in MONEY_PARTS} == {part: export[part] for part in MONEY_PARTS}
    assert not BankAccount.objects.filter(membership__league=copied).exists()
    # The copy's cashbox holds what the source's does, and its evening is paid up.
    source_box = CashboxEntry.objects.filter(league=source).values_list("cents", flat=True)
    assert sum(CashboxEntry.objects.filter(league=copied).values_list("cents", flat=True)) == sum(source_box)
    assert settlement.evening_settlement(meeting=copied.meetings.get()).open == []
    assert Payment.objects.filter(league=copied, cashbox_entry__kind=EntryKind.EVENING).count() == 1


def _tamper(export, part, i, key, value):
    broken = copy.deepcopy(export)
    broken[part][i - 1][key] = value
    return broken


@pytest.mark.parametrize(
    ("part", "i", "key", "value", "where"),
    [
        ("cashbox", 3, "cents", 1230, "cashbox[3].cents"),  # a purchase is money out
        ("cashbox", 3, "cents", "12.30", "cashbox[3].cents"),
        ("cashbox", 3, "cents", -(10**9), "cashbox[3].cents"),
        ("cashbox", 3, "cents", -(10**7), "cashbox[3].cents"),  # more than the cashbox holds
        ("cashbox", 2, "kind", "gift", "cashbox[2].kind"),
        ("cashbox", 4, "counters", 1, "cashbox[4].cents"),  # not the opposite of the evening's 0.50
        ("cashbox", 4, "counters", 4, "cashbox[4].counters"),  # itself, not earlier
        ("cashbox", 7, "counters", 4, "cashbox[7].counters"),  # a counter-entry is not undone
        ("cashbox", 2, "counters", 1, "cashbox[2].counters"),
        ("cashbox", 1, "meeting", 9, "cashbox[1].meeting"),
        ("cashbox", 6, "bill", 3, "cashbox[6].bill"),
        ("cashbox", 1, "season", 7, "cashbox[1].season"),
        ("cashbox", 1, "recorded_at", "gestern", "cashbox[1].recorded_at"),
        ("cashbox", 1, "note", "x" * 201, "cashbox[1].note"),
        ("cash_counts", 1, "cents", -1, "cash_counts[1].cents"),
        ("cash_counts", 1, "counted_on", "2999-01-01", "cash_counts[1].counted_on"),
        ("payments", 1, "payer", "Zoe", "payments[1].payer"),
        ("payments", 1, "payer", None, "payments[1].cashbox_entry"),
        ("payments", 1, "cents", 0, "payments[1].cents"),
        ("payments", 1, "paid_how", "iou", "payments[1].paid_how"),
        ("payments", 1, "meeting", 0, "payments[1].meeting"),
        ("payments", 2, "cashbox_entry", 1, "payments[2].cashbox_entry"),  # between players
        ("payments", 3, "cashbox_entry", None, "payments[3].cashbox_entry"),
        ("payments", 3, "cashbox_entry", 2, "payments[3].cashbox_entry"),  # a deposit
        ("payments", 3, "settled", [1], "payments[3].settled"),
    ],
)
def test_a_tampered_file_is_refused_naming_the_place(source, part, i, key, value, where):
    broken = _tamper(exported(source), part, i, key, value)
    before = (League.objects.count(), CashboxEntry.objects.count(), Payment.objects.count())
    with pytest.raises(exchange.ImportProblem) as error:
        imported(broken, user=UserFactory(), name="Kaputt", slug="kaputt")
    message = error.value.errors[0]["message"]
    assert message.startswith(where + ":"), message
    assert (League.objects.count(), CashboxEntry.objects.count(), Payment.objects.count()) == before


def test_a_file_without_money_parts_imports_without_money(source):
    export = exported(source)
    for part in MONEY_PARTS:
        del export[part]
    copied = imported(export, user=UserFactory(), name="Alt", slug="alt")
    assert not CashboxEntry.objects.filter(league=copied).exists()
    assert not Payment.objects.filter(league=copied).exists()
