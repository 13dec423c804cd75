"""An evening's settlement: derived from its results under the money rules it was played
under, shown on its page once closed, ticked as paid (into the cashbox's ledger too), still
open on the next evening's page and the player's page, and corrected by new lines.

The evening (Doppelkopf, club rules; each hand's value worked out by the rule book):

1. Re Ben + Dora, 131 eyes: Re wins, "won" 1 → Ben, Dora +1; Anna, Carl −1.
2. the same again → Ben, Dora +2; Anna, Carl −2.
3. Re Anna + Ben, 100 eyes: Kontra (Carl, Dora) wins with 140: "won" 1 + "against the
   elders" 1 = 2 → Carl, Dora +2; Anna, Ben −2.
4. Carl's queen solo, 100 eyes: lost, 1 + 1 = 2, times three for the soloist → Carl −6;
   Anna, Ben, Dora +2.

Totals: Anna −1 −1 −2 +2 = −2; Ben +1 +1 −2 +2 = +2; Carl −1 −1 +2 −6 = −6;
Dora +1 +1 +2 +2 = +6 (sum 0, so the mean is 0).

At 5 cents a point between the players: Anna −10 ct, Ben +10 ct, Carl −30 ct, Dora +30 ct.
The fewest transfers pair equal debts first: Anna → Ben 0,10 €, Carl → Dora 0,30 €. A lost
solo costs 0,50 € into the cashbox: Carl → cashbox 0,50 €.
"""

import datetime

import pytest
from django.urls import reverse

from leagues.cashbox import services, settlement
from leagues.models import CashboxEntry, EntryKind, Hand, Payment, Player
from leagues.table import meetings as table_meetings
from leagues.table import services as table_services
from tests.cashbox.conftest import login
from tests.factories import meeting_for

pytestmark = pytest.mark.django_db

FOUR = ["Anna", "Ben", "Carl", "Dora"]
HANDS = [
    {"kind": "normal", "re": ["Ben", "Dora"], "re_eyes": 131},
    {"kind": "normal", "re": ["Ben", "Dora"], "re_eyes": 131},
    {"kind": "normal", "re": ["Anna", "Ben"], "re_eyes": 100},
    {"kind": "solo", "solo": "damen", "re": ["Carl"], "re_eyes": 100},
]
MONEY = {"per_point": "between_players", "rate": "5", "per_lost_solo": 50}


def closed_evening(league, keeper, *, date=datetime.date(2026, 1, 9), hands=HANDS):
    """An evening of ``hands`` after its end time: the fourth hand ends the round and closes it."""
    meeting = meeting_for(league, FOUR, date=date, end_time=datetime.time(22, 0))
    for payload in hands:
        table_services.enter_hand(meeting=meeting, payload=payload, by=keeper)
    meeting.refresh_from_db()
    assert meeting.closed_at is not None
    return meeting


@pytest.fixture
def evening(league, people):
    league.money_rules = MONEY
    league.save()
    return closed_evening(league, people["scorekeeper"])


def lines(opens):
    return [(o.payer.name if o.payer else None, o.payee.name if o.payee else None, o.cents) for o in opens]


def test_the_evening_settles_at_five_cents_a_point(evening):
    money = settlement.evening_settlement(meeting=evening)
    assert money.totals == {"Anna": -2, "Ben": 2, "Carl": -6, "Dora": 6}
    assert dict(money.settlement.nets) == {"Anna": -10, "Ben": 10, "Carl": -80, "Dora": 30}
    assert money.settlement.cashbox == 50
    assert lines(money.open) == [("Anna", "Ben", 10), ("Carl", "Dora", 30), ("Carl", None, 50)]
    assert not money.corrected


def test_an_open_evening_or_one_without_money_settles_nothing(league, people):
    meeting = meeting_for(league, FOUR)
    assert settlement.evening_settlement(meeting=meeting) is None  # no money rules, not closed
    league.money_rules = MONEY
    league.save()
    meeting = meeting_for(league, FOUR, date=datetime.date(2026, 11, 21))
    assert settlement.evening_settlement(meeting=meeting) is None  # not closed yet


def test_the_closed_evening_page_shows_the_card(client, evening, people):
    login(client, people, "member")
    page = client.get(evening.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert 'id="settling"' in page
    assert "0,05\u00a0€" in page  # the rate
    assert "0,30\u00a0€" in page and "0,50\u00a0€" in page
    assert "settle_tick" not in page and 'name="payment"' not in page  # a member does not tick


def tick_url(meeting):
    return reverse("settle_tick", kwargs={"slug": meeting.league.slug, "pk": meeting.pk})


@pytest.mark.parametrize(
    ("who", "status", "ticked"),
    [
        ("anonymous", 302, False),
        ("stranger", 404, False),
        ("member", 403, False),
        ("scorekeeper", 302, True),
        ("admin", 302, True),
    ],
)
def test_who_ticks_a_payment(client, evening, people, who, status, ticked):
    login(client, people, who)
    anna, ben = Player.objects.get(name="Anna"), Player.objects.get(name="Ben")
    response = client.post(tick_url(evening), {"payment": f"{anna.pk}-{ben.pk}-10", "paid_how": "cash"})
    assert response.status_code == status
    assert Payment.objects.exists() is ticked
    if ticked:
        payment = Payment.objects.get()
        assert (payment.payer, payment.payee, payment.cents, payment.paid_how) == (anna, ben, 10, "cash")
        assert payment.ticked_by == people[who] and payment.cashbox_entry is None
        money = settlement.evening_settlement(meeting=evening)
        assert lines(money.open) == [("Carl", "Dora", 30), ("Carl", None, 50)]


def test_ticking_into_the_cashbox_records_the_entry(evening, people):
    carl = Player.objects.get(name="Carl")
    payment = services.tick_payment(
        meeting=evening, key=f"{carl.pk}-box-50", paid_how="transfer", user=people["scorekeeper"]
    )
    entry = CashboxEntry.objects.get()
    assert payment.cashbox_entry == entry
    assert (entry.kind, entry.cents, entry.meeting, entry.season) == (EntryKind.EVENING, 50, evening, evening.season)
    assert "Carl" in entry.note


def test_a_payment_no_longer_open_is_refused(client, evening, people):
    login(client, people, "scorekeeper")
    anna, ben = Player.objects.get(name="Anna"), Player.objects.get(name="Ben")
    key = f"{anna.pk}-{ben.pk}-10"
    client.post(tick_url(evening), {"payment": key, "paid_how": "cash"})
    again = client.post(tick_url(evening), {"payment": key, "paid_how": "cash"})
    wrong = client.post(tick_url(evening), {"payment": f"{anna.pk}-{ben.pk}-11", "paid_how": "cash"})
    how = client.post(tick_url(evening), {"payment": f"{Player.objects.get(name='Carl').pk}-box-50", "paid_how": "iou"})
    assert (again.status_code, wrong.status_code, how.status_code) == (303, 303, 303)
    assert Payment.objects.count() == 1 and not CashboxEntry.objects.exists()


def test_a_correction_after_ticking_shows_the_difference(evening, people):
    """Everything paid, then hand 1 is corrected: Re (Ben, Dora) had 110 eyes, so Kontra wins
    with 130, "won" 1 + "against the elders" 1 = 2: Anna, Carl +2, Ben, Dora −2 instead of
    −1/+1, a change of 3 each. Totals: Anna +1, Ben −1, Carl −3, Dora +3; at 5 ct Anna +5,
    Ben −5, Carl −15, Dora +15. Paid were Anna → Ben 10, Carl → Dora 30, so Anna is owed
    5 + 10 = 15, Carl 30 − 15 = 15, Ben owes 15 and Dora 15: Ben → Anna 0,15 €,
    Dora → Carl 0,15 €. The lost solo's 0,50 € stays paid."""
    keeper, admin = people["scorekeeper"], people["admin"]
    for o in settlement.evening_settlement(meeting=evening).open:
        services.tick_payment(meeting=evening, key=o.key, paid_how="cash", user=keeper)
    assert settlement.evening_settlement(meeting=evening).open == []
    paid = list(Payment.objects.values_list("payer__name", "payee__name", "cents"))
    table_meetings.reopen_meeting(meeting=evening, user=admin, reason="Hand 1 was Kontra's")
    hand = Hand.objects.get(meeting=evening, number=1)
    table_services.change_hand(
        hand=hand, payload={"kind": "normal", "re": ["Ben", "Dora"], "re_eyes": 110}, by=admin, version=hand.version
    )
    table_meetings.close_meeting(meeting=evening, user=admin)
    evening.refresh_from_db()
    money = settlement.evening_settlement(meeting=evening)
    assert money.totals == {"Anna": 1, "Ben": -1, "Carl": -3, "Dora": 3}
    assert money.corrected
    assert lines(money.open) == [("Ben", "Anna", 15), ("Dora", "Carl", 15)]
    assert all(o.correction for o in money.open)
    assert list(Payment.objects.values_list("payer__name", "payee__name", "cents")) == paid  # never rewritten


def test_what_is_open_shows_on_the_next_evening_and_the_players_page(client, league, evening, people):
    login(client, people, "member")
    following = meeting_for(league, FOUR, date=datetime.date(2026, 1, 16))
    page = client.get(following.get_absolute_url()).content.decode()
    assert "Still open from earlier evenings" in page
    carl = Player.objects.get(name="Carl")
    assert lines(settlement.evening_and_before(meeting=following)[1]) == [
        ("Anna", "Ben", 10),
        ("Carl", "Dora", 30),
        ("Carl", None, 50),
    ]
    assert lines(settlement.open_for(player=carl)) == [("Carl", "Dora", 30), ("Carl", None, 50)]
    url = reverse("player_statistics", kwargs={"slug": league.slug, "pk": carl.pk})
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert 'id="money-open"' in page and "0,30\u00a0€" in page and "0,50\u00a0€" in page
    assert "0,10\u00a0€" not in page  # Anna's debt to Ben is not Carl's
