"""services._row_params: what a write's own INSERT sends for a row is what the field's
get_db_prep_save sends (issue 12: the fields' checks cost each hand entered 0.5 ms, so a
number, a flag or a text of the field's own type skips them). On SQLite and PostgreSQL."""

import datetime
import uuid

import pytest
from django.db import connection
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from leagues import services
from leagues.models import Hand, HandResult, MeetingCarry, MeetingResult
from tests.factories import LeagueFactory, meeting_for

FOUR = ["Anna", "Ben", "Carl", "Dora"]


def field_params(row):
    fields = [f for f in type(row)._meta.concrete_fields if not f.primary_key]
    return fields, [f.get_db_prep_save(getattr(row, f.attname), connection) for f in fields]


def same(row):
    fields, expected = field_params(row)
    params = services._row_params(row, services._plain_values(tuple(fields), connection.alias), connection)
    # Equal, and of the same type (psycopg's Int4 is not Int8: a prepared statement's
    # parameter types would differ). psycopg's JSON wrapper compares by what it wraps.
    assert [plain(p) for p in params] == [plain(p) for p in expected]


def plain(value):
    return (type(value), getattr(value, "obj", value))


@pytest.fixture
def meeting(db):
    return meeting_for(LeagueFactory(game="doppelkopf", variant="club"), FOUR, date=datetime.date(2026, 11, 20))


# The meeting is only read: one for every example.
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    delta=st.integers(-(2**31), 2**31 - 1),
    won=st.booleans(),
    games_won=st.integers(0, 32767),
    round_=st.sampled_from(["", "bock", "ramsch", "pflichtsolo"]),
)
def test_it_sends_a_result_row_as_its_fields_do(meeting, delta, won, games_won, round_):
    row = result_row(meeting, delta=delta, total=delta, won=won, games_won=games_won, solo=not won, round=round_)
    same(row)


def test_it_sends_sums_a_carry_and_a_history_record_as_their_fields_do(meeting):
    player = meeting.seats.first().player
    same(MeetingResult(meeting=meeting, season_id=meeting.season_id, league_id=meeting.league_id, player=player))
    same(MeetingCarry(meeting=meeting, carried_in=["bock"], queue_after=[], hands_digest="ab" * 32))
    now = datetime.datetime(2026, 11, 20, 21, 5, tzinfo=datetime.timezone.utc)
    hand = Hand(meeting=meeting, position=1, number=1, payload={"kind": "normal"}, idempotency_key=uuid.uuid4())
    hand.pk, hand.entered_at, hand.changed_at = 7, now, now
    History = services._hand_history_model()
    record = History(
        history_date=now,
        history_type="+",
        history_user_id=None,
        history_change_reason=None,
        **{f.attname: getattr(hand, f.attname) for f in Hand._meta.concrete_fields},
    )
    same(record)


def test_a_value_not_of_its_fields_type_goes_through_the_field(meeting):
    # A flag given as 1, a number as True or as text: each converted by its field, as before.
    same(result_row(meeting, number="3", active=1, delta=True, won=0))


def result_row(meeting, **figures):
    """A HandResult of the meeting's first seated player, hand 3, with ``figures`` over
    plain ones."""
    plain = {"number": 3, "active": True, "delta": 1, "total": 2, "won": True}
    plain.update(games_won=0, solo=False, round="")
    return HandResult(
        hand_id=1,
        meeting=meeting,
        season_id=meeting.season_id,
        league_id=meeting.league_id,
        player=meeting.seats.first().player,
        **{**plain, **figures},
    )
