"""What the statistics and ratings pages of the bench league cost on a cold cache (issue 14).

    .venv/bin/python -m tests.bench.statistics_cold [--database FILE | --database-url URL] [--runs N]

Builds the bench league of ``tests.bench.build`` (20 seasons x 40 evenings x 40 hands, 32,000
hands bulk-inserted with the replay's cached results) and a small one (1 x 3 x 40) in a SQLite
file (``--database``: kept and used again when it exists, so a second run skips the minute of
building) or in the database ``--database-url`` names (PostgreSQL: built when it holds no bench
league yet), then times each page through Django's test client, next to the trivial
``POST /api/v1/ping/`` and the standings of the same league:

- *first ever*: every cache emptied before each request, the table of kept parts too
  (``leagues.derived_cache``): what the first reader of a league waits for once, ever;
- *new process*: the parts kept in the table, the page asked for by a new Python process
  (``--first``: set up as a gunicorn worker is, one ping to open the connection and load the
  URLs, then the page): what the first reader after a restart or a deploy waits for, in each
  worker;
- *warm*: read again in this process.

Prints the medians (and the fastest) in ms.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

SIZES = {"small": (1, 3, 40, False), "big": (20, 40, 40, False)}
TINY = {"small": (1, 2, 6, False), "big": (3, 2, 6, False)}  # for the test suite


def setup(database_url: str, sizes, *, build_missing: bool = True) -> None:
    os.environ["DATABASE_URL"] = database_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")
    import django

    django.setup()
    if not build_missing:
        return
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)
    from leagues.models import League

    if not League.objects.filter(slug="bench-big").exists():
        from tests.bench.build import build

        started = time.perf_counter()
        build(sizes)
        print(f"Built the leagues in {time.perf_counter() - started:.0f} s")


def empty_caches() -> None:
    """Every cache emptied: the per-process ones and the table of kept parts."""
    from django.core.cache import caches

    from leagues.stats import derived_cache

    for cache in caches.all(initialized_only=False):
        cache.clear()
    derived_cache.clear()


def timed(client, method, url, *, cold: bool, runs: int) -> tuple[float, float]:
    """(median, fastest) in ms of ``runs`` requests."""
    times = []
    for _ in range(runs):
        if cold:
            empty_caches()
        started = time.perf_counter()
        response = getattr(client, method)(url)
        times.append(time.perf_counter() - started)
        if response.status_code != 200:
            raise RuntimeError(f"{url} answered {response.status_code}")
    return round(statistics.median(times) * 1000, 1), round(min(times) * 1000, 1)


def logged_in_client():
    from django.contrib.auth import get_user_model
    from django.test import Client

    from tests.bench.build import USERNAME

    client = Client()
    client.force_login(get_user_model().objects.get(username=USERNAME))
    return client


def first_request(database_url: str, url: str) -> float:
    """In this (new) process: the ms of the first GET of ``url`` after one ping, with the
    garbage collector set as a gunicorn worker has it (kartenliga/wsgi.py freezes what was
    loaded at start-up: without that, unpickling the kept parts, some 100,000 objects, walked
    everything Django had loaded, 50 ms of a 120 ms page)."""
    setup(database_url, {}, build_missing=False)
    import kartenliga.wsgi  # noqa: F401

    client = logged_in_client()
    client.post("/api/v1/ping/")
    started = time.perf_counter()
    response = client.get(url)
    elapsed = time.perf_counter() - started
    if response.status_code != 200:
        raise RuntimeError(f"{url} answered {response.status_code}")
    return elapsed * 1000


def in_new_processes(database_url: str, url: str, *, runs: int) -> tuple[float, float]:
    """(median, fastest) in ms of the first GET of ``url`` in ``runs`` new processes, the
    parts already kept in the table (one request in this process first keeps them)."""
    times = []
    for _ in range(runs):
        done = subprocess.run(
            [sys.executable, "-m", "tests.bench.statistics_cold", "--database-url", database_url, "--first", url],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=300,
        )
        if done.returncode != 0:
            raise RuntimeError(done.stdout + done.stderr)
        times.append(float(done.stdout.split()[-1]))
    return round(statistics.median(times), 1), round(min(times), 1)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--database", help="the SQLite file (built when missing)")
    where.add_argument("--database-url", help="a database URL, e.g. postgres://... (built when it has no bench league)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--tiny", action="store_true", help="tiny leagues (for the test suite)")
    parser.add_argument("--first", metavar="URL", help=argparse.SUPPRESS)  # the new process's request
    args = parser.parse_args(argv)
    if args.first:
        print(f"{first_request(args.database_url, args.first):.1f}")
        return 0
    sizes = TINY if args.tiny else SIZES
    with tempfile.TemporaryDirectory() as folder:
        database_url = args.database_url or f"sqlite:///{args.database or Path(folder) / 'bench-statistics.sqlite3'}"
        setup(database_url, sizes)
        from django.db import connection

        from leagues.models import Player

        client = logged_in_client()
        print(f"{connection.vendor}, median (fastest) ms")
        print()
        print("| page | league | first ever | new process, parts kept | warm |")
        print("|---|---|---|---|---|")
        ping = timed(client, "post", "/api/v1/ping/", cold=False, runs=max(args.runs, 15))
        print(f"| POST /api/v1/ping/ (trivial) | – | – | – | {ping[0]} ({ping[1]}) |")
        for label in sizes:
            slug = f"bench-{label}"
            anna = Player.objects.get(league__slug=slug, name="Anna").pk
            pages = {
                "statistics, all time": f"/l/{slug}/statistics/",
                "statistics, one season": f"/l/{slug}/statistics/?season=1",
                "a player's statistics": f"/l/{slug}/statistics/player/{anna}/",
                "ratings": f"/l/{slug}/ratings/",
                "standings (for comparison)": f"/l/{slug}/standings/",
            }
            for title, url in pages.items():
                cold = timed(client, "get", url, cold=True, runs=args.runs)
                # The last cold request kept the parts in the table: a new process finds them.
                new = in_new_processes(database_url, url, runs=max(1, args.runs // 2))
                warm = timed(client, "get", url, cold=False, runs=args.runs)
                print(f"| {title} | {label} | {cold[0]} ({cold[1]}) | {new[0]} ({new[1]}) | {warm[0]} ({warm[1]}) |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
