"""What the statistics and ratings pages of the bench league cost on a cold cache (issue 14).

    .venv/bin/python -m tests.bench.statistics_cold [--database FILE] [--runs N]

Builds the bench league of ``tests.bench.league`` (20 seasons x 40 evenings x 40 hands, 32,000
hands bulk-inserted with the replay's cached results) and a small one (1 x 3 x 40) in a SQLite
file (``--database``: kept and used again when it exists, so a second run skips the minute of
building), then times each page through Django's test client in this process: cold (the cache
cleared before every request: what the first reader after a restart waits for, and what every
worker of its own pays once) and warm (read again), next to the trivial ``POST /api/v1/ping/``
and the standings of the same league. Prints the medians (and the fastest) in ms.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

SIZES = {"small": (1, 3, 40, False), "big": (20, 40, 40, False)}
TINY = {"small": (1, 2, 6, False), "big": (3, 2, 6, False)}  # for the test suite


def setup(database: Path, sizes) -> None:
    os.environ["DATABASE_URL"] = f"sqlite:///{database}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")
    fresh = not database.exists()
    import django

    django.setup()
    if fresh:
        from django.core.management import call_command

        from tests.bench.league import build

        call_command("migrate", verbosity=0, interactive=False)
        started = time.perf_counter()
        build(sizes)
        print(f"Built the leagues in {time.perf_counter() - started:.0f} s")


def timed(client, method, url, *, cold: bool, runs: int) -> tuple[float, float]:
    """(median, fastest) in ms of ``runs`` requests."""
    from django.core.cache import cache

    times = []
    for _ in range(runs):
        if cold:
            cache.clear()
        started = time.perf_counter()
        response = getattr(client, method)(url)
        times.append(time.perf_counter() - started)
        if response.status_code != 200:
            raise RuntimeError(f"{url} answered {response.status_code}")
    return round(statistics.median(times) * 1000, 1), round(min(times) * 1000, 1)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database", help="the SQLite file (built when missing)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--tiny", action="store_true", help="tiny leagues (for the test suite)")
    args = parser.parse_args(argv)
    sizes = TINY if args.tiny else SIZES
    with tempfile.TemporaryDirectory() as folder:
        setup(Path(args.database) if args.database else Path(folder) / "bench-statistics.sqlite3", sizes)
        from django.contrib.auth import get_user_model
        from django.test import Client

        from leagues.models import Player
        from tests.bench.league import USERNAME

        client = Client()
        client.force_login(get_user_model().objects.get(username=USERNAME))
        print("| page | league | cold: median (fastest) ms | warm: median (fastest) ms |")
        print("|---|---|---|---|")
        ping = timed(client, "post", "/api/v1/ping/", cold=False, runs=max(args.runs, 15))
        print(f"| POST /api/v1/ping/ (trivial) | – | – | {ping[0]} ({ping[1]}) |")
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
                warm = timed(client, "get", url, cold=False, runs=args.runs)
                print(f"| {title} | {label} | {cold[0]} ({cold[1]}) | {warm[0]} ({warm[1]}) |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
