"""`make bench-load`: 50 clients at once, readers and scorekeepers, against the framework floor.

The target: the mix on 2 gunicorn sync workers (debug off) with 0 errors and 0 hands lost or
entered twice; its throughput is reported as a fraction of what the same 50 clients get out of
the framework floor (``GET /bench/floor/``, logged in: a one-line template through the same
middleware, session and login as every page).

The database is a fresh one (PostgreSQL when DATABASE_URL names a PostgreSQL server, else a
SQLite file). On it, with ``tests.bench.build``'s builder, one **club** per scorekeeper: a
league of five players with a history (``CLUB_HISTORY``, bulk-inserted with the writer's
results) and a row of open evenings tonight (no hands yet). Its scorekeeper enters the
evening's hands through the API, one evening after the other (an evening holds
``HANDS_PER_MEETING`` hands, then the next one starts).

The clients (threads, each with its own connection per request, as a phone would have):

- readers (most of them) pick a club at random and fetch, at random, the sheet of the evening
  being written (the members' meeting page or the public sheet), the club's standings or its
  league page: every page they read is being written meanwhile;
- scorekeepers enter hands (``POST .../hands/`` with a fresh idempotency key and the hand
  number), send some of them again with the same key (a retry after a lost answer: it must
  answer 200 with the same hand), and now and then correct an earlier hand of the evening
  (``PUT`` with the version they saw), switching it between two payloads that replay alike.

Every client runs for ``--seconds``; before that the same 50 clients, logged in, fetch the floor
for as long. Afterwards every hand a scorekeeper was told was stored is there exactly once
(by idempotency key), in order, with the payload it was last given, no other hand is, and
``verify_replays`` finds every cached figure equal to a fresh replay. Prints a Markdown table
and writes the figures as JSON (``--output``).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import random
import statistics
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.bench.build import (  # noqa: E402
    PASSWORD,
    USERNAME,
    _replay,
    _shape,
    add_evening,
    build_league,
    random_hands,
)
from tests.bench.league import set_up  # noqa: E402
from tests.live_server import Client, Gunicorn  # noqa: E402

# (seasons, evenings, hands each) a club played before tonight.
CLUB_HISTORY = (2, 10, 40)
TINY_CLUB_HISTORY = (1, 2, 6)
HANDS_PER_MEETING = 60
CLIENTS = 50
SCOREKEEPERS = 10
# What a reader fetches, with its weight: all of a club being written.
READS = {"meeting": 35, "standings": 25, "league": 15, "public_sheet": 25}
RETRY_SHARE = 0.15  # entries sent a second time with the same key
CORRECTION_SHARE = 0.08  # a scorekeeper's requests that correct an earlier hand


# --- building (in process, Django set up on the bench's database) -----------------------------


def _alternatives(meeting, payloads, *, wanted=6):
    """{index: another payload for that hand} for a few plain normal games whose Re eyes can
    move by one without changing any round, trigger or what comes next (checked by replaying
    the whole evening with the change): a scorekeeper may flip them back and forth."""
    shape = _shape(_replay(meeting, payloads, ()))
    found = {}
    for index, payload in enumerate(payloads):
        if payload.get("kind") != "normal" or payload.get("specials") or payload.get("announcements"):
            continue
        eyes = payload["re_eyes"]
        alternative = dict(payload, re_eyes=eyes + 1 if eyes < 200 else eyes - 1)
        changed = _replay(meeting, payloads[:index] + [alternative] + payloads[index + 1 :], ())
        if changed is None or _shape(changed) != shape:
            continue
        found[index] = alternative
        if len(found) >= wanted:
            break
    return found


def build_club(*, number, history, meetings, user, rng):
    """A club of five with its ``history`` (seasons, evenings, hands) and ``meetings`` open
    evenings tonight, with, for each, the hands its scorekeeper will enter (and the
    corrections it may make)."""
    pass
    from leagues.clubs import services
    from leagues.models import League, Player, Season

    seasons, evenings, hands = history
    ids = build_league(
        slug=f"club-{number}", seasons=seasons, meetings=evenings, hands=hands, carry=False, user=user, seed=number
    )
    league = League.objects.get(slug=ids["slug"])
    season = Season.objects.get(league=league, number=seasons)
    players = list(Player.objects.filter(league=league).order_by("pk"))
    rules = services.resolved_rules(game="doppelkopf", variant="club", overrides={})
    tonight = []
    for index in range(meetings):
        meeting, seats = add_evening(
            league, season, players, index=index, date=datetime.date.today(), rules=rules, user=user
        )
        payloads = random_hands(rng, players=seats, rules=rules, carried=(), count=HANDS_PER_MEETING)
        tonight.append({"id": meeting.pk, "payloads": payloads, "alternatives": _alternatives(meeting, payloads)})
    return {"slug": ids["slug"], "token": ids["token"], "hands": ids["hands"], "evenings": tonight}


def build(*, history, scorekeepers, meetings_per_club, seed=0):
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_user(USERNAME, password=PASSWORD)
    started = time.perf_counter()
    rng = random.Random(seed + 1)
    clubs = [
        build_club(number=n, history=history, meetings=meetings_per_club, user=user, rng=rng)
        for n in range(1, scorekeepers + 1)
    ]
    return clubs, round(time.perf_counter() - started, 1)


# --- the clients --------------------------------------------------------------------------------


class Record:
    """Every request's kind, seconds and whether it went as expected (thread-safe appends)."""

    def __init__(self):
        self.times: dict[str, list[float]] = {}
        self.errors: list[str] = []
        self.lock = threading.Lock()

    def add(self, kind, seconds, error=None):
        with self.lock:
            self.times.setdefault(kind, []).append(seconds)
            if error is not None:
                self.errors.append(f"{kind}: {error}")


def _timed(record, kind, call, check):
    """Run ``call`` (a request), record its time; ``check(status, body)`` says what went wrong
    (None when nothing). Returns (status, body), (None, None) on an exception."""
    started = time.perf_counter()
    try:
        status, body = call()
    except Exception as error:  # a refused or dropped connection is an error of the run
        record.add(kind, time.perf_counter() - started, f"{type(error).__name__}: {error}")
        return None, None
    record.add(kind, time.perf_counter() - started, check(status, body))
    return status, body


def _expect(*statuses):
    def check(status, body):
        if status in statuses:
            return None
        return f"answered {status}: {str(body)[:200]}"

    return check


def reader(client, clubs, record, deadline, rng):
    kinds, weights = list(READS), list(READS.values())
    while time.monotonic() < deadline:
        kind, club = rng.choices(kinds, weights)[0], rng.choice(clubs)
        slug, token, tonight = club["slug"], club["token"], club["writing"]
        path = {
            "meeting": f"/l/{slug}/m/{tonight}/",
            "standings": f"/l/{slug}/standings/",
            "league": f"/l/{slug}/",
            "public_sheet": f"/p/{token}/m/{tonight}/",
        }[kind]
        _timed(record, kind, lambda p=path: client.request("GET", p), _expect(200))


class Scorekeeper:
    """Enters one club's evenings through the API and remembers what it was told was stored."""

    def __init__(self, client, club, record, rng):
        self.client, self.club, self.record, self.rng = client, club, record, rng
        self.evening = 0
        self.stored = {}  # meeting id -> [{"key", "id", "version", "payload", "index"}] in order
        club["writing"] = club["evenings"][0]["id"]
        self.ran_out = False

    def run(self, deadline):
        while time.monotonic() < deadline and not self.ran_out:
            evening = self.club["evenings"][self.evening]
            hands = self.stored.setdefault(evening["id"], [])
            correctable = [h for h in hands if h["index"] in evening["alternatives"]]
            if correctable and self.rng.random() < CORRECTION_SHARE:
                self.correct(evening, self.rng.choice(correctable))
            else:
                self.enter(evening, hands)

    def _url(self, evening, hand_id=None):
        url = f"/api/v1/leagues/{self.club['slug']}/meetings/{evening['id']}/hands/"
        return url if hand_id is None else f"{url}{hand_id}/"

    def enter(self, evening, hands):
        index = len(hands)
        body = {"number": index + 1, "payload": evening["payloads"][index], "idempotency_key": str(uuid.uuid4())}
        status, data = _timed(
            self.record, "enter_hand", lambda: self.client.json("POST", self._url(evening), body), _expect(201)
        )
        for _attempt in range(3):
            if status is not None and status < 500:
                break
            # No answer (or a server error): as a phone would, send it again with the same key
            # (counted as errors all the same); the key keeps it from being entered twice.
            status, data = _timed(
                self.record, "enter_hand", lambda: self.client.json("POST", self._url(evening), body), _expect(200, 201)
            )
        if status not in (200, 201):
            return
        hand = data["hand"]
        hands.append(
            {
                "key": body["idempotency_key"],
                "id": hand["id"],
                "version": hand["version"],
                "payload": body["payload"],
                "index": index,
            }
        )
        if self.rng.random() < RETRY_SHARE:

            def same_hand(status, data):
                if status != 200:
                    return f"answered {status}: {str(data)[:200]}"
                if data["hand"]["id"] != hand["id"]:
                    return f"the retry answered hand {data['hand']['id']}, not {hand['id']}"
                return None

            _timed(self.record, "retry_same_key", lambda: self.client.json("POST", self._url(evening), body), same_hand)
        if len(hands) == len(evening["payloads"]):  # the evening is full: on to the next one
            self.evening += 1
            if self.evening == len(self.club["evenings"]):
                self.ran_out = True
            else:
                self.club["writing"] = self.club["evenings"][self.evening]["id"]

    def correct(self, evening, hand):
        original = evening["payloads"][hand["index"]]
        payload = evening["alternatives"][hand["index"]] if hand["payload"] == original else original
        body = {"payload": payload, "version": hand["version"]}
        status, data = _timed(
            self.record,
            "correct_hand",
            lambda: self.client.json("PUT", self._url(evening, hand["id"]), body),
            _expect(200),
        )
        if status == 200:
            hand["payload"], hand["version"] = payload, data["hand"]["version"]


def _spawn(targets):
    threads = [threading.Thread(target=t, daemon=True) for t in targets]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def logged_in(port, session):
    """A client of its own with ``session``'s cookies: one account, logged in once."""
    client = Client(port)
    client.cookies = dict(session.cookies)
    return client


def hammer_floor(port, session, clients, seconds):
    record = Record()
    deadline = time.monotonic() + seconds

    def fetcher():
        client = logged_in(port, session)
        while time.monotonic() < deadline:
            _timed(record, "floor", lambda: client.request("GET", "/bench/floor/"), _expect(200))

    started = time.monotonic()
    _spawn([fetcher] * clients)
    return record, time.monotonic() - started


def run_mix(port, session, clubs, *, clients, scorekeepers, seconds, seed):
    record = Record()
    keepers = [
        Scorekeeper(logged_in(port, session), club, record, random.Random(seed + n)) for n, club in enumerate(clubs)
    ]
    deadline = time.monotonic() + seconds
    targets = [lambda k=k: k.run(deadline) for k in keepers[:scorekeepers]]
    for n in range(clients - len(targets)):
        client, rng = logged_in(port, session), random.Random(seed + 1000 + n)
        targets.append(lambda c=client, r=rng: reader(c, clubs, record, deadline, r))
    started = time.monotonic()
    _spawn(targets)
    return record, time.monotonic() - started, keepers


def warm_up(session, clubs):
    """Each page once per worker or so (imports, template loading, caches)."""
    for club in clubs[:2]:
        tonight = club["evenings"][0]["id"]
        paths = [
            f"/l/{club['slug']}/m/{tonight}/",
            f"/l/{club['slug']}/standings/",
            f"/l/{club['slug']}/",
            f"/p/{club['token']}/m/{tonight}/",
            "/bench/floor/",
        ]
        for _ in range(2):
            for path in paths:
                session.request("GET", path)


# --- the checks -----------------------------------------------------------------------------------


def check_hands(keepers):
    """Every hand a scorekeeper was told was stored is there once, in its place, with the
    payload it was last given; no other hand is in the clubs' meetings. Returns the counts."""
    from leagues.models import Hand

    intended = lost = duplicated = wrong = unexpected = 0
    for keeper in keepers:
        for meeting_id, hands in keeper.stored.items():
            intended += len(hands)
            rows = list(Hand.objects.filter(meeting_id=meeting_id).order_by("position"))
            by_key = {}
            for row in rows:
                by_key.setdefault(str(row.idempotency_key), []).append(row)
            keys = {h["key"] for h in hands}
            unexpected += sum(1 for key in by_key if key not in keys)
            for number, hand in enumerate(hands, 1):
                found = by_key.get(hand["key"], [])
                if not found:
                    lost += 1
                    continue
                if len(found) > 1:
                    duplicated += len(found) - 1
                row = found[0]
                if row.deleted_at is not None or row.number != number or row.payload != hand["payload"]:
                    wrong += 1
    return {"intended": intended, "lost": lost, "duplicated": duplicated, "wrong": wrong, "unexpected": unexpected}


def check_caches():
    pass
    from leagues.table import verify

    checked, problems = verify.verify_replays()
    return {"meetings_checked": checked, "problems": [str(p) for p in problems[:5]], "problem_count": len(problems)}


# --- figures ------------------------------------------------------------------------------------


def _ms(values, share):
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(share * len(ordered)))] * 1000, 1)


def summarise(record, seconds):
    every = [t for times in record.times.values() for t in times]
    figures = {
        "requests": len(every),
        "per_second": round(len(every) / seconds, 1),
        "p50_ms": _ms(every, 0.5) if every else None,
        "p95_ms": _ms(every, 0.95) if every else None,
        "errors": len(record.errors),
        "first_errors": record.errors[:5],
        "kinds": {},
    }
    for kind, times in sorted(record.times.items()):
        figures["kinds"][kind] = {
            "requests": len(times),
            "per_second": round(len(times) / seconds, 1),
            "p50_ms": _ms(times, 0.5),
            "p95_ms": _ms(times, 0.95),
            "median_ms": round(statistics.median(times) * 1000, 1),
        }
    return figures


def table(results):
    floor, mix = results["floor"], results["mix"]
    share = results["mix_to_floor"]
    lines = [
        "| | requests | requests/s | p50 | p95 | errors |",
        "|---|---|---|---|---|---|",
        f"| the framework floor `GET /bench/floor/` | {floor['requests']} | {floor['per_second']} "
        f"| {floor['p50_ms']} ms | {floor['p95_ms']} ms | {floor['errors']} |",
        f"| **the mix** ({share} of the floor's throughput) | {mix['requests']} | {mix['per_second']} "
        f"| {mix['p50_ms']} ms | {mix['p95_ms']} ms | {mix['errors']} |",
    ]
    for kind, f in mix["kinds"].items():
        lines.append(
            f"| — {kind.replace('_', ' ')} | {f['requests']} | {f['per_second']} | {f['p50_ms']} ms | {f['p95_ms']} ms | |"
        )
    hands = results["hands"]
    lines.append("")
    lines.append(
        f"Hands: {hands['intended']} stored as told, {hands['lost']} lost, {hands['duplicated']} duplicated, "
        f"{hands['wrong']} out of place or with another payload, {hands['unexpected']} unexpected; "
        f"verify_replays: {results['replays']['problem_count']} problems in {results['replays']['meetings_checked']} meetings."
    )
    return "\n".join(lines)


# --- the run --------------------------------------------------------------------------------------


def run(database_url, *, history, clients, scorekeepers, meetings_per_club, seconds, workers=2, seed=0):
    env = set_up(database_url)
    from django.db import connection

    clubs, build_seconds = build(
        history=history, scorekeepers=scorekeepers, meetings_per_club=meetings_per_club, seed=seed
    )
    print(f"Built {len(clubs)} clubs in {build_seconds} s")
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")
    connection.close()
    with tempfile.TemporaryDirectory() as folder:
        with Gunicorn(env, Path(folder) / "gunicorn.log", workers=workers, timeout=120) as server:
            session = Client(server.port).log_in(USERNAME, PASSWORD)
            warm_up(session, clubs)
            floor, floor_seconds = hammer_floor(server.port, session, clients, seconds)
            mix, mix_seconds, keepers = run_mix(
                server.port, session, clubs, clients=clients, scorekeepers=scorekeepers, seconds=seconds, seed=seed
            )
            log = server.log()
    results = {
        "database": connection.vendor,
        "workers": workers,
        "clients": clients,
        "scorekeepers": scorekeepers,
        "seconds": seconds,
        "club_history": "{} × {} × {}".format(*history),
        "build_seconds": build_seconds,
        "floor": summarise(floor, floor_seconds),
        "mix": summarise(mix, mix_seconds),
        "hands": check_hands(keepers),
        "replays": check_caches(),
        "scorekeepers_ran_out": sum(1 for k in keepers if k.ran_out),
    }
    results["mix_to_floor"] = round(results["mix"]["per_second"] / results["floor"]["per_second"], 3)
    if results["mix"]["errors"] or results["floor"]["errors"]:
        results["server_log_tail"] = log[-3000:]
    connection.close()
    return results


def problems(results):
    """What makes the run fail (not the throughput: that is a figure to read, not a check)."""
    found = []
    for phase in ("floor", "mix"):
        if results[phase]["errors"]:
            found.append(f"{results[phase]['errors']} errors in the {phase} phase: {results[phase]['first_errors']}")
    hands = results["hands"]
    if hands["lost"] or hands["duplicated"] or hands["wrong"] or hands["unexpected"]:
        found.append(f"hands not as told: {hands}")
    if not hands["intended"]:
        found.append("no hand was entered")
    if results["replays"]["problem_count"]:
        found.append(f"verify_replays: {results['replays']['problems']}")
    return found


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--output", default="bench-load-results.json")
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--clients", type=int, default=CLIENTS)
    parser.add_argument("--scorekeepers", type=int, default=SCOREKEEPERS)
    parser.add_argument("--tiny", action="store_true", help="small clubs, few clients, a few seconds (the test suite)")
    parser.add_argument("--sqlite", action="store_true", help="a fresh SQLite file even when DATABASE_URL is set")
    args = parser.parse_args(argv)
    history = CLUB_HISTORY
    # Enough evenings that no scorekeeper runs out (a write takes some tens of ms at least).
    meetings_per_club = max(2, int(args.seconds * 20 / HANDS_PER_MEETING) + 1)
    if args.tiny:
        history, args.seconds, args.clients, args.scorekeepers = TINY_CLUB_HISTORY, 3, 8, 2
        meetings_per_club = 2
    options = dict(
        history=history,
        clients=args.clients,
        scorekeepers=args.scorekeepers,
        meetings_per_club=meetings_per_club,
        seconds=args.seconds,
    )
    url = os.environ.get("DATABASE_URL", "")
    with tempfile.TemporaryDirectory() as folder:
        if url.startswith("postgres") and not args.sqlite:
            from tests.fuzz.run import FreshPostgres, postgres_url

            with FreshPostgres(postgres_url(url)) as fresh:
                results = run(fresh, **options)
        else:
            results = run(f"sqlite:///{folder}/bench-load.sqlite3", **options)
    markdown = table(results)
    results["table"] = markdown
    print(
        f"\n{results['clients']} clients ({results['scorekeepers']} scorekeepers) for {results['seconds']} s each, "
        f"{results['database']}, gunicorn {results['workers']} sync workers; "
        f"{results['scorekeepers']} clubs of {results['club_history']} before tonight:\n"
    )
    print(markdown)
    Path(args.output).write_text(json.dumps(results, indent=2, ensure_ascii=False, default=str) + "\n")
    print(f"\nWritten to {args.output}")
    found = problems(results)
    for problem in found:
        print(f"PROBLEM: {problem}", file=sys.stderr)
    if results.get("server_log_tail"):
        print(results["server_log_tail"], file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
