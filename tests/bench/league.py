"""`make bench-league`: what the pages of a big league cost, as ratios to the trivial endpoint.

Builds three Doppelkopf leagues on a fresh database (a fresh PostgreSQL one when DATABASE_URL
names a PostgreSQL server, else a fresh SQLite file):

- ``small``: 1 season x 3 meetings x 40 hands;
- ``big``: 20 seasons x 40 meetings x 40 hands (32,000 hands);
- ``carry``: ``carry_special_rounds`` on, 2 seasons x 40 meetings x 40 hands.

The hands are random valid ones (the engine's own generator, following the deal and the special
rounds each meeting was given); they are bulk-inserted with the cached results the real replay
gives (``services.calculate_meeting``, ``services.result_rows``), not entered one by one, so the
big league is built in about a minute. The last meeting of each league holds 39 hands, so that
hand 40 can be entered.

Then a gunicorn (2 sync workers, debug off) serves them and each page is timed, interleaved
with the trivial ``POST /api/v1/ping/`` in the same run: a run takes ``--samples`` of both and
gives the ratio of their medians; the figure is min/median/max over ``--runs`` runs. Prints a
Markdown table and writes the figures as JSON (``--output``). Targets (issue 12): every page
<= 5x trivial and the big league within 1.25x of the small one; entering a hand <= 8x;
correcting hand 1 of the first meeting <= 10x.
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
import time
import uuid
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.live_server import Client, Gunicorn, server_env  # noqa: E402

NAMES = ["Anna", "Ben", "Carl", "Dora", "Emil"]
USERNAME, PASSWORD = "bench", "bench-league-password"

SIZES = {
    # label: (seasons, meetings per season, hands per meeting, carry)
    "small": (1, 3, 40, False),
    "big": (20, 40, 40, False),
    "carry": (2, 40, 40, True),
}
TINY = {"small": (1, 2, 6, False), "big": (2, 3, 6, False), "carry": (2, 2, 6, True)}


# --- building the leagues (in process, Django set up on the bench's database) -----------------


def random_hands(rng, *, players, rules, carried, count):
    """``count`` random valid hands for a meeting of ``players`` (seat order) under ``rules``
    (a meeting's full rule set) that was given the special rounds ``carried``: the engine's
    own example generator, fed the carried queue as the replay will be."""
    from scoring.doppelkopf import Deal, active_seats
    from scoring.doppelkopf_example import random_hand
    from scoring.doppelkopf_rules import Rules
    from scoring.doppelkopf_value import Context, score_hand
    from scoring.errors import Problems

    rules = Rules(rules)
    n = len(players)
    deal = Deal(n, rules, [], list(carried))
    ctx = Context(tuple(players), rules)
    problems = Problems()
    hands = []
    for number in range(1, count + 1):
        rnd, dealer, soloist = deal.upcoming()
        ctx.active = tuple(players[i] for i in active_seats(n, dealer))
        ctx.active_set = frozenset(ctx.active)
        ctx.round = rnd
        ctx.soloist = players[soloist] if soloist is not None else None
        hand = random_hand(rng, ctx)
        scored = score_hand(hand, number, ctx, problems)
        if scored is None:
            raise AssertionError(f"generated an invalid hand {hand!r}: {problems.items!r}")
        deal.finish(rnd, scored, [])
        hands.append(hand)
    return hands


def _plain_first_hand(result):
    """Whether hand 1 of a replay is a plain normal game that sets off nothing (so that a
    correction of it changes no special round, and with it nothing carried)."""
    first = result["hands"][0]
    return (first.get("round") or "normal") == "normal" and not first.get("triggers") and first.get("soloist") is None


def _entry_ready(result):
    """Whether the replay's next hand is a normal (or Bock) game: hand 40 is entered as one."""
    return (result["next"].get("round") or "normal") in ("normal", "bock") and not result["next"].get("soloist")


def build_league(*, slug, seasons, meetings, hands, carry, user, seed=0):
    """One league as described above; returns what the timed requests need."""
    from django.db import transaction

    from leagues import services
    from leagues.models import Hand, HandResult, League, Meeting, Player, Season, Seat

    rng = random.Random(seed)
    overrides = {"carry_special_rounds": True} if carry else {}
    league = services.create_league(
        name=f"Bench {slug}", slug=slug, game="doppelkopf", variant="club", rule_overrides=overrides, user=user
    )
    League.objects.filter(pk=league.pk).update(public_token=f"bench-{slug}-" + "t" * 24)
    league.refresh_from_db()
    players = [Player.objects.create(league=league, name=name) for name in NAMES]
    rules = services.resolved_rules(game="doppelkopf", variant="club", overrides=overrides)
    total = seasons * meetings
    first_date = datetime.date.today() - datetime.timedelta(days=7 * total)
    carried: tuple[str, ...] = ()
    ids = {"slug": slug, "token": league.public_token, "meetings": total, "hands": 0}
    index = 0
    for number in range(1, seasons + 1):
        start = first_date + datetime.timedelta(days=7 * index)
        end = start + datetime.timedelta(days=7 * (meetings - 1))
        season = Season.objects.create(
            league=league, number=number, started_on=start, closed_on=end if number < seasons else None
        )
        for _ in range(meetings):
            with transaction.atomic():
                seats = players[index % 5 :] + players[: index % 5]
                meeting = Meeting.objects.create(
                    league=league,
                    season=season,
                    date=first_date + datetime.timedelta(days=7 * index),
                    host=seats[0],
                    game="doppelkopf",
                    variant="club",
                    rules=rules,
                    created_by=user,
                )
                Seat.objects.bulk_create(Seat(meeting=meeting, player=p, position=i) for i, p in enumerate(seats))
                last = index == total - 1
                count = hands - 1 if last else hands
                given = carried if carry else ()
                # A few tries: the first meeting's hand 1 must be a plain game (it is corrected),
                # and the last meeting must be ready for a normal hand 40 (it is entered).
                # The meeting before the last one leaves few rounds open if it can, so that the
                # last one reaches a normal game even when meetings are short.
                for _attempt in range(200):
                    payloads = random_hands(
                        rng, players=[p.name for p in seats], rules=rules, carried=given, count=count
                    )
                    result = services.calculate_meeting(meeting, payloads=payloads, carried=given)
                    if (index > 0 or _plain_first_hand(result)) and (not last or _entry_ready(result)):
                        if index != total - 2 or not carry or len(services._queue_after(result)) <= 1:
                            break
                else:
                    if last or index == 0:
                        raise RuntimeError("no suitable random meeting found")
                rows = Hand.objects.bulk_create(
                    Hand(meeting=meeting, position=i, number=i, payload=p, entered_by=user)
                    for i, p in enumerate(payloads, 1)
                )
                results = HandResult.objects.bulk_create(services.result_rows(meeting, rows, result))
                _cache_meeting(meeting, results, result, given, payloads)
                carried = services._queue_after(result)
            if index == 0:
                ids["first_meeting"] = meeting.pk
                ids["first_hand"] = rows[0].pk
                ids["first_hand_active"] = list(result["hands"][0].get("active") or [p.name for p in seats])
            if index == total - 2 or total == 1:
                ids["full_meeting"] = meeting.pk
            if last:
                ids["entry_meeting"] = meeting.pk
                ids["entry_active"] = _next_active(result, [p.name for p in seats])
            ids["hands"] += len(rows)
            index += 1
    return ids


def _cache_meeting(meeting, rows, result, carried, payloads):
    """The per-meeting caches next to HandResult, as services.write_results keeps them (when
    the app has them: the same script measures the code before issue 12 too)."""
    from leagues import models, services

    if not hasattr(models, "MeetingResult"):
        return
    MeetingResult = models.MeetingResult
    seat_order = dict(meeting.seats.values_list("player_id", "position"))
    MeetingResult.objects.bulk_create(services.meeting_result_rows(meeting, rows, seat_order=seat_order))
    services.write_carry(
        meeting,
        carried=carried,
        queue_after=services._queue_after(result),
        digest=services.hands_digest(payloads),
    )


def _next_active(result, seats):
    """Who plays the next hand (at five, the dealer sits out)."""
    nxt = result.get("next") or {}
    active = nxt.get("active")
    if active:
        return list(active)
    dealer = nxt.get("dealer")
    return [name for name in seats if name != dealer][:4]


def build(sizes, *, seed=0):
    """Every league of ``sizes``; returns {label: ids} and the seconds each took."""
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_user(USERNAME, password=PASSWORD)
    built, seconds = {}, {}
    for label, (seasons, meetings, hands, carry) in sizes.items():
        started = time.perf_counter()
        built[label] = build_league(
            slug=f"bench-{label}", seasons=seasons, meetings=meetings, hands=hands, carry=carry, user=user, seed=seed
        )
        seconds[label] = round(time.perf_counter() - started, 1)
    return built, seconds


# --- timing -----------------------------------------------------------------------------------


def normal_hand_form(active, *, eyes):
    """What the Doppelkopf form posts for a plain normal game (Re: the first two at the table)."""
    return {"kind": "normal", "re": list(active[:2]), "eyes": str(eyes), "eyes_for": "re", "ann": []}


class Pages:
    """The timed requests of one league. Each write is undone (untimed) after it is timed, so
    that every run meets the same league."""

    def __init__(self, client, ids):
        self.client, self.ids = client, ids
        self.flip = 0

    def _get(self, path):
        status, _body = self.client.request("GET", path)
        if status != 200:
            raise RuntimeError(f"GET {path} answered {status}")

    def league(self):
        self._get(f"/l/{self.ids['slug']}/")

    def standings(self):
        self._get(f"/l/{self.ids['slug']}/standings/")

    def public_standings(self):
        self._get(f"/p/{self.ids['token']}/")

    def meeting(self):
        self._get(f"/l/{self.ids['slug']}/m/{self.ids['full_meeting']}/")

    def public_sheet(self):
        self._get(f"/p/{self.ids['token']}/m/{self.ids['full_meeting']}/")

    def enter_hand(self):
        from leagues.models import Hand

        meeting = self.ids["entry_meeting"]
        expected = Hand.objects.filter(meeting_id=meeting, deleted_at=None).count() + 1
        # As a phone posts the form: its hidden fields too (the hand it expects, the
        # idempotency key of this rendering of the form).
        form = {
            "expected_hand": str(expected),
            "idempotency_key": str(uuid.uuid4()),
            **normal_hand_form(self.ids["entry_active"], eyes=131),
        }
        started = time.perf_counter()
        status, body = self.client.request(
            "POST",
            f"/l/{self.ids['slug']}/m/{meeting}/hands/_hx/",
            body=urlencode(form, doseq=True),
            headers={"Content-Type": "application/x-www-form-urlencoded", "HX-Request": "true"},
        )
        elapsed = time.perf_counter() - started
        if status != 200:
            raise RuntimeError(f"entering hand {expected} answered {status}: {body[:300]!r}")
        self._undo_entry(meeting)
        return elapsed

    def _undo_entry(self, meeting_id):
        """Take the entered hand out again, as if it had never been entered."""
        from django.db import transaction

        from leagues import services
        from leagues.models import Hand, Meeting

        with transaction.atomic():
            Hand.objects.filter(meeting_id=meeting_id).order_by("-position").first().delete()
            services.replay_meeting(meeting=Meeting.objects.get(pk=meeting_id))

    def correct_first_hand(self):
        from leagues.models import Hand

        hand = Hand.objects.get(pk=self.ids["first_hand"])
        self.flip = 1 - self.flip  # alternate, so that each correction changes the hand
        form = {"version": str(hand.version), **normal_hand_form(self.ids["first_hand_active"], eyes=131 + self.flip)}
        started = time.perf_counter()
        status, body = self.client.request(
            "POST",
            f"/l/{self.ids['slug']}/m/{self.ids['first_meeting']}/h/{hand.pk}/edit/",
            body=urlencode(form, doseq=True),
            headers={"Content-Type": "application/x-www-form-urlencoded"},
        )
        elapsed = time.perf_counter() - started
        if status != 302:
            raise RuntimeError(f"correcting hand 1 answered {status}: {body[:300]!r}")
        return elapsed


PAGES = {
    "league": ("league page", "league"),
    "standings": ("standings (season + all-time + chart)", "standings"),
    "public_standings": ("public standings", "public_standings"),
    "meeting": ("meeting page, 40 hands", "meeting"),
    "public_sheet": ("public sheet, 40 hands", "public_sheet"),
    "enter_hand": ("htmx POST of hand 40", "enter_hand"),
    "correct_first": ("correct hand 1 of the first meeting", "correct_first_hand"),
}


def time_page(pages, method, ping, samples):
    """One run: ``samples`` of the page and of the trivial endpoint, interleaved; the ratio of
    their medians and the page's median in ms."""
    page_times, ping_times = [], []
    for _ in range(samples):
        ping_times.append(ping())
        started = time.perf_counter()
        took = getattr(pages, method)()
        page_times.append(took if took is not None else time.perf_counter() - started)
    page, trivial = statistics.median(page_times), statistics.median(ping_times)
    return page / trivial, page * 1000


def measure(port, built, *, runs, samples, warmup=3):
    client = Client(port).log_in(USERNAME, PASSWORD)
    anonymous = Client(port)

    def ping():
        started = time.perf_counter()
        status, _ = anonymous.json("POST", "/api/v1/ping/", {})
        if status != 200:
            raise RuntimeError(f"ping answered {status}")
        return time.perf_counter() - started

    leagues = {label: Pages(client, ids) for label, ids in built.items()}
    for pages in leagues.values():  # warm up every path (and each worker's caches)
        for _label, method in PAGES.values():
            for _ in range(warmup):
                getattr(pages, method)()
                ping()
    ratios = {label: {key: [] for key in PAGES} for label in built}
    ms = {label: {key: [] for key in PAGES} for label in built}
    for _run in range(runs):
        for label, pages in leagues.items():
            for key, (_title, method) in PAGES.items():
                ratio, median_ms = time_page(pages, method, ping, samples)
                ratios[label][key].append(ratio)
                ms[label][key].append(median_ms)
    figures = {}
    for label in built:
        figures[label] = {
            key: {
                "min": round(min(values), 2),
                "median": round(statistics.median(values), 2),
                "max": round(max(values), 2),
                "median_ms": round(statistics.median(ms[label][key]), 1),
            }
            for key, values in ratios[label].items()
        }
    return figures


def table(figures, sizes):
    labels = list(figures)
    head = " | ".join(f"{label} ({describe(sizes[label])})" for label in labels)
    lines = [f"| page | {head} |", "|---" * (len(labels) + 1) + "|"]
    for key, (title, _method) in PAGES.items():
        cells = []
        for label in labels:
            f = figures[label][key]
            cells.append(f"{f['median']}× ({f['min']}–{f['max']}; {f['median_ms']} ms)")
        lines.append(f"| {title} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def describe(size):
    seasons, meetings, hands, carry = size
    text = f"{seasons} × {meetings} × {hands}"
    return text + ", carry" if carry else text


# --- the run ----------------------------------------------------------------------------------


def check_caches():
    """Every cached result of the built (and measured) leagues equals a fresh replay."""
    from leagues import services

    checked, problems = services.verify_replays()
    if problems:
        raise RuntimeError(f"{len(problems)} of {checked} meetings differ from a replay: {problems[0]}")
    return checked


def run(database_url, sizes, *, runs, samples, workers=2, verify=False):
    env = server_env(
        database_url,
        DJANGO_SETTINGS_MODULE="kartenliga.settings",
        KARTENLIGA_THROTTLE_ANON="off",
        KARTENLIGA_THROTTLE_USER="off",
    )
    os.environ.update(env)
    os.environ.pop("DJANGO_DEBUG", None)
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    call_command("migrate", verbosity=0, interactive=False)
    started = time.perf_counter()
    built, build_seconds = build(sizes)
    print(
        f"Built {', '.join(f'{k} ({v} s)' for k, v in build_seconds.items())} in {time.perf_counter() - started:.0f} s"
    )
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")
    connection.close()
    with tempfile.TemporaryDirectory() as folder:
        with Gunicorn(env, Path(folder) / "gunicorn.log", workers=workers, timeout=120) as server:
            try:
                figures = measure(server.port, built, runs=runs, samples=samples)
            except RuntimeError as error:
                raise RuntimeError(f"{error}\n--- the server's log ---\n{server.log()[-4000:]}") from error
    if verify:
        check_caches()
    connection.close()
    return {
        "database": connection.vendor,
        "workers": workers,
        "runs": runs,
        "samples": samples,
        "sizes": {label: describe(size) for label, size in sizes.items()},
        "build_seconds": build_seconds,
        "leagues": {label: {"meetings": ids["meetings"], "hands": ids["hands"]} for label, ids in built.items()},
        "ratios": figures,
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--output", default="bench-league-results.json")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--samples", type=int, default=7, help="requests of each page (and ping) per run")
    parser.add_argument("--tiny", action="store_true", help="tiny leagues, one short run (for the test suite)")
    parser.add_argument("--sqlite", action="store_true", help="a fresh SQLite file even when DATABASE_URL is set")
    args = parser.parse_args(argv)
    sizes = TINY if args.tiny else SIZES
    if args.tiny:
        args.runs, args.samples = 1, 2
    url = os.environ.get("DATABASE_URL", "")
    with tempfile.TemporaryDirectory() as folder:
        if url.startswith("postgres") and not args.sqlite:
            from tests.fuzz.run import FreshPostgres, postgres_url

            with FreshPostgres(postgres_url(url)) as fresh:
                results = run(fresh, sizes, runs=args.runs, samples=args.samples, verify=args.tiny)
        else:
            sqlite = f"sqlite:///{folder}/bench-league.sqlite3"
            results = run(sqlite, sizes, runs=args.runs, samples=args.samples, verify=args.tiny)
    markdown = table(results["ratios"], sizes)
    results["table"] = markdown
    print(f"\nPages as ratios to POST /api/v1/ping/ ({results['database']}, gunicorn {results['workers']} workers):")
    print("median× (min–max; the page's median)\n")
    print(markdown)
    Path(args.output).write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n")
    print(f"\nWritten to {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
