"""``selectors.meeting_of``: the meeting with its season (and host), and whether it opens its
season, by SQL of its own (issue 12): field for field what the ORM's
``select_related(...).with_season_start()`` gives, on SQLite and PostgreSQL alike."""

import datetime

import pytest
from django.db import connection, transaction
from django.db.transaction import TransactionManagementError
from django.utils import timezone

from leagues import selectors
from leagues.models import Meeting
from tests.factories import LeagueFactory, UserFactory, meeting_for

pytestmark = pytest.mark.django_db


def fields(instance):
    return {f.attname: getattr(instance, f.attname) for f in type(instance)._meta.concrete_fields}


@pytest.fixture
def league():
    return LeagueFactory(slug="kreuz-dame")


@pytest.fixture
def meetings(league):
    first = meeting_for(league, ["Anna", "Ben", "Carl", "Dora"], date=datetime.date(2026, 11, 6))
    second = meeting_for(league, ["Ben", "Anna", "Carl", "Dora"], date=datetime.date(2026, 11, 13))
    # Every kind of field set: a time, a closing time and user, JSON, a boolean.
    Meeting.objects.filter(pk=second.pk).update(
        end_time=datetime.time(23, 30),
        closed_at=timezone.now(),
        closed_by=UserFactory(),
        teams=["Nord", "Süd"],
        pennant_forgotten=True,
    )
    return first, second


def test_it_reads_what_the_orm_reads(meetings, league, django_assert_num_queries):
    for meeting in meetings:
        orm = Meeting.objects.select_related("season", "host").with_season_start().get(pk=meeting.pk)
        with django_assert_num_queries(1):
            found = selectors.meeting_of(pk=meeting.pk, league_id=league.pk, host=True)
            assert fields(found.season) == fields(orm.season)
            assert fields(found.host) == fields(orm.host)
        assert fields(found) == fields(orm)
        assert found.opens_season is orm.opens_season
    assert timezone.is_aware(found.closed_at) and found.end_time == datetime.time(23, 30)
    assert found.teams == ["Nord", "Süd"] and found.pennant_forgotten is True


def test_its_seats_come_in_the_same_query_as_seats_of_reads_them(meetings, league, django_assert_num_queries):
    first, second = meetings
    for meeting, names in ((first, ["Anna", "Ben", "Carl", "Dora"]), (second, ["Ben", "Anna", "Carl", "Dora"])):
        with django_assert_num_queries(1):
            found = selectors.meeting_of(pk=meeting.pk, league_id=league.pk, host=True, seats=True)
        assert found._seated == selectors.seats_of(meeting)
        assert [seat.name for seat in found._seated] == names  # in seat order, the host first
        with transaction.atomic():
            locked = selectors.meeting_of(pk=meeting.pk, lock=True, seats=True)
        assert locked._seated == found._seated
    # A meeting without seats (none is started so, but a half-deleted one may be): no seats.
    bare = Meeting.objects.get(pk=first.pk)
    bare.seats.all().delete()
    assert selectors.meeting_of(pk=first.pk, seats=True)._seated == []


def test_it_tells_the_first_meeting_of_its_season(meetings):
    first, second = meetings
    assert selectors.meeting_of(pk=first.pk).opens_season is True
    assert selectors.meeting_of(pk=second.pk).opens_season is False


def test_another_leagues_meeting_or_an_unknown_one_is_none(meetings):
    other = LeagueFactory(slug="pik-bube")
    assert selectors.meeting_of(pk=meetings[0].pk, league_id=other.pk) is None
    assert selectors.meeting_of(pk=meetings[1].pk + 1000) is None


def test_the_locked_read_is_the_same_meeting_with_its_season(meetings):
    with transaction.atomic():
        found = selectors.meeting_of(pk=meetings[1].pk, lock=True)
    orm = Meeting.objects.select_related("season").get(pk=meetings[1].pk)
    assert fields(found) == fields(orm) and fields(found.season) == fields(orm.season)
    assert found.opens_season is False


def test_the_locked_read_tells_whether_a_meeting_was_played_after_it(meetings, league):
    first, second = meetings
    # Another on the second's date, created after it: played after it (date, then id).
    third = meeting_for(league, ["Anna", "Ben", "Carl", "Dora"], date=second.date)
    other = meeting_for(LeagueFactory(slug="andere"), ["Anna", "Ben", "Carl", "Dora"], date=datetime.date(2027, 1, 1))
    with transaction.atomic():
        found = {m.pk: selectors.meeting_of(pk=m.pk, lock=True).has_later for m in (first, second, third, other)}
    assert found == {first.pk: True, second.pk: True, third.pk: False, other.pk: False}
    assert not hasattr(selectors.meeting_of(pk=first.pk), "has_later")  # only a writer's read asks


def test_its_meeting_saves_only_what_it_changed(meetings):
    found = selectors.meeting_of(pk=meetings[0].pk)
    found.pennant_forgotten = True
    found.save(update_fields=["pennant_forgotten"])
    stored = Meeting.objects.get(pk=meetings[0].pk)
    assert stored.pennant_forgotten is True and fields(stored) == fields(found)


def test_by_public_token_it_brings_its_league_and_a_wrong_token_is_none(meetings, league):
    from leagues.models import League

    league.public_token = "t" * 24
    league.save(update_fields=["public_token"])
    found = selectors.meeting_of(pk=meetings[1].pk, public_token="t" * 24, host=True)
    assert fields(found.league) == fields(League.objects.get(pk=league.pk))
    assert fields(found.host) == fields(meetings[1].host) and found.opens_season is False
    other = LeagueFactory(slug="pik-bube", public_token="u" * 24)
    assert selectors.meeting_of(pk=meetings[1].pk, public_token=other.public_token) is None
    assert selectors.meeting_of(pk=meetings[1].pk, public_token="x" * 24) is None


@pytest.mark.skipif(not connection.features.has_select_for_update, reason="SQLite locks the database, not rows")
@pytest.mark.django_db(transaction=True)  # outside the test's own transaction
def test_the_locked_read_outside_a_transaction_is_refused_as_the_orms(meetings):
    with pytest.raises(TransactionManagementError):
        selectors.meeting_of(pk=meetings[0].pk, lock=True)


def test_a_number_too_long_for_the_column_is_none_and_its_page_a_404(meetings, league, client):
    # From a URL: SQLite's driver raised OverflowError on it (a 500 schemathesis found).
    for pk in (2**63, 10**40):
        assert selectors.meeting_of(pk=pk, league_id=league.pk) is None
        assert selectors.meeting_of(pk=pk, public_token="t" * 24) is None
    league.public_token = "t" * 24
    league.save(update_fields=["public_token"])
    assert client.get(f"/p/{'t' * 24}/m/{10**40}/").status_code == 404


def test_with_its_league_by_address_it_brings_the_users_membership_in_one_query(
    meetings, league, django_assert_num_queries
):
    from leagues.models import League, Membership, Role
    from leagues.permissions import meeting_for
    from tests.factories import member

    keeper = member(league, Role.SCOREKEEPER)
    first, second = meetings
    with django_assert_num_queries(1):
        found, membership = meeting_for(user=keeper, slug=league.slug, pk=second.pk, role=Role.SCOREKEEPER, seats=True)
    orm = Meeting.objects.select_related("season").get(pk=second.pk)
    assert fields(found) == fields(orm) and fields(found.season) == fields(orm.season)
    assert fields(found.league) == fields(League.objects.get(pk=league.pk))
    assert (membership.pk, membership.role, membership.league) == (
        Membership.objects.get(user=keeper, league=league).pk,
        Role.SCOREKEEPER,
        found.league,
    )
    assert [seat.name for seat in found._seated] == ["Ben", "Anna", "Carl", "Dora"]


def test_by_address_it_refuses_as_league_for_does(meetings, league):
    from django.core.exceptions import PermissionDenied
    from django.http import Http404

    from leagues.models import Role
    from leagues.permissions import meeting_for
    from tests.factories import member

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
    # Who is no member gets no row at all from the read (nor a lock, where it would take one).
    assert selectors.meeting_of(pk=first.pk, slug=league.slug, member=stranger.pk) is None
