"""The ledger page and its forms: who may do what, and bad input answered with a 400 and a
message naming the field (never a 500)."""

import datetime

import pytest
from django.urls import reverse

from leagues.cashbox import selectors, services
from leagues.models import CashboxEntry, CashCount, EntryKind
from tests.cashbox.conftest import login

pytestmark = pytest.mark.django_db


def url(league, name="cashbox", **kwargs):
    return reverse(name, kwargs={"slug": league.slug, **kwargs})


def deposit(league, user, cents=5000):
    return services.record_entry(league=league, kind=EntryKind.DEPOSIT, cents=cents, note="Startgeld", user=user)


# who: (GET ledger, POST money in, POST money out, POST counter, POST count)
MATRIX = {
    "anonymous": (302, 302, 302, 302, 302),
    "stranger": (404, 404, 404, 404, 404),
    "member": (200, 403, 403, 403, 403),
    "scorekeeper": (200, 302, 403, 403, 403),
    "admin": (200, 302, 302, 302, 302),
}


@pytest.mark.parametrize("who", MATRIX)
def test_who_may_read_and_record(client, league, people, who):
    first = deposit(league, people["admin"])
    login(client, people, who)
    answers = (
        client.get(url(league)).status_code,
        client.post(url(league, "cashbox_entry"), {"kind": "fee", "amount": "2,50", "note": "Beitrag"}).status_code,
        client.post(url(league, "cashbox_entry"), {"kind": "purchase", "amount": "3", "note": "Karten"}).status_code,
        client.post(url(league, "cashbox_counter", pk=first.pk), {"note": "doppelt"}).status_code,
        client.post(url(league, "cashbox_count"), {"amount": "50", "counted_on": "2026-11-20"}).status_code,
    )
    assert answers == MATRIX[who]
    if who == "anonymous":
        assert client.get(url(league))["Location"].startswith(reverse("login"))


def test_the_page_shows_soll_ist_and_the_difference(client, league, people):
    admin = people["admin"]
    deposit(league, admin, 5000)
    services.record_count(league=league, cents=4850, counted_on=datetime.date(2026, 11, 20), note="", user=admin)
    services.record_entry(league=league, kind=EntryKind.PAYOUT, cents=1000, note="Preis", user=admin)
    login(client, people, "member")
    response = client.get(url(league))
    ledger = response.context["ledger"]
    assert (ledger.balance, ledger.latest_count.cents, ledger.balance_at_count, ledger.difference) == (
        4000,
        4850,
        5000,
        -150,
    )
    page = response.content.decode()
    assert "40.00\u00a0€" in page and "-1.50\u00a0€" in page
    assert 'name="amount"' not in page  # a member only reads


def test_the_league_page_links_the_ledger(client, league, people):
    login(client, people, "member")
    assert url(league) in client.get(reverse("league", kwargs={"slug": league.slug})).content.decode()


def test_a_scorekeeper_is_offered_money_in_only(client, league, people):
    login(client, people, "scorekeeper")
    form = client.get(url(league)).context["entry_form"]
    assert [k for k, _label in form.fields["kind"].choices] == ["evening", "fee", "deposit"]


def test_an_entry_is_recorded_in_german_with_who_and_season(client, league, people):
    login(client, people, "scorekeeper")
    response = client.post(
        url(league, "cashbox_entry"),
        {"kind": "evening", "amount": "1.234,50", "note": "Abend"},
        HTTP_ACCEPT_LANGUAGE="de",
    )
    assert response.status_code == 302
    entry = CashboxEntry.objects.get()
    assert (entry.cents, entry.kind, entry.recorded_by, entry.recorded_by_name) == (
        123450,
        "evening",
        people["scorekeeper"],
        people["scorekeeper"].first_name,
    )


@pytest.mark.parametrize(
    ("data", "field", "words"),
    [
        ({"kind": "fee", "amount": "", "note": "x"}, "amount", "Amount (€)"),
        ({"kind": "fee", "amount": "zwölf", "note": "x"}, "amount", "Amount (€)"),
        ({"kind": "fee", "amount": "0", "note": "x"}, "amount", "Amount (€)"),
        ({"kind": "fee", "amount": "1.005", "note": "x"}, "amount", "Amount (€)"),
        ({"kind": "fee", "amount": "99999999", "note": "x"}, "amount", "Amount (€)"),
        ({"kind": "fee", "amount": "1", "note": ""}, "note", "Why"),
        ({"kind": "fee", "amount": "1", "note": "x" * 201}, "note", "Why"),
        ({"kind": "bribe", "amount": "1", "note": "x"}, "kind", "What"),
        ({"kind": "fee", "amount": "1", "note": "x", "season": "77"}, "season", "Season"),
        ({"kind": "payout", "amount": "60", "note": "x"}, "amount", "holds only"),
    ],
)
def test_bad_entries_are_400_naming_the_field(client, league, people, data, field, words):
    deposit(league, people["admin"], 5000)
    login(client, people, "admin")
    response = client.post(url(league, "cashbox_entry"), data)
    assert response.status_code == 400
    errors = response.context["entry_form"].errors
    assert field in errors and words in " ".join(errors[field])
    assert CashboxEntry.objects.count() == 1


def test_bad_counts_are_400_naming_the_field(client, league, people):
    login(client, people, "admin")
    tomorrow = (datetime.date.today() + datetime.timedelta(days=2)).isoformat()
    for data, field in (
        ({"amount": "-1", "counted_on": "2026-11-20"}, "amount"),
        ({"amount": "10", "counted_on": "gestern"}, "counted_on"),
        ({"amount": "10", "counted_on": tomorrow}, "counted_on"),
    ):
        response = client.post(url(league, "cashbox_count"), data)
        assert response.status_code == 400
        assert field in response.context["count_form"].errors
    assert not CashCount.objects.exists()


def test_a_counter_entry_undoes_once_and_never_deletes(client, league, people):
    entry = deposit(league, people["admin"], 5000)
    login(client, people, "admin")
    assert client.post(url(league, "cashbox_counter", pk=entry.pk), {"note": ""}).status_code == 400
    assert client.post(url(league, "cashbox_counter", pk=entry.pk), {"note": "doppelt"}).status_code == 302
    again = client.post(url(league, "cashbox_counter", pk=entry.pk), {"note": "nochmal"})
    assert again.status_code == 400
    assert again.context["counter_form"].non_field_errors() == ["This entry is undone already."]
    assert "This entry is undone already." in again.content.decode()
    counter = CashboxEntry.objects.get(kind=EntryKind.COUNTER)
    assert (counter.cents, counter.counters) == (-5000, entry)
    assert selectors.balance(league=league) == 0
    assert CashboxEntry.objects.count() == 2
    undo_counter = client.post(url(league, "cashbox_counter", pk=counter.pk), {"note": "zurück"})
    assert undo_counter.status_code == 400
    assert client.post(url(league, "cashbox_counter", pk=999999), {"note": "x"}).status_code == 404
