"""The end-of-season bill page: who may use it, the split, and bad input."""

import datetime
from decimal import Decimal

import pytest
from django.urls import reverse

from leagues.models import Player, Role
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


def url(league, number=1):
    return reverse("season_bill", kwargs={"slug": league.slug, "number": number})


def pk(league, name):
    return str(Player.objects.get(league=league, name=name).pk)


def test_it_sends_an_anonymous_visitor_to_log_in(client, league):
    response = client.get(url(league))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_it_hides_the_bill_from_a_member_of_another_league(client, league):
    client.force_login(member(LeagueFactory(), Role.ADMIN))
    assert client.get(url(league)).status_code == 404
    assert client.post(url(league), {"total": "100", "method": "equal"}).status_code == 404


def test_a_member_sees_who_chooses_but_no_form(client, league):
    client.force_login(member(league))
    response = client.get(url(league))
    assert response.status_code == 200
    page = response.content.decode()
    assert response.context["chooser"].name == "Dora"
    assert '<p class="chooser-name">Dora</p>' in page
    assert 'name="total"' not in page


def test_a_member_may_not_post_a_bill(client, league):
    client.force_login(member(league))
    assert client.post(url(league), {"total": "100", "method": "equal"}).status_code == 403


@pytest.mark.parametrize("role", [Role.SCOREKEEPER, Role.ADMIN])
def test_a_scorekeeper_or_admin_sees_the_form(client, league, role):
    client.force_login(member(league, role))
    page = client.get(url(league)).content.decode()
    assert 'name="total"' in page
    assert 'name="method"' in page


def test_a_posted_bill_is_stored_and_shown_to_every_member(client, league):
    client.force_login(member(league, Role.SCOREKEEPER))
    response = save_bill(
        client, url(league), {"total": "100.00", "method": "equal", "paid_by": pk(league, "Anna"), "tip_percent": "0"}
    )
    assert response.status_code == 303
    assert response["Location"] == url(league)

    # Any member opens the stored bill; the figures are split_bill's: 100 / 5 each.
    client.force_login(member(league))
    response = client.get(url(league))
    assert response.status_code == 200
    stored = response.context["stored"]
    assert [(r["name"], r["share"]) for r in stored["rows"]] == [
        ("Ben", Decimal("20.00")),
        ("Anna", Decimal("20.00")),
        ("Emil", Decimal("20.00")),
        ("Carl", Decimal("20.00")),
        ("Dora", Decimal("20.00")),
    ]
    assert [(t["from"], t["to"], t["amount"]) for t in stored["transfers"]] == [
        ("Ben", "Anna", "20.00"),
        ("Emil", "Anna", "20.00"),
        ("Carl", "Anna", "20.00"),
        ("Dora", "Anna", "20.00"),
    ]
    assert not stored["changed"]
    assert "Who pays whom" in response.content.decode()


def test_a_link_with_the_inputs_shows_a_split_without_storing_it(client, league):
    client.force_login(member(league, Role.SCOREKEEPER))
    query = {"total": "100.00", "method": "equal", "paid_by": pk(league, "Anna")}
    response = client.get(url(league), query)
    assert response.status_code == 200
    assert [r["share"] for r in response.context["result"]["rows"]] == ["20.00"] * 5
    assert not league.seasons.get().bills.exists()


def test_per_point_shares_follow_the_season_totals(client, league):
    client.force_login(member(league, Role.ADMIN))
    query = {"total": "100", "method": "per_point", "cents_per_point": "10"}
    response = client.get(url(league), query)
    assert response.status_code == 200
    shares = {r["name"]: r["share"] for r in response.context["result"]["rows"]}
    # mean score 0: share = 20 + 0.10 × (0 − score)
    assert shares == {"Ben": "19.50", "Anna": "19.90", "Emil": "20.00", "Carl": "20.00", "Dora": "20.60"}


def test_several_payers_are_settled(client, league):
    client.force_login(member(league, Role.ADMIN))
    query = {
        "total": "100",
        "tip_percent": "10",
        "method": "equal",
        "paid_by": "several",
        f"paid_{pk(league, 'Anna')}": "60",
        f"paid_{pk(league, 'Ben')}": "50",
    }
    response = client.get(url(league), query)
    assert response.status_code == 200
    result = response.context["result"]
    assert result["total"] == "110.00"
    # 22.00 each; Anna is owed 38, Ben 28: the largest debtor pays the largest creditor first.
    assert [(t["from"], t["to"], t["amount"]) for t in result["transfers"]] == [
        ("Emil", "Anna", "22.00"),
        ("Carl", "Ben", "22.00"),
        ("Dora", "Anna", "16.00"),
        ("Dora", "Ben", "6.00"),
    ]


@pytest.mark.parametrize(
    "data, field",
    [
        ({"total": "abc", "method": "equal"}, "total"),
        ({"total": "", "method": "equal"}, "total"),
        ({"total": "-5", "method": "equal"}, "total"),
        ({"total": "10.001", "method": "equal"}, "total"),
        ({"total": "100", "method": "lottery"}, "method"),
        ({"total": "100", "method": "equal", "tip_percent": "150"}, "tip_percent"),
        ({"total": "100", "method": "per_point", "cents_per_point": "-1"}, "cents_per_point"),
        ({"total": "100", "method": "equal", "paid_by": "999999"}, "paid_by"),
        ({"total": "100", "method": "equal", "paid_by": "several"}, "paid_by"),
    ],
)
def test_it_rejects_a_bad_bill_with_a_message_on_the_field(client, league, data, field):
    client.force_login(member(league, Role.SCOREKEEPER))
    response = client.post(url(league), data)
    assert response.status_code == 400
    assert response.context["form"].errors[field]
    assert "errorlist" in response.content.decode()


def test_amounts_paid_that_do_not_add_up_are_an_error_on_who_paid(client, league):
    client.force_login(member(league, Role.SCOREKEEPER))
    data = {"total": "100", "method": "equal", "paid_by": "several", f"paid_{pk(league, 'Anna')}": "60"}
    response = client.post(url(league), data)
    assert response.status_code == 400
    assert "add up to" in str(response.context["form"].errors["paid_by"])


def test_a_tampered_link_is_a_400_not_a_500(client, league):
    client.force_login(member(league))
    response = client.get(url(league), {"total": "lots", "method": "equal"})
    assert response.status_code == 400


def test_a_running_season_has_no_bill_yet(client):
    league = LeagueFactory()
    two_meetings(league)
    client.force_login(member(league, Role.ADMIN))
    response = client.get(url(league))
    assert response.status_code == 200
    page = response.content.decode()
    assert "still running" in page
    assert 'name="total"' not in page
    assert client.post(url(league), {"total": "100", "method": "equal"}).status_code == 400


def test_an_unknown_season_is_a_404(client, league):
    client.force_login(member(league, Role.ADMIN))
    assert client.get(url(league, 9)).status_code == 404


def test_the_page_is_printable(client, league):
    client.force_login(member(league))
    page = client.get(url(league), {"total": "80", "method": "by_rank"}).content.decode()
    # The print button (static/js/kartenliga.js calls window.print() for data-print: no inline handler).
    assert '<button type="button" class="secondary" data-print>' in page
