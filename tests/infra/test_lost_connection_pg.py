"""A lost database connection (PostgreSQL restarting or failing over ends every connection, as
``pg_terminate_backend`` does) is answered as if nothing happened, never with a 500.

Between requests, against a real gunicorn (debug off, workers keeping their connections): every
backend of the test database is terminated, then pages and writes are asked for. In the middle
of a request, in this process: the backend is terminated just before the request's n-th query,
for every n. A read or a write with an idempotency key is run again on a fresh connection; any
other write is answered 503 with Retry-After, with nothing stored (leagues/table/reconnect.py).
"""

import uuid

import psycopg
import pytest
from django.db import connection

from leagues.models import Hand, Player, Role
from tests.factories import PASSWORD, LeagueFactory, meeting_for, member
from tests.live_server import Client, Gunicorn, server_env

pytestmark = [
    pytest.mark.skipif(connection.vendor != "postgresql", reason="about PostgreSQL's connections (set DATABASE_URL)"),
    pytest.mark.django_db(transaction=True),
]

FOUR = ["Anna", "Ben", "Carl", "Dora"]


def normal(eyes):
    return {"kind": "normal", "re": ["Ben", "Dora"], "re_eyes": eyes, "announcements": [], "specials": []}


def admin_connection():
    """A connection of its own to the server, to terminate the others with."""
    s = connection.settings_dict
    return psycopg.connect(
        host=s["HOST"] or None, port=s["PORT"] or None, user=s["USER"], password=s["PASSWORD"] or None,
        dbname="postgres", autocommit=True,
    )  # fmt: skip


def terminate_all(admin):
    """Ends every connection to the test database (the admin's is to another); how many."""
    return admin.execute(
        "SELECT count(pg_terminate_backend(pid, 5000)) FROM pg_stat_activity WHERE datname = %s",
        [connection.settings_dict["NAME"]],
    ).fetchone()[0]


def _backends(admin):
    """How many connections the test database has."""
    return admin.execute(
        "SELECT count(*) FROM pg_stat_activity WHERE datname = %s", [connection.settings_dict["NAME"]]
    ).fetchone()[0]


@pytest.fixture
def scene():
    league = LeagueFactory(slug="lost")
    user = member(league, role=Role.ADMIN, username="anna", first_name="Anna")
    meeting = meeting_for(league, FOUR, user=user)
    yield league, user, meeting
    connection.close()  # it may have been terminated: the teardown's flush opens a fresh one


def test_after_every_connection_was_terminated_pages_and_writes_answer_as_ever(scene, tmp_path):
    league, _user, meeting = scene
    s = connection.settings_dict
    url = f"postgres://{s['USER']}:{s['PASSWORD']}@{s['HOST']}:{s['PORT']}/{s['NAME']}"
    connection.close()  # this process's own: nothing of it is used while gunicorn runs
    answers = []
    with admin_connection() as admin, Gunicorn(server_env(url), tmp_path / "gunicorn.log", workers=2) as server:
        client = Client(server.port).log_in("anna", PASSWORD)
        page, hands = f"/l/lost/m/{meeting.pk}/", f"/api/v1/leagues/lost/meetings/{meeting.pk}/hands/"
        killed = 0
        for round_ in range(3):
            for _ in range(40):  # until both workers hold a connection
                if _backends(admin) >= 2:
                    break
                client.request("GET", page)
            killed += terminate_all(admin)
            for i in range(3):
                status, _ = client.request("GET", page)
                answers.append(("GET page", status))
                status, _ = client.json("GET", f"/api/v1/leagues/lost/meetings/{meeting.pk}/")
                answers.append(("GET api", status))
                eyes = 121 + round_ * 6 + i * 2
                status, _ = client.json("POST", hands, {"payload": normal(eyes), "idempotency_key": str(uuid.uuid4())})
                answers.append(("POST with key", status))
                status, sheet = client.json("GET", f"/api/v1/leagues/lost/meetings/{meeting.pk}/")
                number = len([h for h in sheet["hands"] if not h["deleted"]]) + 1
                status, _ = client.json("POST", hands, {"payload": normal(eyes + 1), "number": number})
                answers.append(("POST with number", status))
        log = server.log()
    # At least one connection ended each round (on a busy machine one worker may serve them all).
    assert killed >= 3
    wrong = [(what, status) for what, status in answers if status not in (200, 201)]
    assert not wrong, f"{len(wrong)} of {len(answers)} answers after {killed} terminated connections: {wrong}"
    assert "Internal Server Error" not in log, log[-3000:]
    assert Hand.objects.filter(meeting=meeting).count() == 18


class TerminateBefore:
    """An execute wrapper that terminates the connection's backend (from a second connection)
    just before the ``at``-th query it sees, once."""

    def __init__(self, admin, at):
        self.admin, self.at, self.seen, self.killed = admin, at, 0, False

    def __call__(self, execute, sql, params, many, context):
        self.seen += 1
        if self.seen == self.at:
            pid = context["connection"].connection.info.backend_pid
            self.killed = self.admin.execute("SELECT pg_terminate_backend(%s, 5000)", [pid]).fetchone()[0]
        return execute(sql, params, many, context)


def at_every_query(do):
    """``do()`` again and again, its backend terminated before its 1st query, its 2nd, ... until
    it runs fewer queries than that; the answers."""
    answers = []
    with admin_connection() as admin:
        while True:
            terminate = TerminateBefore(admin, len(answers) + 1)
            with connection.execute_wrapper(terminate):
                response = do()
            if not terminate.killed:
                return answers
            answers.append(response)


def test_a_page_whose_connection_is_lost_at_any_query_is_run_again(scene, client):
    league, user, meeting = scene
    client.force_login(user)
    path = f"/l/{league.slug}/m/{meeting.pk}/"
    answers = at_every_query(lambda: client.get(path))
    assert len(answers) >= 2
    assert [r.status_code for r in answers] == [200] * len(answers)
    assert all(b"Ben" in r.content for r in answers)


def test_a_hand_whose_connection_is_lost_at_any_query_is_entered_once(scene, client):
    league, user, meeting = scene
    client.force_login(user)
    path = f"/api/v1/leagues/{league.slug}/meetings/{meeting.pk}/hands/"

    def enter(eyes):
        body = {"payload": normal(eyes), "idempotency_key": str(uuid.uuid4())}
        return client.post(path, body, content_type="application/json")

    eyes = iter(range(121, 240))
    answers = at_every_query(lambda: enter(next(eyes)))
    assert len(answers) >= 3
    assert [r.status_code for r in answers] == [201] * len(answers), [r.content[:300] for r in answers]
    # Each entered once: the last call ran untouched and entered one more.
    stored = sorted(h.payload["re_eyes"] for h in Hand.objects.filter(meeting=meeting))
    assert stored == list(range(121, 121 + len(answers) + 1))


def test_a_hand_from_the_sheet_whose_connection_is_lost_at_any_query_is_entered_once(scene, client):
    league, user, meeting = scene
    client.force_login(user)
    target = f"/l/{league.slug}/m/{meeting.pk}/hands/_hx/"

    sent = []

    def enter():  # the next hand each time (each is entered once: asserted below)
        sent.append(str(uuid.uuid4()))
        form = {"expected_hand": len(sent), "idempotency_key": sent[-1], "kind": "normal"}
        return client.post(target, {**form, "re": ["Ben", "Dora"], "eyes": "131", "eyes_for": "re"})

    answers = at_every_query(enter)
    assert len(answers) >= 3
    assert [r.status_code for r in answers] == [302] * len(answers)
    keys = Hand.objects.filter(meeting=meeting).order_by("position").values_list("idempotency_key", flat=True)
    assert [str(key) for key in keys] == sent


def test_a_write_without_a_key_whose_connection_is_lost_is_a_503_and_stores_nothing(scene, client):
    league, user, _meeting = scene
    client.force_login(user)
    path = f"/l/{league.slug}/players/add/"
    with admin_connection() as admin:
        terminate = TerminateBefore(admin, 1)
        with connection.execute_wrapper(terminate):
            response = client.post(path, {"player-name": "Erna"})
        assert terminate.killed
    assert response.status_code == 503
    assert response["Retry-After"]
    assert not Player.objects.filter(league=league, name="Erna").exists()
    # Sent again, it is stored.
    assert client.post(path, {"player-name": "Erna"}).status_code == 302
    assert Player.objects.filter(league=league, name="Erna").exists()


def test_an_api_write_without_a_key_gets_the_api_s_error_shape(scene, client):
    league, user, meeting = scene
    client.force_login(user)
    path = f"/api/v1/leagues/{league.slug}/meetings/{meeting.pk}/hands/"
    with admin_connection() as admin:
        terminate = TerminateBefore(admin, 1)
        with connection.execute_wrapper(terminate):
            response = client.post(path, {"payload": normal(130), "number": 1}, content_type="application/json")
        assert terminate.killed
    assert response.status_code == 503, response.content[:300]
    assert response["Retry-After"]
    assert response.json()["errors"][0]["message"]
    assert not Hand.objects.filter(meeting=meeting).exists()
