"""Who sees a member's IBAN once evenings are settled: the owner, the league's admins, and a
member who owes him money on an open payment of some evening (until it is ticked paid);
never a member who owes someone else, one who is owed, or anyone outside the league. The
evening page's pay-by-scan link goes to the payer alone."""

import pytest
from django.urls import reverse

from leagues.cashbox import selectors, services, settlement
from leagues.models import Membership, Player, Role
from tests.cashbox.conftest import login
from tests.cashbox.test_settlement import FOUR, MONEY, closed_evening
from tests.factories import LeagueFactory, UserFactory, member

pytestmark = pytest.mark.django_db

IBAN = "DE89 3704 0044 0532 0130 00"


@pytest.fixture
def table(league):
    """The settled evening of test_settlement (Anna → Ben 0,10 €, Carl → Dora 0,30 €, Carl →
    cashbox 0,50 €), each player a member with an account of his own; Dora stores an IBAN."""
    league.money_rules = MONEY
    league.save()
    users = {}
    for name in FOUR:
        users[name] = UserFactory(username=name.lower(), first_name=name)
        Membership.objects.create(league=league, user=users[name], role=Role.MEMBER)
        Player.objects.create(league=league, name=name, user=users[name])
    services.save_bank_account(membership=Membership.objects.get(user=users["Dora"]), iban=IBAN, holder="Dora D")
    users["admin"] = member(league, Role.ADMIN)
    users["keeper"] = member(league, Role.SCOREKEEPER)
    users["stranger"] = member(LeagueFactory(), Role.ADMIN)
    users["meeting"] = closed_evening(league, users["keeper"])
    return users


@pytest.mark.parametrize(
    ("who", "visible"),
    [
        ("Dora", True),  # the owner
        ("Carl", True),  # owes her 0,30 €
        ("Anna", False),  # owes Ben, not her
        ("Ben", False),  # is owed, owes nothing
        ("keeper", False),  # a scorekeeper who owes nothing
        ("admin", True),
        ("stranger", False),  # another league's admin
    ],
)
def test_the_iban_access_matrix(client, league, table, who, visible):
    dora = table["Dora"]
    assert selectors.iban_visible_to(viewer=table[who], owner=dora, league=league) is visible
    client.force_login(table[who])
    dora_player = Player.objects.get(league=league, user=dora)
    path = reverse("pay_qr", kwargs={"slug": league.slug, "player_id": dora_player.pk})
    status = client.get(path, {"amount": "0.30"}).status_code
    assert status == (200 if visible else 404 if who == "stranger" else 403)


def test_paid_no_longer_shows_it(league, table):
    carl, dora = (Player.objects.get(league=league, name=n) for n in ("Carl", "Dora"))
    assert selectors.iban_visible_to(viewer=table["Carl"], owner=table["Dora"], league=league)
    services.tick_payment(
        meeting=table["meeting"], key=f"{carl.pk}-{dora.pk}-30", paid_how="cash", user=table["keeper"]
    )
    assert not selectors.iban_visible_to(viewer=table["Carl"], owner=table["Dora"], league=league)
    assert settlement.owes(payer=carl, payee=dora) is False


@pytest.mark.parametrize(("who", "link"), [("Carl", True), ("Anna", False), ("Dora", False), ("admin", False)])
def test_the_pay_by_scan_link_goes_to_the_payer_alone(client, league, table, who, link):
    login(client, table, who)
    page = client.get(table["meeting"].get_absolute_url()).content.decode()
    dora = Player.objects.get(league=league, name="Dora")
    url = reverse("pay_by_scan", kwargs={"slug": league.slug, "player_id": dora.pk})
    assert (f'href="{url}?amount=0.30&amp;meeting={table["meeting"].pk}"' in page) is link
