"""SQLite, the embedded default, under concurrent writers: 0 server errors, nothing lost.

A real gunicorn (4 workers of 5 threads: 20 requests at once reach the database) on a fresh
SQLite file; 20 phones log in at once and enter hands through the API into four meetings.
Before SQLite was set up for a web server (WAL, busy timeout, immediate transactions:
kartenliga/settings.py) about a quarter of such writes answered 500 "database is locked".

A 409 is a correct answer: another phone entered that hand number first. Half the phones send
the number they saw (and meet such conflicts), half send a fresh idempotency key instead (every
entry is stored).
"""

import os
import threading
import uuid
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.live_server import Client, Gunicorn, manage, server_env

pytestmark = pytest.mark.skipif(
    not os.environ.get("DATABASE_URL", "sqlite").startswith("sqlite"),
    reason="about SQLite; runs in the suite's SQLite pass",
)

WRITERS = 20
MEETINGS = 4
ENTRIES = 6  # per phone
PASSWORD = "concurrency-pw-4711"
NAMES = ["Anna", "Ben", "Carl", "Dora"]

SETUP = f"""
import datetime
from django.contrib.auth import get_user_model
from leagues.clubs.services import create_league
from leagues.table.meetings import start_meeting
from leagues.models import Player
user = get_user_model().objects.create_user("anna", first_name="Anna", password={PASSWORD!r})
league = create_league(
    name="Concurrency", slug="concurrency", game="doppelkopf", variant="club", rule_overrides={{}}, user=user
)
players = [Player.objects.get(league=league, user=user)]
players += [Player.objects.create(league=league, name=name) for name in {NAMES[1:]!r}]
for i in range({MEETINGS}):
    meeting = start_meeting(
        league=league, date=datetime.date(2026, 1, 2) + datetime.timedelta(weeks=i),
        players=players[i:] + players[:i], user=user,
    )
    print("MEETING", meeting.pk)
"""


def normal(eyes):
    """A plain Re win of Ben and Dora; the eyes tell the hands apart."""
    return {"kind": "normal", "re": ["Ben", "Dora"], "re_eyes": eyes, "announcements": [], "specials": []}


def test_twenty_concurrent_writers_get_no_server_error_and_every_hand_is_stored_once(tmp_path):
    env = server_env(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    manage(env, "migrate", "--noinput", "-v", "0")
    meetings = [int(line.split()[1]) for line in manage(env, "shell", "-c", SETUP).splitlines() if "MEETING" in line]
    assert len(meetings) == MEETINGS

    answers = []  # (writer, meeting, eyes sent, status, answer unless 201 or 409)
    failed_reads = []
    lock = threading.Lock()
    start = threading.Barrier(WRITERS)

    with Gunicorn(env, tmp_path / "gunicorn.log", workers=4, threads=5) as server:

        def phone(writer):
            start.wait()
            client = Client(server.port).log_in("anna", PASSWORD)  # 20 logins at once write too
            meeting = meetings[writer % MEETINGS]
            url = f"/api/v1/leagues/concurrency/meetings/{meeting}/"
            for entry in range(ENTRIES):
                # Distinct per meeting: 121..150, a plain win (more would call a solo round).
                eyes = 121 + writer // MEETINGS * ENTRIES + entry
                body = {"payload": normal(eyes), "idempotency_key": str(uuid.uuid4())}
                if writer % 2:
                    del body["idempotency_key"]
                    status, sheet = client.json("GET", url)
                    if status != 200:
                        with lock:
                            failed_reads.append((writer, meeting, status, sheet))
                        continue
                    body["number"] = sum(1 for hand in sheet["hands"] if not hand["deleted"]) + 1
                status, answer = client.json("POST", url + "hands/", body)
                with lock:
                    answers.append((writer, meeting, eyes, status, answer if status not in (201, 409) else None))

        with ThreadPoolExecutor(WRITERS) as pool:
            for future in [pool.submit(phone, w) for w in range(WRITERS)]:
                future.result()

        statuses = Counter(status for *_, status, _ in answers)
        print("answers:", dict(statuses))
        errors = [a for a in answers if a[3] not in (201, 409)] + failed_reads
        assert not errors, (
            f"{len(errors)} of {len(answers)} requests failed (writes and reads): {errors[:5]}\n{server.log()[-3000:]}"
        )
        assert "database is locked" not in server.log()
        assert statuses[201] >= WRITERS // 2 * ENTRIES  # the phones with a key and no number always store

        # Every acknowledged hand is on its meeting's sheet exactly once; nothing else is.
        reader = Client(server.port).log_in("anna", PASSWORD)
        for meeting in meetings:
            status, sheet = reader.json("GET", f"/api/v1/leagues/concurrency/meetings/{meeting}/")
            assert status == 200
            stored = Counter(hand["payload"]["re_eyes"] for hand in sheet["hands"] if not hand["deleted"])
            acknowledged = Counter(eyes for _, m, eyes, status, _ in answers if m == meeting and status == 201)
            assert stored == acknowledged
            assert [hand["number"] for hand in sheet["hands"]] == list(range(1, len(sheet["hands"]) + 1))
            assert len(sheet["result"]["hands"]) == len(sheet["hands"])  # and they all replay
