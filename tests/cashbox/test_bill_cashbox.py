"""The season's bill with a share from the cashbox: bounded by the bill and the cashbox,
stored with the bill, written to the ledger in the same transaction, countered when the bill
is replaced."""

import datetime
from decimal import Decimal

import pytest
from django.urls import reverse

from leagues.cashbox import selectors, services
from leagues.models import CashboxEntry, EntryKind, Role, SeasonBill
from tests.bill_steps import save_bill
from tests.factories import LeagueFactory, member
from tests.stats.test_standings_queries import two_meetings

pytestmark = pytest.mark.django_db


@pytest.fixture
def league():
    league = LeagueFactory()
    two_meetings(league)  # Ben 5, Anna 1, Emil 0, Carl 0, Dora -6
    league.seasons.update(closed_on=datetime.date(2026, 2, 13))
    return league


@pytest.fixture
def admin(league):
    user = member(league, Role.ADMIN)
    services.record_entry(league=league, kind=EntryKind.DEPOSIT, cents=8000, note="Kasse", user=user)
    return user


def url(league):
    return reverse("season_bill", kwargs={"slug": league.slug, "number": 1})


def test_the_cashbox_pays_part_and_the_rest_is_split(client, league, admin):
    client.force_login(admin)
    # 200 € + 10 % tip = 220 €; the cashbox pays 70 €, 150 € are split equally: 30 € each.
    data = {"total": "200", "tip_percent": "10", "method": "equal", "from_cashbox": "70"}
    shown = client.get(url(league), data)
    assert shown.status_code == 200
    assert shown.context["result"]["from_cashbox"] == Decimal("70")
    assert {r["share"] for r in shown.context["result"]["rows"]} == {"30.00"}
    assert save_bill(client, url(league), data).status_code == 303
    bill = SeasonBill.objects.get()
    assert (bill.total_with_tip, bill.from_cashbox) == (Decimal("220.00"), Decimal("70.00"))
    assert sum(Decimal(v) for v in bill.shares.values()) == Decimal("150.00")
    entry = CashboxEntry.objects.get(kind=EntryKind.DINNER)
    assert (entry.cents, entry.season, entry.bill) == (-7000, bill.season, bill)
    assert selectors.balance(league=league) == 1000
    page = client.get(url(league)).content.decode()
    share = '<span class="money">70.00\u00a0€</span> from the cashbox; <span class="money">150.00\u00a0€</span>'
    assert share in page


def test_a_replaced_bill_counters_its_entry(client, league, admin):
    client.force_login(admin)
    save_bill(client, url(league), {"total": "100", "method": "equal", "from_cashbox": "50"})
    # The cashbox holds 30 €, but the share of the bill replaced comes back first: 80 €.
    assert save_bill(client, url(league), {"total": "100", "method": "equal", "from_cashbox": "80"}).status_code == 303
    kinds = list(CashboxEntry.objects.order_by("pk").values_list("kind", "cents"))
    assert kinds == [("deposit", 8000), ("dinner", -5000), ("counter", 5000), ("dinner", -8000)]
    assert selectors.balance(league=league) == 0
    assert SeasonBill.objects.current().get().from_cashbox == Decimal("80.00")


def test_a_share_above_the_cashbox_is_400_on_the_field(client, league, admin):
    client.force_login(admin)
    response = client.get(
        url(league), {"total": "100", "method": "equal", "from_cashbox": "80,01"}, HTTP_ACCEPT_LANGUAGE="de"
    )
    assert response.status_code == 400
    assert "80,00" in " ".join(response.context["form"].errors["from_cashbox"])


def test_a_share_above_the_bill_is_400_on_the_field(client, league, admin):
    services.record_entry(league=league, kind=EntryKind.DEPOSIT, cents=100000, note="x", user=admin)
    client.force_login(admin)
    response = client.get(url(league), {"total": "100", "method": "equal", "from_cashbox": "100.01"})
    assert response.status_code == 400
    assert "total with tip, 100.00\u00a0€" in " ".join(response.context["form"].errors["from_cashbox"])
    assert client.post(url(league), {"total": "100", "method": "equal", "from_cashbox": "abc"}).status_code == 400
    assert not SeasonBill.objects.exists()


def test_a_scorekeeper_may_not_take_money_from_the_cashbox(client, league, admin):
    client.force_login(member(league, Role.SCOREKEEPER))
    data = {"total": "100", "method": "equal", "from_cashbox": "10"}
    shown = client.get(url(league), data)
    assert shown.status_code == 200
    response = client.post(url(league), dict(shown.context["save_inputs"]))
    assert response.status_code == 403
    assert "only an admin" in " ".join(response.context["form"].errors["from_cashbox"])
    assert not SeasonBill.objects.exists() and selectors.balance(league=league) == 8000
    assert save_bill(client, url(league), {"total": "100", "method": "equal"}).status_code == 303


def test_the_debtor_of_a_stored_bill_gets_a_link_to_pay_by_scan(client, league, admin):
    client.force_login(admin)
    ben = league.players.get(name="Ben")
    save_bill(client, url(league), {"total": "100", "method": "equal", "paid_by": str(ben.pk), "from_cashbox": "50"})
    bill = SeasonBill.objects.get()
    assert bill.paid == {"Ben": "50.00"}
    me = league.players.get(user=admin)
    me.name, me.active = "Anna2", True
    anna = league.players.get(name="Anna")
    anna.user, me.user = admin, None
    me.save()
    anna.save()
    transfers = client.get(url(league)).context["stored"]["transfers"]
    mine = [t for t in transfers if t["from"] == "Anna"]
    assert (
        mine
        and mine[0]["pay_url"]
        == reverse("pay_by_scan", kwargs={"slug": league.slug, "player_id": ben.pk}) + "?amount=10.00&season=1"
    )
    assert all("pay_url" not in t for t in transfers if t["from"] != "Anna")


def test_a_bill_with_a_cashbox_share_goes_through_an_export_and_back(client, league, admin):
    from leagues.exchange.import_bills import import_bill
    from leagues.exchange.import_checks import ImportProblem
    from tests.exchange.files import exported

    client.force_login(admin)
    data = {"total": "100", "method": "per_point", "cents_per_point": "50", "from_cashbox": "40"}
    save_bill(client, url(league), data)
    original = SeasonBill.objects.get()
    item = exported(league)["seasons"][0]["bills"][0]
    assert item["from_cashbox"] == "40.00"
    players = {p.name: p for p in league.players.all()}

    def player(name, where, required=True):
        return players.get(name)

    item["replaced_at"] = "2026-02-14T10:00:00+00:00"  # beside the bill in force
    copy = import_bill(item, "bills[1]", original.season, player)
    assert (copy.from_cashbox, copy.shares, copy.total_with_tip) == (
        original.from_cashbox,
        original.shares,
        original.total_with_tip,
    )
    with pytest.raises(ImportProblem, match="shares"):
        import_bill({**item, "from_cashbox": "39.00"}, "bills[1]", original.season, player)


def test_a_debtor_of_a_stored_bill_sees_his_creditors_iban_and_nobody_else_does(client, league, admin):
    client.force_login(admin)
    ben, carl = league.players.get(name="Ben"), league.players.get(name="Carl")
    save_bill(client, url(league), {"total": "100", "method": "equal", "paid_by": str(ben.pk), "from_cashbox": "50"})
    transfers = SeasonBill.objects.get().transfers
    assert {"from": "Carl", "to": "Ben"} in [{k: t[k] for k in ("from", "to")} for t in transfers]
    ben.user, carl.user = member(league, Role.MEMBER), member(league, Role.MEMBER)
    league.players.filter(user__in=[ben.user, carl.user]).delete()  # member()'s own players
    ben.save()
    carl.save()
    # Carl owes Ben on the bill in force: he may see Ben's IBAN to pay him by scan.
    assert selectors.iban_visible_to(viewer=carl.user, owner=ben.user, league=league)
    # Ben owes Carl nothing: Carl's IBAN stays hidden from him.
    assert not selectors.iban_visible_to(viewer=ben.user, owner=carl.user, league=league)


def test_the_bill_service_refuses_a_cashbox_share_from_anyone_but_an_admin(league, admin):
    from django.core.exceptions import PermissionDenied

    from leagues.seasons import services as season_services

    scorekeeper = member(league, Role.SCOREKEEPER)
    season = league.seasons.get(number=1)
    bill = {"total": "100", "method": "equal", "from_cashbox": "10"}
    with pytest.raises(PermissionDenied):
        season_services.settle_bill(season=season, bill=bill, user=scorekeeper)
    assert not SeasonBill.objects.exists() and selectors.balance(league=league) == 8000
