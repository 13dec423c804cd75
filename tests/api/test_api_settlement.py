"""An evening's settlement in the API: read by every member, ticked by scorekeepers and
admins (a refund out of the cashbox by admins), through the same service as the evening's
card; a tick sent twice records once; an IBAN only to the payer who owes it.

The evening is tests/cashbox/test_settlement.py's: at 5 cents a point between the players
and 0,50 € a lost solo into the cashbox, Anna → Ben 0,10 €, Carl → Dora 0,30 €,
Carl → cashbox 0,50 €.
"""

import json

import pytest

from leagues.cashbox import services
from leagues.models import CashboxEntry, Membership, Payment, Player
from tests.cashbox.conftest import league, login, people  # noqa: F401 (fixtures)
from tests.cashbox.test_settlement import MONEY, closed_evening
from tests.factories import meeting_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def evening(league, people):  # noqa: F811
    league.money_rules = MONEY
    league.save()
    return closed_evening(league, people["scorekeeper"])


def url(meeting, suffix=""):
    return f"/api/v1/leagues/{meeting.league.slug}/meetings/{meeting.pk}/settlement/{suffix}"


def tick(client, meeting, body):
    return client.post(url(meeting, "payments/"), data=json.dumps(body), content_type="application/json")


def pk(name):
    return Player.objects.get(name=name).pk


def between(payer, payee, amount, how="cash"):
    return {"payer": payer and pk(payer), "payee": payee and pk(payee), "amount": amount, "paid_how": how}


# who: (read, tick between players, tick into the cashbox, refund out of it)
MATRIX = {
    "anonymous": (403, 403, 403),
    "stranger": (404, 404, 404),
    "member": (200, 403, 403),
    "scorekeeper": (200, 201, 201),
    "admin": (200, 201, 201),
}


@pytest.mark.parametrize("who", MATRIX)
def test_who_may_read_and_tick(client, evening, people, who):  # noqa: F811
    login(client, people, who)
    answers = (
        client.get(url(evening)).status_code,
        tick(client, evening, between("Anna", "Ben", "0.10")).status_code,
        tick(client, evening, between("Carl", None, "0.50", "transfer")).status_code,
    )
    assert answers == MATRIX[who]
    assert Payment.objects.count() == (2 if MATRIX[who][1] == 201 else 0)


@pytest.mark.parametrize(("who", "status"), [("member", 403), ("scorekeeper", 403), ("admin", 400)])
def test_money_out_of_the_cashbox_is_an_admins(client, evening, people, who, status):  # noqa: F811
    """No refund is open here: an admin gets the 400 of a payment not open, the others 403 first."""
    login(client, people, who)
    response = tick(client, evening, between(None, "Carl", "0.50"))
    assert response.status_code == status
    if status == 400:
        assert response.json()["errors"][0]["field"] == "payment"


def test_the_settlement_reads_as_the_card_shows_it(client, evening, people):  # noqa: F811
    login(client, people, "member")
    body = client.get(url(evening)).json()
    assert (body["meeting"], body["closed"], body["settles"], body["corrected"]) == (evening.pk, True, True, False)
    assert [(t["player"]["name"], t["total"], t["net"]) for t in body["totals"]] == [
        ("Anna", -2, "-0.10"),
        ("Ben", 2, "0.10"),
        ("Carl", -6, "-0.80"),
        ("Dora", 6, "0.30"),
    ]
    assert (body["cashbox"], body["cashbox_cents"], body["rules"]["per_point"]) == ("0.50", 50, "between_players")
    assert [
        (o["payer"] and o["payer"]["name"], o["payee"] and o["payee"]["name"], o["amount"]) for o in body["open"]
    ] == [
        ("Anna", "Ben", "0.10"),
        ("Carl", "Dora", "0.30"),
        ("Carl", None, "0.50"),
    ]
    assert body["paid"] == [] and all(o["pay_to"] is None for o in body["open"])
    assert {line["reason"] for line in body["lines"]} == {"points", "lost solo"}
    assert "iban" not in json.dumps(body).lower()


def test_a_tick_sent_twice_records_once(client, evening, people):  # noqa: F811
    login(client, people, "scorekeeper")
    first = tick(client, evening, between("Carl", None, "0.50", "transfer"))
    again = tick(client, evening, between("Carl", None, "0.50", "cash"))
    assert (first.status_code, again.status_code) == (201, 200)
    assert first.json() == again.json()  # the existing tick, paid by transfer
    assert first.json()["paid_how"] == "transfer" and first.json()["cashbox_entry"] is not None
    assert Payment.objects.count() == 1 and CashboxEntry.objects.count() == 1
    body = client.get(url(evening)).json()
    assert [p["amount"] for p in body["paid"]] == ["0.50"] and len(body["open"]) == 2


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"payer": None, "payee": None, "amount": "0.10", "paid_how": "cash"}, "payer"),
        ({"payee": 1, "amount": "0.10", "paid_how": "cash"}, "payer"),
        ({"payer": 1, "payee": 2, "amount": "0,10", "paid_how": "cash"}, "amount"),
        ({"payer": 1, "payee": 2, "amount": 0.1, "paid_how": "cash"}, "amount"),
        ({"payer": 1, "payee": 2, "amount": "0.00", "paid_how": "cash"}, "amount"),
        ({"payer": 1, "payee": 2, "amount": "0.10", "paid_how": "iou"}, "paid_how"),
        ({"payer": 1, "payee": 2, "amount": "0.10"}, "paid_how"),
        ({"payer": "١", "payee": 2, "amount": "0.10", "paid_how": "cash"}, "payer"),
        ({"payer": 2**40, "payee": 2, "amount": "0.10", "paid_how": "cash"}, "payer"),
        ({"payer": 1, "payee": 2, "amount": "0.11", "paid_how": "cash"}, "payment"),
    ],
)
def test_bad_ticks_are_400_naming_the_field(client, evening, people, body, field):  # noqa: F811
    login(client, people, "admin")
    response = tick(client, evening, body)
    assert response.status_code == 400
    assert field in [e["field"] for e in response.json()["errors"]]
    assert not Payment.objects.exists()


def test_an_evening_that_settles_nothing(client, league, people):  # noqa: F811
    meeting = meeting_for(league, ["Anna", "Ben", "Carl", "Dora"])
    login(client, people, "admin")
    body = client.get(url(meeting)).json()
    assert (body["settles"], body["closed"], body["open"], body["totals"]) == (False, False, [], [])
    response = tick(client, meeting, between("Anna", "Ben", "0.10"))
    assert (response.status_code, response.json()["errors"][0]["field"]) == (400, "meeting")
    assert client.get(url(meeting).replace(str(meeting.pk), "999999")).status_code == 404


def test_the_iban_goes_to_the_payer_alone(client, evening, people):  # noqa: F811
    """Dora is the scorekeeper's player and has stored her IBAN; Carl, the member's, owes her
    0,30 €: he reads her account on his open line, nobody else reads it."""
    keeper, payer = people["scorekeeper"], people["member"]
    Player.objects.filter(user__in=[keeper, payer]).delete()
    Player.objects.filter(name="Dora").update(user=keeper)
    Player.objects.filter(name="Carl").update(user=payer)
    services.save_bank_account(
        membership=Membership.objects.get(user=keeper), iban="DE89 3704 0044 0532 0130 00", holder="Dora D"
    )
    login(client, people, "member")
    body = client.get(url(evening)).json()
    pay_to = {(o["payer"]["name"], o["payee"] and o["payee"]["name"]): o["pay_to"] for o in body["open"]}
    assert pay_to[("Carl", "Dora")] == {"holder": "Dora D", "iban": "DE89370400440532013000"}
    assert pay_to[("Anna", "Ben")] is None and pay_to[("Carl", None)] is None
    for who in ("scorekeeper", "admin"):
        login(client, people, who)
        assert "DE89" not in client.get(url(evening)).content.decode()
