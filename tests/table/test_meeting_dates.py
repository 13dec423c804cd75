"""A meeting's date is from 1900 to a year ahead, on the start form and in the service; the
meeting page never breaks on a date at the edge of the calendar."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from leagues import exceptions
from leagues.models import Meeting, Player, Role
from leagues.table.evening import end_time_passed
from tests.factories import LeagueFactory, meeting_for, member

pytestmark = pytest.mark.django_db

NAMES = ["Anna", "Ben", "Carl", "Dora"]


@pytest.fixture
def league():
    league = LeagueFactory(game="doppelkopf", variant="club")
    for name in NAMES:
        Player.objects.create(league=league, name=name)
    return league


def start(client, league, date, end_time="01:00"):
    client.force_login(member(league, Role.SCOREKEEPER))
    ids = [str(Player.objects.get(league=league, name=n).pk) for n in NAMES]
    return client.post(
        reverse("meeting_start", kwargs={"slug": league.slug}), {"players": ids, "date": date, "end_time": end_time}
    )


def ahead(days):
    return (timezone.localdate() + datetime.timedelta(days=days)).isoformat()


@pytest.mark.parametrize("date", ["9999-12-31", "1899-12-31", "0001-01-01", ahead(367)])
def test_the_start_form_refuses_a_date_out_of_range_on_the_field(client, league, date):
    response = start(client, league, date)
    assert response.status_code == 400
    assert response.context["form"].errors["date"]
    assert not Meeting.objects.exists()


@pytest.mark.parametrize("date", ["1900-01-01", ahead(0), ahead(366)])
def test_the_start_form_takes_a_date_from_1900_to_a_year_ahead(client, league, date):
    response = start(client, league, date)
    assert response.status_code == 302
    assert Meeting.objects.get().date.isoformat() == date


@pytest.mark.parametrize("date", [datetime.date(9999, 12, 31), datetime.date(1899, 12, 31)])
def test_the_service_refuses_it_too(league, date):
    with pytest.raises(exceptions.InvalidInput) as caught:
        meeting_for(league, NAMES, date=date)
    assert [e["field"] for e in caught.value.errors] == ["date"]
    assert not Meeting.objects.exists()


def test_an_end_time_after_midnight_on_the_last_day_of_the_calendar_is_not_a_500(client, league):
    # A meeting stored before dates were checked: "until 1 o'clock" is a day past 9999-12-31.
    meeting = meeting_for(league, NAMES, date=datetime.date(2026, 11, 20), end_time=datetime.time(1, 0))
    Meeting.objects.filter(pk=meeting.pk).update(date=datetime.date(9999, 12, 31))
    meeting.refresh_from_db()
    assert end_time_passed(meeting) is False
    client.force_login(member(league))
    assert client.get(meeting.get_absolute_url()).status_code == 200


def test_the_end_time_after_midnight_still_counts_for_an_ordinary_date(league):
    meeting = meeting_for(league, NAMES, date=datetime.date(2026, 11, 20), end_time=datetime.time(1, 0))
    tz = timezone.get_current_timezone()
    assert end_time_passed(meeting, now=datetime.datetime(2026, 11, 21, 0, 59, tzinfo=tz)) is False
    assert end_time_passed(meeting, now=datetime.datetime(2026, 11, 21, 1, 0, tzinfo=tz)) is True
