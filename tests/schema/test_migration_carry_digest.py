"""Migration 0015 on a database with carried rounds cached: each MeetingCarry's digest of its
meeting's live hands is written anew as ``services.hands_digest`` writes it now, so that the
next meeting's pages read what it left open instead of replaying it; a digest that did not
match its hands (a stale cache) is left not matching."""

import hashlib
import json

from leagues.table.replay import hands_digest
from tests.migrations import migrate

BEFORE = [("leagues", "0014_session_with_user")]
AFTER = [("leagues", "0015_carry_digest_orjson")]


def old_digest(payloads):
    # As the code before the migration wrote it.
    return hashlib.sha256(json.dumps(list(payloads), sort_keys=True).encode()).hexdigest()


def meetings_before(*days):
    """A league's meetings on ``days`` of January 2020, on the database before the migration;
    with its Hand and MeetingCarry models."""
    (meeting,), Hand, Carry = meetings_before(3)
    Hand.objects.create(meeting=meeting, position=1, number=1, payload={"kind": "normal", "repaired": True})
    Carry.objects.create(
        meeting=meeting, carried_in=[], queue_after=["bock"], hands_digest=old_digest([{"kind": "normal"}])
    )

    apps = migrate(AFTER)
    stored = apps.get_model("leagues", "MeetingCarry").objects.get().hands_digest
    assert stored == ""
    assert stored != hands_digest([{"kind": "normal", "repaired": True}])
