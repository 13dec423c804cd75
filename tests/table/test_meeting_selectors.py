"""The reads of one meeting: a member's (``selectors.league_meeting``), a writer's, locked
(``selectors.meeting_for_entry``), the public link's (``selectors.public_meeting``) and
``permissions.meeting_for`` around them: the meeting with its season and host, and whether
it opens its season; its seats in seat order (``selectors.seats_of``)."""

import datetime

import pytest
from django.core.exceptions import PermissionDenied
from django.db import connection, transaction
from django.db.transaction import TransactionManagementError
from django.http import Http404
from django.utils import timezone

from leagues.models import League, Meeting, Membership, Role
from leagues.permissions import meeting_for
from leagues.table import selectors
from tests.factories import LeagueFactory, UserFactory, member
from tests.factories import meeting_for as start_meeting

pytestmark = pytest.mark.django_db


@pytest.fixture
def league():
    return LeagueFactory(slug="kreuz-dame")


@pytest.fixture
def meetings(league):
    first = start_meeting(league, ["Anna", "Ben", "Carl", "Dora"], date=datetime.date(2026, 11, 6))
    second = start_meeting(league, ["Ben", "Anna", "Carl", "Dora"], date=datetime.date(2026, 11, 13))
    Meeting.objects.filter(pk=second.pk).update(
        end_time=datetime.time(23, 30), closed_at=timezone.now(), teams=["Nord", "Süd"], pennant_forgotten=True
    )
    return first, second


def test_a_members_read_brings_the_season_and_the_host(meetings, league):
    first, second = meetings
    found = selectors.league_meeting(league=league, pk=second.pk)
    assert (found.season.number, found.host.name, found.league) == (1, "Ben", league)
    assert found.end_time == datetime.time(23, 30) and found.teams == ["Nord", "Süd"]
    assert timezone.is_aware(found.closed_at) and found.pennant_forgotten is True


def test_it_tells_the_first_meeting_of_its_season(meetings, league):
    first, second = meetings
    # Another on the second's date, created after it: played after it (date, then id).
    third = start_meeting(league, ["Anna", "Ben", "Carl", "Dora"], date=second.date)
    opens = {m.pk: selectors.league_meeting(league=league, pk=m.pk).opens_season for m in (first, second, third)}
    assert opens == {first.pk: True, second.pk: False, third.pk: False}


def test_the_seats_come_in_seat_order_the_host_first(meetings):
    first, second = meetings
    assert [seat.name for seat in selectors.seats_of(first)] == ["Anna", "Ben", "Carl", "Dora"]
    assert [(seat.name, seat.position) for seat in selectors.seats_of(second)][:2] == [("Ben", 0), ("Anna", 1)]
    # A meeting without seats (none is started so, but a half-deleted one may be): no seats.
    first.seats.all().delete()
    assert selectors.seats_of(first) == []


def test_another_leagues_meeting_or_an_unknown_one_is_none(meetings, league):
    other = LeagueFactory(slug="pik-bube")
    assert selectors.league_meeting(league=other, pk=meetings[0].pk) is None
    assert selectors.league_meeting(league=league, pk=meetings[1].pk + 1000) is None
    with transaction.atomic():
        assert selectors.meeting_for_entry(league=other, pk=meetings[0].pk) is None
        assert selectors.meeting_for_entry(pk=meetings[1].pk + 1000) is None


def test_the_writers_read_is_the_same_meeting(meetings, league):
    with transaction.atomic():
        found = selectors.meeting_for_entry(pk=meetings[1].pk)
    assert (found.pk, found.season.number, found.host.name, found.opens_season) == (meetings[1].pk, 1, "Ben", False)


@pytest.mark.skipif(not connection.features.has_select_for_update, reason="SQLite locks the database, not rows")
@pytest.mark.django_db(transaction=True)  # outside the test's own transaction
def test_the_writers_read_outside_a_transaction_is_refused(meetings):
    with pytest.raises(TransactionManagementError):
        selectors.meeting_for_entry(pk=meetings[0].pk)


def test_by_public_token_it_brings_its_league_and_a_wrong_token_is_none(meetings, league):
    league.public_token = "t" * 24
    league.save(update_fields=["public_token"])
    found = selectors.public_meeting(token="t" * 24, pk=meetings[1].pk)
    assert found.league == league
    assert found.host.name == "Ben" and found.opens_season is False
    other = LeagueFactory(slug="pik-bube", public_token="u" * 24)
    assert selectors.public_meeting(token=other.public_token, pk=meetings[1].pk) is None
    assert selectors.public_meeting(token="x" * 24, pk=meetings[1].pk) is None
    assert selectors.public_meeting(token="", pk=meetings[1].pk) is None


def test_a_number_too_long_for_the_column_is_none_and_its_page_a_404(meetings, league, client):
    # From a URL: SQLite's driver raised OverflowError on it (a 500 schemathesis found).
    league.public_token = "t" * 24
    league.save(update_fields=["public_token"])
    for pk in (2**63, 10**40):
        assert selectors.league_meeting(league=league, pk=pk) is None
        assert selectors.public_meeting(token="t" * 24, pk=pk) is None
    assert client.get(f"/p/{'t' * 24}/m/{10**40}/").status_code == 404


def test_by_address_it_brings_the_users_membership(meetings, league):
    keeper = member(league, Role.SCOREKEEPER)
    found, membership = meeting_for(user=keeper, slug=league.slug, pk=meetings[1].pk, role=Role.SCOREKEEPER)
    assert found.pk == meetings[1].pk and found.league == League.objects.get(pk=league.pk)
    assert (membership.pk, membership.role, membership.league) == (
        Membership.objects.get(user=keeper, league=league).pk,
        Role.SCOREKEEPER,
        found.league,
    )
    with transaction.atomic():  # a writer's: the meeting locked
        locked, _membership = meeting_for(user=keeper, slug=league.slug, pk=meetings[1].pk, lock=True)
    assert locked.pk == meetings[1].pk and locked.league == found.league


def test_by_address_it_refuses_as_league_for_does(meetings, league):
    first, _second = meetings
    reader, stranger = member(league, Role.MEMBER), UserFactory()
    other = LeagueFactory(slug="herz-as")
    elsewhere = member(other, Role.ADMIN)
    with pytest.raises(PermissionDenied):  # a member, but not a scorekeeper
        meeting_for(user=reader, slug=league.slug, pk=first.pk, role=Role.SCOREKEEPER)
    for user, slug, pk in (
        (stranger, league.slug, first.pk),  # no member of it
        (elsewhere, league.slug, first.pk),  # another league's admin
        (elsewhere, other.slug, first.pk),  # his own league, another league's meeting
        (reader, league.slug, first.pk + 1000),  # no such meeting
        (reader, "no-such-league", first.pk),
    ):
        with pytest.raises(Http404):
            meeting_for(user=user, slug=slug, pk=pk)
    # A superuser who is no member sees it as its admin.
    boss = UserFactory(is_superuser=True, is_staff=True)
    found, membership = meeting_for(user=boss, slug=league.slug, pk=first.pk, role=Role.ADMIN)
    assert found.pk == first.pk and membership.role == Role.ADMIN
    with transaction.atomic():  # and writes: the meeting locked though he has no membership row
        found, membership = meeting_for(user=boss, slug=league.slug, pk=first.pk, role=Role.SCOREKEEPER, lock=True)
    assert found.pk == first.pk and membership.role == Role.ADMIN
