"""The league's money on its activity page: an entry into and out of the cashbox, an entry
undone, a count and a payment ticked, each a card in the players' words; the entry a tick
records is told by the tick's card alone."""

import datetime

import pytest
from django.urls import reverse

from leagues.cashbox import services
from leagues.models import Player
from leagues.stats import activity
from tests.cashbox.conftest import login
from tests.cashbox.test_settlement import MONEY, closed_evening

pytestmark = pytest.mark.django_db

T0 = datetime.datetime(2026, 1, 10, 19, 0, tzinfo=datetime.timezone.utc)


def at(minutes):
    return T0 + datetime.timedelta(minutes=minutes)


@pytest.fixture
def money(league, people):
    league.money_rules = MONEY
    league.save()
    admin, keeper = people["admin"], people["scorekeeper"]
    evening = closed_evening(league, keeper)
    carl = Player.objects.get(name="Carl")
    services.tick_payment(meeting=evening, key=f"{carl.pk}-box-50", paid_how="transfer", user=keeper, now=at(1))
    deposit = services.record_entry(league=league, kind="deposit", cents=5000, note="Start", user=admin, now=at(2))
    services.record_entry(league=league, kind="purchase", cents=1230, note="Karten", user=admin, now=at(3))
    services.counter_entry(league=league, entry_id=deposit.pk, note="doppelt", user=admin, now=at(4))
    services.record_count(league=league, cents=3820, counted_on=datetime.date(2026, 1, 10), note="Dose", user=admin)
    return evening


def money_cards(league, **kwargs):
    page = activity.activity_page(league=league, **kwargs)
    return [(e.badge, e.title, e.summary, e.who) for e in page.events if e.is_money], page


def test_every_money_event_is_a_card_in_the_players_words(league, people, money):
    cards, _page = money_cards(league)
    admin, keeper = people["admin"].first_name, people["scorekeeper"].first_name
    assert cards == [
        ("cashbox counted", "Cashbox", "38.20\u00a0€ counted on 10 Jan 2026 · Dose", admin),
        ("cashbox entry undone", "Cashbox", "deposit: 50.00\u00a0€ · doppelt", admin),
        ("out of the cashbox", "Cashbox", "purchase: -12.30\u00a0€ · Karten", admin),
        ("into the cashbox", "Cashbox", "deposit: 50.00\u00a0€ · Start", admin),
        ("ticked as paid", "Settling up", "Carl to the cashbox: 0.50\u00a0€, by transfer", keeper),
    ]  # the tick's own cashbox entry is not a card of its own


def test_the_money_pages_by_the_cursor(league, money):
    """Pages of two: every money event once, in order, across the pages."""
    seen, cursor = [], None
    while True:
        cards, page = money_cards(league, cursor=cursor and activity.parse_cursor(cursor), size=2)
        seen += [badge for badge, *_rest in cards]
        if page.older is None:
            break
        cursor = page.older
    every, _page = money_cards(league)
    assert seen == [badge for badge, *_rest in every]


@pytest.mark.parametrize(("who", "status"), [("anonymous", 302), ("stranger", 404), ("member", 200), ("admin", 200)])
def test_the_page_shows_the_money_in_german(client, league, people, money, who, status):
    login(client, people, who)
    response = client.get(reverse("league_activity", kwargs={"slug": league.slug}), HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == status
    if status == 200:
        page = response.content.decode()
        assert "Carl" in page and "0,50\u00a0€" in page and "38,20\u00a0€" in page
        assert money.get_absolute_url() in page  # the tick names its evening
        assert "DE89" not in page


def test_a_cursor_of_a_money_source_reads_back():
    cursor = activity.Cursor(T0, activity.PAYMENT, 7)
    assert activity.parse_cursor(cursor.token()) == cursor
    with pytest.raises(ValueError):
        activity.parse_cursor(f"1-{activity.LAST_SOURCE + 1}-1")
