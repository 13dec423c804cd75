"""The cashbox in the API: the same roles as the ledger page, errors in the API's one shape."""

import json

import pytest

from leagues.cashbox import services
from leagues.models import CashboxEntry, CashCount, EntryKind
from tests.cashbox.conftest import login

pytestmark = pytest.mark.django_db


def url(league, suffix=""):
    return f"/api/v1/leagues/{league.slug}/cashbox/{suffix}"


def post(client, path, body):
    return client.post(path, data=json.dumps(body), content_type="application/json")


# who: (read, money in, money out, counter, count)
MATRIX = {
    "anonymous": (403, 403, 403, 403, 403),
    "stranger": (404, 404, 404, 404, 404),
    "member": (200, 403, 403, 403, 403),
    "scorekeeper": (200, 201, 403, 403, 403),
    "admin": (200, 201, 201, 201, 201),
}


@pytest.mark.parametrize("who", MATRIX)
def test_who_may_read_and_record(client, league, people, who):
    first = services.record_entry(league=league, kind=EntryKind.DEPOSIT, cents=5000, note="x", user=people["admin"])
    login(client, people, who)
    answers = (
        client.get(url(league)).status_code,
        post(client, url(league, "entries/"), {"kind": "fee", "amount": "2.50", "note": "Beitrag"}).status_code,
        post(client, url(league, "entries/"), {"kind": "payout", "amount": "3", "note": "Preis"}).status_code,
        post(client, url(league, f"entries/{first.pk}/counter/"), {"note": "doppelt"}).status_code,
        post(client, url(league, "counts/"), {"amount": "49.50", "counted_on": "2026-11-20"}).status_code,
    )
    assert answers == MATRIX[who]


def test_the_ledger_reads_as_the_page_shows_it(client, league, people):
    admin = people["admin"]
    login(client, people, "admin")
    assert (
        post(client, url(league, "entries/"), {"kind": "deposit", "amount": "50", "note": "Start"}).status_code == 201
    )
    assert post(client, url(league, "counts/"), {"amount": "49.90", "counted_on": "2026-11-20"}).status_code == 201
    body = post(client, url(league, "entries/"), {"kind": "purchase", "amount": "12.30", "note": "Karten"}).json()
    assert (body["amount"], body["cents"], body["kind"], body["recorded_by"]) == (
        "-12.30",
        -1230,
        "purchase",
        admin.first_name,
    )
    login(client, people, "member")
    ledger = client.get(url(league)).json()
    assert (ledger["balance"], ledger["balance_at_count"], ledger["difference"]) == ("37.70", "50.00", "-0.10")
    assert [e["kind"] for e in ledger["entries"]] == ["purchase", "deposit"]
    assert ledger["latest_count"]["amount"] == "49.90" and ledger["entries_total"] == 2


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"kind": "fee", "amount": "2,50", "note": "x"}, "amount"),
        ({"kind": "fee", "amount": 2.5, "note": "x"}, "amount"),
        ({"kind": "fee", "amount": "0.00", "note": "x"}, "amount"),
        ({"kind": "fee", "amount": "1.001", "note": "x"}, "amount"),
        ({"kind": "fee", "amount": "1000000.01", "note": "x"}, "amount"),
        ({"kind": "fee", "amount": "1", "note": ""}, "note"),
        ({"kind": "fee", "amount": "1", "note": "   "}, "note"),
        ({"kind": "fee", "amount": "1"}, "note"),
        ({"kind": "counter", "amount": "1", "note": "x"}, "kind"),
        ({"kind": "fee", "amount": "1", "note": "x", "season": 5}, "season"),
        ({"kind": "fee", "amount": "1", "note": "x", "meeting": 5}, "meeting"),
        ({"kind": "fee", "amount": "1", "note": "x", "meeting": "١٢"}, "meeting"),
        ({"kind": "purchase", "amount": "1", "note": "x"}, "amount"),
    ],
)
def test_bad_entries_are_400_naming_the_field(client, league, people, body, field):
    login(client, people, "admin")
    response = post(client, url(league, "entries/"), body)
    assert response.status_code == 400
    assert field in [e["field"] for e in response.json()["errors"]]
    assert not CashboxEntry.objects.exists()


def test_bad_counts_and_counters_are_4xx_naming_the_field(client, league, people):
    login(client, people, "admin")
    assert (
        post(client, url(league, "counts/"), {"amount": "-1", "counted_on": "2026-11-20"}).json()["errors"][0]["field"]
        == "amount"
    )
    assert post(client, url(league, "counts/"), {"amount": "1"}).json()["errors"][0]["field"] == "counted_on"
    future = post(client, url(league, "counts/"), {"amount": "1", "counted_on": "2999-01-01"})
    assert (future.status_code, future.json()["errors"][0]["field"]) == (400, "counted_on")
    missing = post(client, url(league, "entries/999/counter/"), {"note": "x"})
    assert (missing.status_code, missing.json()["errors"][0]["field"]) == (404, "entry")
    assert not CashCount.objects.exists()


@pytest.mark.parametrize("note", [0, 1.5, True, ["x"], {"x": 1}])
def test_it_refuses_a_note_that_is_not_text(client, league, people, note):
    entry = services.record_entry(league=league, kind=EntryKind.DEPOSIT, cents=5000, note="x", user=people["admin"])
    login(client, people, "admin")
    answers = [
        post(client, url(league, "entries/"), {"kind": "deposit", "amount": "12.30", "note": note}),
        post(client, url(league, f"entries/{entry.pk}/counter/"), {"note": note}),
        post(client, url(league, "counts/"), {"amount": "12.30", "counted_on": "2026-11-28", "note": note}),
    ]
    assert [a.status_code for a in answers] == [400, 400, 400]
    assert all(error["field"] == "note" for a in answers for error in a.json()["errors"])
    assert CashboxEntry.objects.filter(league=league).count() == 1 and not CashCount.objects.exists()
