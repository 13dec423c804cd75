"""`make bench-league`: every page kind and write of a league, as multiples of the framework floor.

Builds three Doppelkopf leagues (``tests.bench.build``) on a fresh database: a fresh PostgreSQL
one when DATABASE_URL names a PostgreSQL server, else a fresh SQLite file.

- ``small``: 2 seasons x 3 evenings x 40 hands;
- ``big``: 4 x 40 x 40; ``BENCH_BIG=20x40x40`` (or ``--big``) for the 20-season league of
  32,000 hands, slower to build and to measure;
- ``carry``: the special rounds carried from evening to evening, 5 x 42 x 40
  (``BENCH_CARRY``, ``--carry``): long enough that a correction 45 evenings before the last
  changes the rounds carried into every later one.

Then gunicorn (2 sync workers, debug off) serves them, and every page kind and write of every
league is timed in one run, each sample right after three of the framework floor
(``GET /bench/floor/``: a logged-in page that renders a one-line template through the same
middleware, session and login). A row's figure is the median of its samples over the median
of their floor's, in three states:

- **warm**: the same request again, nothing written in between;
- **fresh**: right after a write elsewhere in the league, as during an evening: a correction
  at tonight's table (a hand of the last evening flipped to the other party winning, sent
  through the API as a phone's outbox sends it);
- **cold**: the first request to workers just restarted (gunicorn's reload), with every cache
  in ``CACHES`` emptied, as after a deploy. The statistics and ratings table is a table of the
  database, kept across a restart; an import fills it before it ends. Both new workers answer the floor first, so that Python's imports are not the
  page's; the ratio is to the new workers' floor.

The pages (of the last evening, "tonight", where a page is of one evening): the league page,
the meeting page (the sheet), the standings (members' and public), the public sheet, the
statistics (all time), the ratings, the activity, this season's report, the evening's history,
the bill page of the last closed season, the what-if of this season under DDV rules and the
rule book, and the live page's unchanged poll (its part asked again with the ETag it was
given: a 304). The writes: the htmx entry of tonight's next hand (taken out again, untimed), a
correction of hand 1 of the first evening, and in the carrying league a correction that
changes the rounds carried into the 45 evenings after it (flipped back and forth). A club
night of two tables after tonight (``tests.bench.night``): its page's unchanged poll, and a
hand entered at table 1 alone, while table 2 enters, and while another league's night enters.

Budgets: every page <= 8x the floor; the live page's unchanged poll <= 2x; the hand entry and the correction <= 12x; the correction
changing 45 evenings <= 60x; the big league within 1.25x of the small one. Prints a table and
writes the figures as JSON (``--output``). It reports: a figure over budget fails no run.
``--pages bill,report`` measures only those rows (the names of ``READS`` and ``WRITES``).
"""

from __future__ import annotations

import argparse
import html
import json
import os
import re
import signal
import statistics
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.bench import night  # noqa: E402
from tests.bench.build import PASSWORD, USERNAME, build, describe, parse_size  # noqa: E402
from tests.live_server import Client, Gunicorn, server_env  # noqa: E402

SIZES = {"small": (2, 3, 40, False), "big": (4, 40, 40, False), "carry": (5, 42, 40, True)}
TINY = {"small": (2, 1, 6, False), "big": (3, 2, 6, False), "carry": (2, 2, 6, True)}

PAGE, WRITE, CHAIN, POLL = 8, 12, 60, 2  # budgets, as multiples of the floor
BIG_SMALL = 1.25
MODES = ("warm", "fresh", "cold")
WORKERS = 2
# Floor requests a sample: the floor is a few ms, so one slow answer on a busy machine would
# move a row's ratio; the median of several does not.
FLOORS = 3

# kind: (title, budget, URL name, its arguments as keys of the league's ids)
READS = {
    "league": ("league page", "league", {"slug": "slug"}),
    "meeting": ("meeting page (tonight's sheet)", "meeting", {"slug": "slug", "pk": "entry_meeting"}),
    "standings": ("standings", "standings", {"slug": "slug"}),
    "public_standings": ("public standings", "public_standings", {"token": "token"}),
    "public_sheet": ("public sheet (tonight)", "public_meeting", {"token": "token", "pk": "entry_meeting"}),
    "statistics": ("statistics, all time", "league_statistics", {"slug": "slug"}),
    "ratings": ("ratings", "league_ratings", {"slug": "slug"}),
    "activity": ("activity", "league_activity", {"slug": "slug"}),
    "report": ("season report (this season)", "season_report", {"slug": "slug", "number": "current_season"}),
    "history": ("meeting history (tonight)", "meeting_history", {"slug": "slug", "pk": "entry_meeting"}),
    "bill": ("bill page (last closed season)", "season_bill", {"slug": "slug", "number": "closed_season"}),
    "what_if": ("what-if of this season, DDV rules", "season_what_if", {"slug": "slug", "number": "current_season"}),
    "rules": ("rule book", "league_rules", {"slug": "slug"}),
    "live_poll": ("live page, unchanged poll (tonight)", "meeting_live_hx", {"slug": "slug", "pk": "entry_meeting"}),
    "night_poll": ("club night, unchanged poll (its page)", "club_night_hx", {"slug": "slug", "pk": "night_pk"}),
}
POLLS = ("live_poll", "night_poll")
WRITES = {
    "enter_hand": ("htmx hand entry (tonight's next hand)", WRITE),
    "correct": ("correction of hand 1 of the first evening", WRITE),
    "chain": ("correction changing later evenings' carried rounds", CHAIN),
    "night_entry": ("club night: hand entry at table 1", WRITE),
    "night_entry_busy": ("club night: hand entry at table 1 while table 2 enters", WRITE),
    "night_entry_elsewhere": ("club night: hand entry at table 1 while another league enters", WRITE),
}
NIGHT_ENTRIES = ("night_entry", "night_entry_busy", "night_entry_elsewhere")
QUERIES = {"what_if": "?variant=ddv"}


def title(kind):
    return READS[kind][0] if kind in READS else WRITES[kind][0]


def budget(kind):
    if kind in POLLS:
        return POLL
    return PAGE if kind in READS else WRITES[kind][1]


def normal_hand_form(active, *, eyes):
    """What the Doppelkopf form posts for a plain normal game (Re: the first two at the table)."""
    return {"kind": "normal", "re": list(active[:2]), "eyes": str(eyes), "eyes_for": "re", "ann": []}


def form_post(client, path, fields, **headers):
    return client.request(
        "POST",
        path,
        body=urlencode(fields, doseq=True),
        headers={"Content-Type": "application/x-www-form-urlencoded", **headers},
    )


class League:
    """The timed requests of one league. A write is undone or flipped back, so that every
    sample meets the league as built."""

    def __init__(self, client, ids):
        from django.urls import reverse

        self.client, self.ids = client, ids
        self.paths = {
            kind: reverse(name, kwargs={arg: ids[key] for arg, key in args.items()}) + QUERIES.get(kind, "")
            for kind, (_title, name, args) in READS.items()
            if all(ids.get(key) is not None for key in args.values())
        }
        self.kinds = [*self.paths, "enter_hand", "correct"] + (["chain"] if ids["chain_flip"] else [])
        self.kinds += list(NIGHT_ENTRIES) if ids.get("night") else []
        self.neighbour = None  # the ids of another league (measure), whose night enters meanwhile
        self.flipped = {"live_flip": 0, "chain_flip": 0}
        self.eyes = 0

    def elapsed(self, method, path, expected, **kw):
        started = time.perf_counter()
        status, body = method(path, **kw)
        took = time.perf_counter() - started
        if status != expected:
            raise RuntimeError(f"{path} answered {status}, not {expected}: {body[:300]!r}")
        return took, body

    def read(self, kind, state=None):
        if kind in POLLS:
            # As the browser asks again: with the ETag of the part it shows; nothing changed.
            headers = {"If-None-Match": state, "HX-Request": "true"}
            return self.elapsed(lambda p: self.client.request("GET", p, headers=headers), self.paths[kind], 304)[0]
        return self.elapsed(lambda p: self.client.request("GET", p), self.paths[kind], 200)[0]

    def etag(self, kind):
        """The ETag of the live page's part as drawn now (read untimed; the part names it)."""
        _took, body = self.elapsed(lambda p: self.client.request("GET", p), self.paths[kind], 200)
        return html.unescape(re.search(rb'data-live-etag="([^"]*)"', body).group(1).decode())

    def prepare(self, kind):
        """What a phone holds before the write it times: for the entry, the version of the
        sheet it shows (read from tonight's page; the field is left out when the form has none);
        for the live page's poll, the ETag of what it shows."""
        if kind in POLLS:
            return self.etag(kind)
        if kind in NIGHT_ENTRIES:
            table, seated = self.ids["night"]["tables"][0], self.ids["night"]["seated"][0]
            return night.entry_form(self.client, self.ids["slug"], table, seated, self.ids["night"]["hands"] + 1)
        if kind != "enter_hand":
            return None
        from django.urls import reverse

        path = reverse("meeting", kwargs={"slug": self.ids["slug"], "pk": self.ids["entry_meeting"]})
        _took, body = self.elapsed(lambda p: self.client.request("GET", p), path, 200)
        found = re.search(rb'name="sheet_mark" value="([^"]*)"', body)
        return found.group(1).decode() if found else None

    def timed(self, kind, state):
        if kind in READS:
            return self.read(kind, state)
        return getattr(self, kind)(state)

    def after(self, kind):
        if kind == "enter_hand":
            self._undo_entry()
        if kind in NIGHT_ENTRIES:
            night.undo(self.ids)
            night.undo(self.neighbour)

    def night_entry(self, form):
        from django.urls import reverse

        path = reverse("hand_add_hx", kwargs={"slug": self.ids["slug"], "pk": self.ids["night"]["tables"][0]})
        return self.elapsed(lambda p: form_post(self.client, p, form, **{"HX-Request": "true"}), path, 200)[0]

    def night_entry_busy(self, form):
        with night.Busy(self.client, self.ids):
            return self.night_entry(form)

    def night_entry_elsewhere(self, form):
        with night.Busy(self.client, self.neighbour):
            return self.night_entry(form)

    def touch(self):
        """The write before a fresh page: tonight's hand flipped (the other party wins)."""
        self._flip("live_flip")

    def enter_hand(self, sheet):
        from django.urls import reverse

        from leagues.models import Hand

        meeting = self.ids["entry_meeting"]
        expected = Hand.objects.filter(meeting_id=meeting, deleted_at=None).count() + 1
        # As a phone posts the form: its hidden fields too (the number it was about to enter,
        # the idempotency key of this rendering of the form, the version of the sheet it shows).
        form = {"expected_hand": str(expected), "idempotency_key": str(uuid.uuid4())}
        if sheet is not None:
            form["sheet_mark"] = sheet
        form.update(normal_hand_form(self.ids["entry_active"], eyes=131))
        path = reverse("hand_add_hx", kwargs={"slug": self.ids["slug"], "pk": meeting})
        return self.elapsed(lambda p: form_post(self.client, p, form, **{"HX-Request": "true"}), path, 200)[0]

    def _undo_entry(self):
        """Take the entered hand out again, as if it had never been entered."""
        from django.db import transaction

        pass
        from leagues.models import Hand, Meeting
        from leagues.table import results as table_results

        with transaction.atomic():
            meeting = self.ids["entry_meeting"]
            Hand.objects.filter(meeting_id=meeting).order_by("-position").first().delete()
            table_results.replay_meeting(meeting=Meeting.objects.get(pk=meeting))

    def correct(self, _state):
        """Hand 1 of the first evening corrected through its page (Re's eyes 131 or 132)."""
        from django.urls import reverse

        from leagues.models import Hand

        hand = Hand.objects.get(pk=self.ids["first_hand"])
        self.eyes = 1 - self.eyes  # alternate, so that each correction changes the hand
        form = {"version": str(hand.version), **normal_hand_form(self.ids["first_hand_active"], eyes=131 + self.eyes)}
        kwargs = {"slug": self.ids["slug"], "pk": self.ids["first_meeting"], "hand_pk": hand.pk}
        return self.elapsed(lambda p: form_post(self.client, p, form), reverse("hand_edit", kwargs=kwargs), 302)[0]

    def chain(self, _state):
        return self._flip("chain_flip")

    def _flip(self, which):
        """A hand of ``ids[which]`` sent with its other payload through the API's PUT."""
        from django.urls import reverse

        from leagues.models import Hand

        flip = self.ids[which]
        self.flipped[which] = 1 - self.flipped[which]
        body = {
            "payload": flip["payloads"][self.flipped[which]],
            "version": Hand.objects.values_list("version", flat=True).get(pk=flip["hand"]),
        }
        kwargs = {"slug": self.ids["slug"], "pk": flip["meeting"], "hand_pk": flip["hand"]}
        return self.elapsed(lambda p: self.client.json("PUT", p, body), reverse("api_hand", kwargs=kwargs), 200)[0]


def floor(client):
    from django.urls import reverse

    started = time.perf_counter()
    status, body = client.request("GET", reverse("floor"))
    if status != 200:
        raise RuntimeError(f"the floor answered {status}: {body[:300]!r}")
    return time.perf_counter() - started


def figure(pages, floors):
    page, base = statistics.median(pages), statistics.median(floors)
    return {"ratio": round(page / base, 2), "ms": round(page * 1000, 1), "floor_ms": round(base * 1000, 1)}


def sample(league, kind, *, fresh):
    state = league.prepare(kind)
    if fresh:
        league.touch()
        if kind in POLLS:
            state = league.prepare(kind)  # the screen drew the write: its next poll is unchanged
    took = league.timed(kind, state)
    league.after(kind)
    return took


def measure_running(client, leagues, figures, *, samples):
    """Warm, then fresh: every kind of every league, each sample after some of the floor."""
    for mode in ("warm", "fresh"):
        for kind in [*READS, *WRITES]:
            for label, league in leagues.items():
                if kind not in league.kinds:
                    continue
                for _ in range(WORKERS):  # its code loaded and its caches filled, in each worker or so
                    sample(league, kind, fresh=mode == "fresh")
                pages, floors = [], []
                for _ in range(samples):
                    floors += [floor(client) for _ in range(FLOORS)]
                    pages.append(sample(league, kind, fresh=mode == "fresh"))
                figures[mode].setdefault(kind, {})[label] = figure(pages, floors)


class Workers:
    """Restarts gunicorn's workers (its master stays, listening): new processes, nothing loaded."""

    def __init__(self, server, client, count):
        self.server, self.client, self.count = server, client, count

    def _children(self):
        pid = self.server.process.pid
        return {int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()}

    def restart(self, timeout=120):
        old = self._children()
        os.kill(self.server.process.pid, signal.SIGHUP)
        deadline = time.monotonic() + timeout
        while True:
            now = self._children()
            if len(now) == self.count and not now & old:
                break
            if time.monotonic() > deadline:
                raise RuntimeError(f"gunicorn's workers did not restart:\n{self.server.log()[-2000:]}")
            time.sleep(0.05)
        # The floor on every new worker at once (a busy worker leaves the next connection to
        # another): what they load for any page is loaded before the page is timed.
        threads = [threading.Thread(target=self._floors) for _ in range(self.count)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()

    def _floors(self):
        client = Client(self.client.port)
        client.cookies = dict(self.client.cookies)
        for _ in range(3):
            floor(client)


def empty_caches():
    from django.conf import settings
    from django.core.cache import caches

    for alias in settings.CACHES:
        caches[alias].clear()


def measure_cold(workers, client, leagues, figures, *, samples, kinds=None):
    """Each kind of each league, first after a restart of the workers and the caches emptied."""
    for kind in kinds or [*READS, *WRITES]:
        for label, league in leagues.items():
            if kind not in league.kinds:
                continue
            pages, floors = [], []
            for _ in range(samples):
                state = league.prepare(kind)
                workers.restart()
                empty_caches()
                pages.append(league.timed(kind, state))
                league.after(kind)
                floors += [floor(client) for _ in range(FLOORS)]
            figures["cold"].setdefault(kind, {})[label] = figure(pages, floors)


def rows(figures):
    """One row a kind and state: each league's figure, big/small, the budget and whether it holds."""
    found = []
    for kind in [*READS, *WRITES]:
        for mode in MODES:
            cells = figures[mode].get(kind)
            if not cells:
                continue
            small, big = cells.get("small"), cells.get("big")
            big_small = round(big["ratio"] / small["ratio"], 2) if small and big else None
            holds = all(c["ratio"] <= budget(kind) for c in cells.values())
            holds = holds and (big_small is None or big_small <= BIG_SMALL)
            row = {"kind": kind, "page": title(kind), "mode": mode, **cells}
            found.append(row | {"big_small": big_small, "budget": budget(kind), "pass": holds})
    return found


def table(found, labels):
    def cell(f):
        return f"{f['ratio']}× ({f['ms']} ms)" if f else "—"

    head = " | ".join(labels)
    lines = [f"| page | state | {head} | big/small | budget | |", "|---" * (len(labels) + 5) + "|"]
    for row in found:
        cells = " | ".join(cell(row.get(label)) for label in labels)
        big_small = f"{row['big_small']}×" if row["big_small"] is not None else "—"
        verdict = "pass" if row["pass"] else "**FAIL**"
        lines.append(f"| {row['page']} | {row['mode']} | {cells} | {big_small} | ≤ {row['budget']}× | {verdict} |")
    return "\n".join(lines)


# --- the run ----------------------------------------------------------------------------------


def check_caches():
    """Every cached result of the built (and measured) leagues equals a fresh replay."""
    pass
    from leagues.table import verify as table_verify

    checked, problems = table_verify.verify_replays()
    if problems:
        raise RuntimeError(f"{len(problems)} of {checked} meetings differ from a replay: {problems[0]}")
    return checked


def set_up(database_url):
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

    call_command("migrate", verbosity=0, interactive=False)
    return env


def measure(server, built, *, samples, cold_samples, cold_kinds, workers, pages=None):
    client = Client(server.port).log_in(USERNAME, PASSWORD)
    leagues = {label: League(client, ids) for label, ids in built.items()}
    listed = list(leagues.values())
    for index, league in enumerate(listed):
        other = listed[(index + 1) % len(listed)]
        league.neighbour = other.ids if other is not league else None
        if league.neighbour is None or not other.ids.get("night"):
            league.kinds = [kind for kind in league.kinds if kind != "night_entry_elsewhere"]
    if pages:
        for league in leagues.values():
            league.kinds = [kind for kind in league.kinds if kind in pages]
    figures = {mode: {} for mode in MODES}
    measure_running(client, leagues, figures, samples=samples)
    if cold_samples:
        restarts = Workers(server, client, workers)
        measure_cold(restarts, client, leagues, figures, samples=cold_samples, kinds=cold_kinds)
    return figures


def run(database_url, sizes, *, samples, cold_samples, cold_kinds=None, workers=WORKERS, verify=False, pages=None):
    env = set_up(database_url)
    from django.db import connection

    started = time.perf_counter()
    built, build_seconds = build(sizes)
    for label, ids in built.items():  # a club night after tonight, as many hands as an evening, at most HANDS
        ids["night"] = night.add_night(ids, hands=min(night.HANDS, sizes[label][2]))
        ids["night_pk"] = ids["night"]["pk"]
    print(
        f"Built {', '.join(f'{k} ({v} s)' for k, v in build_seconds.items())} in {time.perf_counter() - started:.0f} s"
    )
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")
    connection.close()
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        with Gunicorn(env, Path(folder) / "gunicorn.log", workers=workers, timeout=120) as server:
            try:
                figures = measure(
                    server,
                    built,
                    samples=samples,
                    cold_samples=cold_samples,
                    cold_kinds=cold_kinds,
                    workers=workers,
                    pages=pages,
                )
            except RuntimeError as error:
                raise RuntimeError(f"{error}\n--- the server's log ---\n{server.log()[-4000:]}") from error
    if verify:
        check_caches()
    connection.close()
    chain = {label: ids["chain_flip"]["later"] for label, ids in built.items() if ids["chain_flip"]}
    return {
        "database": connection.vendor,
        "workers": workers,
        "samples": samples,
        "cold_samples": cold_samples,
        "cold": "the first request after gunicorn's workers restarted, every cache in CACHES emptied (the statistics table kept)",
        "fresh": "right after a correction at tonight's table, sent through the API",
        "sizes": {label: describe(size) for label, size in sizes.items()},
        "build_seconds": build_seconds,
        "measure_seconds": round(time.perf_counter() - started),
        "leagues": {label: {"meetings": ids["meetings"], "hands": ids["hands"]} for label, ids in built.items()},
        "chain_reaches": chain,
        "budgets": {"page": PAGE, "write": WRITE, "chain": CHAIN, "big_small": BIG_SMALL},
        "rows": rows(figures),
        "night_entry_ratios": night.ratios(figures),
    }


def sizes_from(args):
    if args.tiny:
        return dict(TINY)
    sizes = dict(SIZES)
    if args.big:
        sizes["big"] = parse_size(args.big)
    if args.carry:
        sizes["carry"] = parse_size(args.carry, carry=True)
    return sizes


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--output", default="bench-league-results.json")
    parser.add_argument("--samples", type=int, default=5, help="requests of each row (and the floor), warm and fresh")
    parser.add_argument("--cold-samples", type=int, default=1, help="restarts for each cold row (0: none)")
    parser.add_argument("--big", default=os.environ.get("BENCH_BIG"), help="the big league, e.g. 20x40x40")
    parser.add_argument("--carry", default=os.environ.get("BENCH_CARRY"), help="the carrying league, e.g. 20x40x40")
    parser.add_argument("--tiny", action="store_true", help="tiny leagues, few samples, few cold rows (the test suite)")
    parser.add_argument("--sqlite", action="store_true", help="a fresh SQLite file even when DATABASE_URL is set")
    parser.add_argument(
        "--pages",
        type=lambda text: text.split(","),
        help=f"only these rows, comma-separated (of: {', '.join([*READS, *WRITES])})",
    )
    args = parser.parse_args(argv)
    unknown = set(args.pages or ()) - {*READS, *WRITES}
    if unknown:
        parser.error(f"unknown pages: {', '.join(sorted(unknown))}")
    sizes = sizes_from(args)
    options = {"samples": args.samples, "cold_samples": args.cold_samples, "pages": args.pages}
    if args.tiny:
        # The cold rows restart the workers each: two kinds are enough to keep them working.
        options = {"samples": 2, "cold_samples": 1, "cold_kinds": ["league", "enter_hand"], "verify": True} | (
            {"pages": args.pages} if args.pages else {}
        )
    url = os.environ.get("DATABASE_URL", "")
    with tempfile.TemporaryDirectory() as folder:
        if url.startswith("postgres") and not args.sqlite:
            from tests.fuzz.run import FreshPostgres, postgres_url

            with FreshPostgres(postgres_url(url)) as fresh:
                results = run(fresh, sizes, **options)
        else:
            results = run(f"sqlite:///{folder}/bench-league.sqlite3", sizes, **options)
    labels = list(sizes)
    markdown = table(results["rows"], labels)
    results["table"] = markdown
    held = sum(row["pass"] for row in results["rows"])
    print(
        f"\nEvery page and write as a multiple of the framework floor (GET /bench/floor/), "
        f"{results['database']}, gunicorn {results['workers']} workers, debug off; "
        + "; ".join(f"{label}: {results['sizes'][label]}" for label in labels)
        + ".\nwarm: again; fresh: "
        + results["fresh"]
        + "; cold: "
        + results["cold"]
        + ".\nmultiple of the floor (the median)"
        + "".join(
            f"; the carrying correction reaches {n} later evenings ({label})"
            for label, n in results["chain_reaches"].items()
        )
        + "\n"
    )
    print(markdown)
    print(f"\n{held} of {len(results['rows'])} rows within budget; measured in {results['measure_seconds']} s.")
    print("\n".join(night.summary(results["night_entry_ratios"])))
    Path(args.output).write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n")
    print(f"Written to {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
