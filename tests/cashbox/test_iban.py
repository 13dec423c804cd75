"""A member's IBAN: stored by himself, checked by schwifty, shown only where
iban_visible_to allows it, never on the public pages nor in the export."""

import pytest
from django.urls import reverse

from leagues.cashbox import selectors, services
from leagues.models import BankAccount, Membership, Player, Role
from tests.cashbox.conftest import login
from tests.factories import LeagueFactory, member

pytestmark = pytest.mark.django_db

IBAN = "DE89370400440532013000"


@pytest.fixture
def owner(league):
    user = member(league, Role.MEMBER, first_name="Ben")
    services.save_bank_account(
        membership=Membership.objects.get(league=league, user=user), iban="de89 3704 0044 0532 0130 00", holder="Ben B"
    )
    return user


def pay_url(league, user, suffix="pay_by_scan", **query):
    player = Player.objects.get(league=league, user=user)
    path = reverse(suffix, kwargs={"slug": league.slug, "player_id": player.pk})
    return path + "?" + "&".join(f"{k}={v}" for k, v in ({"amount": "12.30"} | query).items())


@pytest.mark.parametrize(
    ("who", "visible"),
    [("anonymous", False), ("stranger", False), ("member", False), ("scorekeeper", False), ("admin", True)],
)
def test_who_sees_the_iban(client, league, people, owner, who, visible):
    """The rule itself, the page and the code's image agree: without an open debt to the
    owner only the league's admins see it (tests/cashbox/test_iban_debts.py: with one)."""
    viewer = people[who]
    if viewer is None:
        from django.contrib.auth.models import AnonymousUser

        viewer = AnonymousUser()
    assert selectors.iban_visible_to(viewer=viewer, owner=owner, league=league) is visible
    login(client, people, who)
    page = client.get(pay_url(league, owner))
    image = client.get(pay_url(league, owner, "pay_qr"))
    if who == "anonymous":
        assert (page.status_code, image.status_code) == (302, 302)
    elif who == "stranger":
        assert (page.status_code, image.status_code) == (404, 404)
    elif not visible:
        assert page.status_code == 200 and "DE89" not in page.content.decode()
        assert "shows only to whoever owes him money" in page.content.decode()
        assert image.status_code == 403
    else:
        assert page.status_code == 200 and "DE89 3704 0044 0532 0130 00" in page.content.decode()
        assert image.status_code == 200 and image["Content-Type"] == "image/svg+xml"
        assert page["Cache-Control"] == "private, no-store"


def test_the_owner_sees_his_own_and_a_removed_member_sees_nothing(league, owner):
    assert selectors.iban_visible_to(viewer=owner, owner=owner, league=league)
    other = member(league)
    Membership.objects.filter(user=other).delete()
    assert not selectors.iban_visible_to(viewer=other, owner=owner, league=league)
    assert not selectors.iban_visible_to(viewer=owner, owner=None, league=league)


def test_without_an_iban_the_page_says_so_and_there_is_no_code(client, league, people):
    login(client, people, "admin")
    page = client.get(pay_url(league, people["member"]))
    assert page.status_code == 200
    assert "has not stored an IBAN in this league" in page.content.decode()
    assert client.get(pay_url(league, people["member"], "pay_qr")).status_code == 404


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ({"amount": "zwölf"}, "Amount"),
        ({"amount": "0"}, "Amount"),
        ({"amount": "1.234"}, "Amount"),
        ({"amount": "9" * 40}, "Amount"),
        ({"meeting": "99"}, "Evening"),
        ({"season": "x"}, "Season"),
        ({"season": "7"}, "Season"),
    ],
)
def test_a_bad_transfer_is_400_naming_the_field(client, league, people, owner, query, field):
    login(client, people, "member")
    for name in ("pay_by_scan", "pay_qr"):
        response = client.get(pay_url(league, owner, name, **query))
        assert response.status_code == 400
        assert f"{field}: " in response.content.decode()


def test_a_member_stores_changes_and_removes_his_iban(client, league, people):
    login(client, people, "member")
    url = reverse("bank_account", kwargs={"slug": league.slug})
    assert client.get(url).status_code == 200
    response = client.post(url, {"holder": "Mia M", "iban": "DE89 3704 0044 0532 0130 00"})
    assert response.status_code == 302
    account = BankAccount.objects.get(membership__user=people["member"])
    assert (account.iban, account.holder) == (IBAN, "Mia M")
    assert client.post(url, {"action": "remove"}).status_code == 302
    assert not BankAccount.objects.exists()


@pytest.mark.parametrize(
    ("data", "field", "words"),
    [
        ({"holder": "Mia", "iban": "DE89 3704 0044 0532 0130 01"}, "iban", "check digits"),
        ({"holder": "Mia", "iban": "DE89 3704 0044 0532 0130"}, "iban", "length"),
        ({"holder": "Mia", "iban": "XX89 3704 0044 0532 0130 00"}, "iban", "IBAN"),
        ({"holder": "Mia", "iban": ""}, "iban", "IBAN"),
        ({"holder": "", "iban": IBAN}, "holder", "Account holder"),
        ({"holder": "M" * 71, "iban": IBAN}, "holder", "Account holder"),
    ],
)
def test_a_bad_account_is_400_naming_the_field(client, league, people, data, field, words):
    login(client, people, "member")
    response = client.post(reverse("bank_account", kwargs={"slug": league.slug}), data)
    assert response.status_code == 400
    assert words in " ".join(response.context["form"].errors[field])
    assert not BankAccount.objects.exists()


def test_the_export_and_the_public_pages_never_carry_an_iban(client, league, people, owner):
    login(client, people, "admin")
    export = b"".join(client.get(reverse("league_export_json", kwargs={"slug": league.slug})).streaming_content)
    assert IBAN.encode() not in export and b"Ben B" not in export
    league.public_token = "open-sesame"
    league.save()
    client.logout()
    public = client.get(reverse("public_standings", kwargs={"token": "open-sesame"}))
    assert IBAN not in public.content.decode()


def test_the_bank_account_page_is_for_members_only(client, league, people):
    url = reverse("bank_account", kwargs={"slug": league.slug})
    login(client, people, "stranger")
    assert client.get(url).status_code == 404
    assert client.post(url, {"holder": "X", "iban": IBAN}).status_code == 404
    assert not BankAccount.objects.exists()
    other = LeagueFactory()
    assert not selectors.iban_visible_to(viewer=people["stranger"], owner=people["member"], league=other)
