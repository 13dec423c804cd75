"""kartenliga/postgresql: Django's PostgreSQL backend with every batch Django makes cut to the
65,535 parameters a statement may bind once the server binds them (settings'
server_side_binding, issue 12). Without it, deleting a league of more than 65,535 hands was
refused: the deletion looked up the hands' results by one IN of every hand."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from kartenliga.postgresql import base
from leagues import services
from leagues.models import Hand, HandResult, League
from tests.factories import LeagueFactory, meeting_for, member

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="the limit of PostgreSQL's bound parameters"),
]

PLAIN = {"kind": "normal", "re": ["Ben", "Dora"], "re_eyes": 131}


def test_every_batch_fits_the_bound_parameters():
    objs = list(range(200_000))
    for fields in (["pk"], ["pk", "pk", "total"], ["a"] * 15):
        size = connection.ops.bulk_batch_size(fields, objs)
        # bulk_update binds two per field and row; everything else one.
        assert 1 <= size and size * 2 * len(fields) <= 65535
    assert connection.ops.bulk_batch_size(["pk"], objs[:10]) == 10
    assert connection.features.uses_server_side_binding


def test_a_league_is_deleted_in_batches_of_what_fits(monkeypatch):
    league = LeagueFactory(game="doppelkopf", variant="club")
    scorekeeper = member(league, "scorekeeper")
    meeting = meeting_for(league, ["Anna", "Ben", "Carl", "Dora"])
    for _ in range(12):
        services.add_hand(meeting=meeting, payload=PLAIN, user=scorekeeper)
    assert HandResult.objects.filter(meeting=meeting).count() == 48
    # 6 parameters a statement: the 12 hands' results are looked up and deleted in batches.
    monkeypatch.setattr(base, "MAX_PARAMETERS", 6)
    with CaptureQueriesContext(connection) as queries:
        League.objects.get(pk=league.pk).delete()
    by_hand = [q for q in queries.captured_queries if '"leagues_handresult"' in q["sql"] and "hand_id" in q["sql"]]
    assert len(by_hand) >= 4
    assert not League.objects.filter(pk=league.pk).exists()
    assert not Hand.objects.filter(meeting_id=meeting.pk).exists()
    assert not HandResult.objects.filter(meeting_id=meeting.pk).exists()
