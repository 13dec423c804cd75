"""The season report's money: per player what the season's evenings won or lost, the fees and
what is still to pay, and the cashbox's in and out for the season with the dinner's part.
Members see it; the public link never shows money.

Two evenings of test_settlement's hands (5 cents a point between the players, 0,50 € a lost
solo) and a fee of 1 € an evening each. Each evening: points Anna −10, Ben +10, Carl −30,
Dora +30 cents; fees 100 each, Carl 50 more for his lost solo. Over the two:

- won/lost: Anna −0,20 €, Ben +0,20 €, Carl −0,60 €, Dora +0,60 €;
- fees: Anna, Ben, Dora 2,00 € each, Carl 3,00 €;
- the first evening paid in full, the second not: still to pay Anna 0,10 € (to Ben) + 1,00 €
  = 1,10 €, Ben 1,00 €, Carl 0,30 € (to Dora) + 1,50 € = 1,80 €, Dora 1,00 €.

The cashbox: the first evening's 4,50 € (1 + 1 + 1,50 + 1), a deposit of 80 € for the season
(and one of 5 € for no season, left out), and 70 € of the dinner: in 84,50 €, out 70,00 €,
of that the dinner 70,00 €. The standings (Dora +12, Ben +4, Anna −4, Carl −12) give the order.
"""

import datetime
from decimal import Decimal

import pytest
from django.urls import reverse

from leagues.cashbox import services, settlement
from leagues.models import EntryKind, Role
from tests.bill_steps import save_bill
from tests.cashbox.test_settlement import closed_evening
from tests.factories import LeagueFactory, member

pytestmark = pytest.mark.django_db

MONEY = {"per_point": "between_players", "rate": "5", "per_lost_solo": 50, "per_evening": 100}


@pytest.fixture
def league():
    return LeagueFactory(slug="geld", public_token="g" * 32, money_rules=MONEY)


@pytest.fixture
def admin(league):
    return member(league, Role.ADMIN)


@pytest.fixture
def season(league, admin):
    first = closed_evening(league, admin, date=datetime.date(2026, 1, 9))
    closed_evening(league, admin, date=datetime.date(2026, 1, 16))
    for line in settlement.evening_settlement(meeting=first).open:
        services.tick_payment(meeting=first, key=line.key, paid_how="cash", user=admin)
    season = first.season
    services.record_entry(league=league, kind=EntryKind.DEPOSIT, cents=8000, note="Kasse", user=admin, season=season)
    services.record_entry(league=league, kind=EntryKind.DEPOSIT, cents=500, note="Spende", user=admin)
    return season


def report_url(league, season):
    return reverse("season_report", kwargs={"slug": league.slug, "number": season.number})


def close_with_dinner(client, league, season, admin):
    league.seasons.update(closed_on=datetime.date(2026, 2, 13))
    client.force_login(admin)
    bill_url = reverse("season_bill", kwargs={"slug": league.slug, "number": season.number})
    data = {"total": "200", "tip_percent": "0", "method": "equal", "from_cashbox": "70"}
    assert save_bill(client, bill_url, data).status_code == 303


def test_the_report_shows_the_seasons_money(client, league, season, admin):
    close_with_dinner(client, league, season, admin)
    money = client.get(report_url(league, season)).context["money"]
    rows = [(p.name, p.won_cents, p.fee_cents, p.open_cents) for p in money.players]
    assert rows == [
        ("Dora", 60, 200, 100),
        ("Ben", 20, 200, 100),
        ("Anna", -20, 200, 110),
        ("Carl", -60, 300, 180),
    ]
    assert money.evenings == 2
    assert (money.into_cashbox, money.out_of_cashbox, money.dinner) == (
        Decimal("84.50"),
        Decimal("70.00"),
        Decimal("70.00"),
    )


def test_the_report_prints_it_in_german(client, league, season, admin):
    client.force_login(admin)
    page = client.get(report_url(league, season), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    section = page[page.index('id="season-money"') :]
    assert '+<span class="money">0,60\u00a0€' in section and "3,00\u00a0€" in section and "1,80\u00a0€" in section
    assert "84,50\u00a0€" in section  # the dinner is not paid yet: out 0,00 €


@pytest.mark.parametrize(
    ("who", "sees"),
    [("member", True), ("scorekeeper", True), ("admin", True), ("stranger", False), ("anonymous", False)],
)
def test_who_sees_the_money(client, league, season, who, sees):
    user = {"stranger": member(LeagueFactory(), Role.ADMIN), "anonymous": None}.get(who)
    if who in ("member", "scorekeeper", "admin"):
        user = member(league, {"member": Role.MEMBER, "scorekeeper": Role.SCOREKEEPER, "admin": Role.ADMIN}[who])
    if user is not None:
        client.force_login(user)
    response = client.get(report_url(league, season))
    assert (response.status_code == 200 and 'id="season-money"' in response.content.decode()) is sees


def test_the_public_report_never_shows_money(client, league, season, admin):
    close_with_dinner(client, league, season, admin)
    client.logout()
    url = reverse("public_season_report", kwargs={"token": league.public_token, "number": season.number})
    response = client.get(url)
    page = response.content.decode()
    assert response.status_code == 200 and response.context["money"] is None
    assert 'id="season-money"' not in page and "€" not in page


def test_a_league_without_money_has_no_money_section(client, admin):
    league = LeagueFactory(slug="ohne")
    boss = member(league, Role.ADMIN)
    meeting = closed_evening(league, boss)
    client.force_login(boss)
    response = client.get(report_url(league, meeting.season))
    assert response.context["money"] is None and 'id="season-money"' not in response.content.decode()
