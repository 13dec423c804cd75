"""A closed season stays closed (league.md "End of a season"): the last evening of a
complete season, its stored bill or the next season closes it with its evenings; nothing of
it changes until an admin reopens it with a reason; the stored bill stays what was paid, shown
beside the split by the new standings after a reopening.

Doppelkopf, club rules, four players who host in turn (Anna, Ben, Carl, Dora): the fourth
meeting completes the season. Each evening has an end time long past, so its fourth hand
(dealt by the last seat) ends it. Every hand is a plain Re win (Ben and Dora, 131 eyes, no
calls): gewonnen 1, so +1 for Ben and Dora, -1 for Anna and Carl (DDV 7.2.2 (a)).
"""

import datetime
from decimal import Decimal

import pytest
from django.urls import reverse

from leagues import exceptions
from leagues.models import HandResult, Player, Role, SeasonBill
from leagues.seasons import services as seasons_services
from leagues.table import meetings as table_meetings
from leagues.table import services as table_services
from tests.bill_steps import save_bill
from tests.factories import LeagueFactory, meeting_for, member

FOUR = ["Anna", "Ben", "Carl", "Dora"]
BEN_DORA = {"kind": "normal", "re": ["Ben", "Dora"], "re_eyes": 131}
ANNA_CARL = {"kind": "normal", "re": ["Anna", "Carl"], "re_eyes": 131}
HOSTS = [FOUR[i:] + FOUR[:i] for i in range(4)]  # each player hosts once, the host first
DATES = [datetime.date(2026, 1, 9), datetime.date(2026, 2, 13), datetime.date(2026, 3, 13), datetime.date(2026, 4, 10)]
# 100 € by points at 10 cents, mean score 0: share = 25 − 0.10 × score.
BILL = {"total": "100.00", "method": "per_point", "cents_per_point": "10"}


@pytest.fixture
def league(db):
    return LeagueFactory(game="doppelkopf", variant="club")


@pytest.fixture
def people(league):
    people = {role: member(league, role) for role in (Role.ADMIN, Role.SCOREKEEPER, Role.MEMBER)}
    # Their own players do not play: the season is complete when the four above have hosted.
    Player.objects.filter(league=league, user__isnull=False).update(active=False)
    return people


def evening(league, keeper, number, hands=4):
    meeting = meeting_for(league, HOSTS[number], date=DATES[number], end_time=datetime.time(22, 0))
    for _ in range(hands):
        table_services.enter_hand(meeting=meeting, payload=BEN_DORA, by=keeper)
    meeting.refresh_from_db()
    return meeting


@pytest.fixture
def season(league, people, django_capture_on_commit_callbacks):
    """Four evenings of four hands: Ben and Dora +16, Anna and Carl −16."""
    keeper = people[Role.SCOREKEEPER]
    with django_capture_on_commit_callbacks(execute=True):
        meetings = [evening(league, keeper, n) for n in range(4)]
    season = meetings[0].season
    season.refresh_from_db()
    return season


def test_the_last_evening_of_a_complete_season_closes_the_season(season, people):
    assert season.closed_on == DATES[3]
    assert season.locked_at is not None
    assert season.locked_by == people[Role.SCOREKEEPER]
    assert not season.meetings.filter(closed_at=None).exists()


def test_an_evening_of_a_running_season_does_not_close_it(league, people, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        meeting = evening(league, people[Role.SCOREKEEPER], 0)
    assert meeting.closed_at is not None
    meeting.season.refresh_from_db()
    assert meeting.season.locked_at is None


def test_a_hand_into_a_closed_season_is_refused_and_changes_nothing(season, people):
    keeper = people[Role.SCOREKEEPER]
    second = season.meetings.get(date=DATES[1])
    results = list(HandResult.objects.filter(season=season).values_list("player__name", "delta", "total"))
    with pytest.raises(exceptions.MeetingClosed) as error:
        table_services.enter_hand(meeting=second, payload=ANNA_CARL, by=keeper)
    assert "Season 1 is closed" in error.value.errors[0]["message"]
    hand = second.hands.get(number=1)
    with pytest.raises(exceptions.MeetingClosed):
        table_services.change_hand(hand=hand, payload=ANNA_CARL, by=keeper, version=hand.version)
    with pytest.raises(exceptions.MeetingClosed):
        table_services.delete_hand(hand=hand, by=keeper, version=hand.version)
    assert list(HandResult.objects.filter(season=season).values_list("player__name", "delta", "total")) == results


def test_an_evening_of_a_closed_season_cannot_be_reopened_before_the_season(season, people):
    second = season.meetings.get(date=DATES[1])
    with pytest.raises(exceptions.InvalidInput) as error:
        table_meetings.reopen_meeting(meeting=second, user=people[Role.ADMIN], reason="Hand 2 was Kontra's")
    assert "reopens the season first" in error.value.errors[0]["message"]


def test_the_next_season_closes_the_one_before_with_its_last_evening(league, people):
    keeper = people[Role.SCOREKEEPER]
    for number in range(3):
        evening(league, keeper, number)
    last = evening(league, keeper, 3, hands=2)  # the round is not over: it stays open
    assert last.closed_at is None
    following = meeting_for(league, FOUR, date=datetime.date(2026, 5, 8))
    assert following.season.number == 2
    last.refresh_from_db()
    last.season.refresh_from_db()
    assert last.closed_at is not None and last.season.locked_at is not None
    # The new season is open.
    table_services.enter_hand(meeting=following, payload=BEN_DORA, by=keeper)


def test_storing_the_bill_keeps_what_it_was_split_by(league, people):
    keeper = people[Role.SCOREKEEPER]
    for number in range(3):
        evening(league, keeper, number)
    # The last evening has no end time: after its first round it is still open.
    last = meeting_for(league, HOSTS[3], date=DATES[3])
    for payload in (BEN_DORA, BEN_DORA, BEN_DORA, ANNA_CARL):
        table_services.enter_hand(meeting=last, payload=payload, by=keeper)
    # Ben and Dora: 3 × 4 + 3 − 1 = +14, Anna and Carl −14; share = 25 ∓ 1.40.
    bill = seasons_services.settle_bill(season=last.season, bill={**BILL, "paid_by": "Anna"}, user=keeper)
    assert bill.scores == [["Ben", 14], ["Dora", 14], ["Anna", -14], ["Carl", -14]]
    assert bill.shares == {"Ben": "23.60", "Dora": "23.60", "Anna": "26.40", "Carl": "26.40"}
    assert bill.total == bill.total_with_tip == Decimal("100.00")
    assert bill.rate == Decimal("0.10")
    assert bill.paid_by.name == "Anna" and bill.paid == {"Anna": "100.00"}
    assert [(t["from"], t["amount"]) for t in bill.transfers] == [
        ("Ben", "23.60"),
        ("Dora", "23.60"),
        ("Carl", "26.40"),
    ]
    assert bill.chooser.name == "Anna"  # the worst total; tied with Carl, first in the standings
    # Storing it closed the season, and the evening still open with it.
    last.refresh_from_db()
    last.season.refresh_from_db()
    assert last.season.locked_at == bill.settled_at and last.closed_at == bill.settled_at


def test_a_running_season_has_no_bill_to_store(league, people):
    meeting = evening(league, people[Role.SCOREKEEPER], 0)
    with pytest.raises(exceptions.InvalidInput) as error:
        seasons_services.settle_bill(season=meeting.season, bill=BILL, user=people[Role.ADMIN])
    assert error.value.errors[0]["field"] == "season"
    assert not SeasonBill.objects.exists()


def test_reopening_the_season_needs_a_reason_and_keeps_it(season, people):
    admin = people[Role.ADMIN]
    with pytest.raises(exceptions.InvalidInput) as error:
        seasons_services.reopen_season(season=season, user=admin, reason="   ")
    assert error.value.errors[0]["field"] == "reason"
    was_locked = season.locked_at
    reopening = seasons_services.reopen_season(season=season, user=admin, reason="Hand 1 of March was Kontra's")
    season.refresh_from_db()
    assert season.locked_at is None
    assert (reopening.reason, reopening.reopened_by, reopening.was_locked_at) == (
        "Hand 1 of March was Kontra's",
        admin,
        was_locked,
    )
    with pytest.raises(exceptions.InvalidInput):
        seasons_services.reopen_season(season=season, user=admin, reason="again")  # not closed


def test_closing_the_corrected_evening_again_closes_the_season_again(
    season, people, django_capture_on_commit_callbacks
):
    admin = people[Role.ADMIN]
    seasons_services.reopen_season(season=season, user=admin, reason="a revoke was missed")
    third = season.meetings.get(date=DATES[2])
    table_meetings.reopen_meeting(meeting=third, user=admin, reason="a revoke was missed")
    hand = third.hands.get(number=1)
    table_services.change_hand(hand=hand, payload=ANNA_CARL, by=admin, version=hand.version)
    with django_capture_on_commit_callbacks(execute=True):
        table_meetings.close_meeting(meeting=third, user=admin)
    season.refresh_from_db()
    assert season.locked_at is not None


# --- the pages ------------------------------------------------------------------------------


def bill_url(league, number=1):
    return reverse("season_bill", kwargs={"slug": league.slug, "number": number})


def reopen_url(league, number=1):
    return reverse("season_reopen", kwargs={"slug": league.slug, "number": number})


def close_url(league, number=1):
    return reverse("season_close", kwargs={"slug": league.slug, "number": number})


def test_the_hand_form_refuses_a_hand_into_a_closed_season(client, season, people):
    client.force_login(people[Role.SCOREKEEPER])
    second = season.meetings.get(date=DATES[1])
    url = reverse("hand_add_hx", kwargs={"slug": second.league.slug, "pk": second.pk})
    data = {"expected_hand": "5", "kind": "normal", "re": ["Ben", "Dora"], "eyes": "131", "eyes_for": "re"}
    response = client.post(url, data, HTTP_HX_REQUEST="true")
    assert response.status_code == 400
    assert "Season 1 is closed" in response.content.decode()
    assert second.hands.count() == 4


def test_the_api_refuses_a_hand_into_a_closed_season(client, season, people):
    client.force_login(people[Role.SCOREKEEPER])
    second = season.meetings.get(date=DATES[1])
    url = reverse("api_hands", kwargs={"slug": second.league.slug, "pk": second.pk})
    response = client.post(url, {"payload": ANNA_CARL, "number": 5}, content_type="application/json")
    assert response.status_code == 400
    assert "Season 1 is closed" in response.content.decode()


def test_who_may_reopen_a_season(client, season, people):
    assert client.get(reopen_url(season.league)).status_code == 302  # anonymous: log in
    for role in (Role.MEMBER, Role.SCOREKEEPER):
        client.force_login(people[role])
        assert client.get(reopen_url(season.league)).status_code == 403
        assert client.post(reopen_url(season.league), {"reason": "x"}).status_code == 403
    client.force_login(member(LeagueFactory(), Role.ADMIN))
    assert client.post(reopen_url(season.league), {"reason": "x"}).status_code == 404
    season.refresh_from_db()
    assert season.locked_at is not None
    client.force_login(people[Role.ADMIN])
    assert client.get(reopen_url(season.league)).status_code == 200


def test_an_admin_reopens_with_a_reason_shown_on_the_bill_page(client, season, people):
    client.force_login(people[Role.ADMIN])
    response = client.post(reopen_url(season.league), {"reason": " "})
    assert response.status_code == 400
    assert "Say why the season is reopened." in response.content.decode()
    response = client.post(reopen_url(season.league), {"reason": "Carl's solo was a Bock game"})
    assert response.status_code == 302 and response["Location"] == bill_url(season.league)
    page = client.get(bill_url(season.league)).content.decode()
    assert "Carl&#x27;s solo was a Bock game" in page


def test_who_may_close_a_season(client, league, people):
    keeper = people[Role.SCOREKEEPER]
    for number in range(3):
        evening(league, keeper, number)
    last = evening(league, keeper, 3, hands=2)
    assert client.post(close_url(league)).status_code == 302  # anonymous: to log in
    for role in (Role.MEMBER, Role.SCOREKEEPER):
        client.force_login(people[role])
        assert client.post(close_url(league)).status_code == 403
    client.force_login(member(LeagueFactory(), Role.ADMIN))
    assert client.post(close_url(league)).status_code == 404
    last.season.refresh_from_db()
    assert last.season.locked_at is None
    client.force_login(people[Role.ADMIN])
    assert client.get(close_url(league)).status_code == 405
    assert client.post(close_url(league)).status_code == 302
    last.refresh_from_db()
    assert last.closed_at is not None


def test_a_stored_bill_is_changed_by_an_admin_only(client, season, people):
    client.force_login(people[Role.SCOREKEEPER])
    assert save_bill(client, bill_url(season.league), BILL).status_code == 303
    # Stored: the scorekeeper sees it, with no form to change it.
    response = client.get(bill_url(season.league))
    assert response.context["stored"] is not None and 'name="total"' not in response.content.decode()
    assert client.post(bill_url(season.league), {**BILL, "total": "120.00"}).status_code == 403
    client.force_login(people[Role.ADMIN])
    assert save_bill(client, bill_url(season.league), {**BILL, "total": "120.00"}).status_code == 303
    bills = list(season.bills.order_by("settled_at", "id"))
    assert [b.total for b in bills] == [Decimal("100.00"), Decimal("120.00")]
    assert bills[0].replaced_at is not None and bills[1].replaced_at is None


def test_after_a_correction_the_stored_bill_shows_beside_the_new_split(client, season, people):
    admin = people[Role.ADMIN]
    client.force_login(admin)
    assert save_bill(client, bill_url(season.league), BILL).status_code == 303
    # Stored: Ben and Dora +16 pay 25 − 1.60 = 23.40, Anna and Carl 26.60.
    stored = season.bills.current().get()
    assert stored.shares == {"Ben": "23.40", "Dora": "23.40", "Anna": "26.60", "Carl": "26.60"}

    seasons_services.reopen_season(season=season, user=admin, reason="hand 1 in March was Anna's and Carl's")
    third = season.meetings.get(date=DATES[2])
    table_meetings.reopen_meeting(meeting=third, user=admin, reason="hand 1 was Anna's and Carl's")
    hand = third.hands.get(number=1)
    table_services.change_hand(hand=hand, payload=ANNA_CARL, by=admin, version=hand.version)

    # Now Ben and Dora +14 (25 − 1.40 = 23.60), Anna and Carl −14 (26.40).
    response = client.get(bill_url(season.league))
    shown = response.context["stored"]
    assert [(r["name"], r["share"]) for r in shown["rows"]] == [
        ("Ben", Decimal("23.40")),
        ("Dora", Decimal("23.40")),
        ("Anna", Decimal("26.60")),
        ("Carl", Decimal("26.60")),
    ]
    assert shown["changed"]
    assert [(r["name"], r["share_before"], r["share"], r["difference"]) for r in shown["now"]["rows"]] == [
        ("Ben", Decimal("23.40"), Decimal("23.60"), Decimal("0.20")),
        ("Dora", Decimal("23.40"), Decimal("23.60"), Decimal("0.20")),
        ("Anna", Decimal("26.60"), Decimal("26.40"), Decimal("-0.20")),
        ("Carl", Decimal("26.60"), Decimal("26.40"), Decimal("-0.20")),
    ]
    assert "The standings have changed since" in response.content.decode()

    # The admin saves the bill by today's standings: the old one is kept, replaced.
    response = client.post(bill_url(season.league), dict(response.context["resplit_inputs"]))
    assert response.status_code == 303
    current = season.bills.current().get()
    assert current.shares == {"Ben": "23.60", "Dora": "23.60", "Anna": "26.40", "Carl": "26.40"}
    assert season.bills.count() == 2
    season.refresh_from_db()
    assert season.locked_at is not None  # saving the bill closed the season again
    assert not client.get(bill_url(season.league)).context["stored"]["changed"]


def test_a_tie_for_the_worst_total_names_the_first_of_them_everywhere(client, season, people):
    # Ben and Dora +16, Anna and Carl −16: tied worst; the standings list Anna before Carl
    # (ties by wins, then name), and league.md makes the first of them choose.
    client.force_login(people[Role.ADMIN])
    assert client.get(bill_url(season.league)).context["chooser"].name == "Anna"
    standings = client.get(reverse("standings", kwargs={"slug": season.league.slug}))
    assert standings.context["s"].choosing_restaurant.name == "Anna"
    save_bill(client, bill_url(season.league), BILL)
    assert season.bills.current().get().chooser.name == "Anna"
