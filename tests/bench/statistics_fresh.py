"""What the statistics and ratings pages cost warm, fresh (right after a hand) and cold, as
ratios to the trivial ``POST /api/v1/ping/``.

    .venv/bin/python -m tests.bench.statistics_fresh --database-url URL [--runs N] [--size S,E,H]

Builds (once per database) a Doppelkopf league of ``--size`` seasons x evenings x hands
(``tests.bench.build.build_league``) and a small one (1 x 3 x the same hands), and then lives
them as a club does: every evening closed but the last one, every season but the last one
closed for good. Each page is then timed through Django's test client:

- *warm*: read again, nothing written since;
- *fresh*: right after a hand entered (or deleted) in tonight's open evening;
- *first ever*: the table of kept parts emptied (``CACHES["derived"]``), what the first reader
  after an import waits for;
- *new process*: the parts kept, the page asked by a new process (``statistics_cold --first``).

Prints the medians in ms and their ratios to the framework floor's (``GET /bench/floor/``; the
ping where there is none), each request interleaved with one of the floor.
"""

from __future__ import annotations

import argparse
import datetime
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.bench.statistics_cold import empty_caches, in_new_processes, logged_in_client, setup  # noqa: E402


def build(sizes) -> None:
    """The leagues of ``sizes`` ({label: (seasons, evenings, hands)}), lived as a club does."""
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from leagues.models import League, Meeting, Season
    from tests.bench.build import PASSWORD, USERNAME, build_league

    user = get_user_model().objects.filter(username=USERNAME).first()
    if user is None:
        user = get_user_model().objects.create_user(USERNAME, password=PASSWORD)
    for label, (seasons, evenings, hands) in sizes.items():
        slug = f"fresh-{label}"
        if League.objects.filter(slug=slug).exists():
            continue
        started = time.perf_counter()
        ids = build_league(slug=slug, seasons=seasons, meetings=evenings, hands=hands, carry=False, user=user)
        league = League.objects.get(slug=slug)
        now = timezone.now()
        for meeting in Meeting.objects.filter(league=league).exclude(pk=ids["entry_meeting"]):
            closed = datetime.datetime.combine(meeting.date, datetime.time(23), tzinfo=datetime.UTC)
            Meeting.objects.filter(pk=meeting.pk).update(closed_at=min(closed, now), closed_by=user)
        Season.objects.filter(league=league).exclude(number=seasons).update(locked_at=now, locked_by=user)
        print(f"Built {slug} ({seasons} x {evenings} x {hands}) in {time.perf_counter() - started:.0f} s")


class Tonight:
    """Hands entered into the league's open evening and deleted again, turn about."""

    def __init__(self, slug):
        from django.contrib.auth import get_user_model

        from leagues.models import Meeting
        from tests.bench.build import USERNAME

        self.user = get_user_model().objects.get(username=USERNAME)
        self.meeting = Meeting.objects.get(league__slug=slug, closed_at=None)
        self.entered = None

    def write(self):
        from leagues.models import Hand
        from leagues.table import services
        from leagues.table.results import replay_meeting

        if self.entered is None:
            result = replay_meeting(meeting=self.meeting)
            active = (result.get("next") or {}).get("active") or [s.player.name for s in self.meeting.seats.all()][:4]
            payload = {"kind": "normal", "re": list(active[:2]), "re_eyes": 131}
            self.entered = services.enter_hand(meeting=self.meeting, payload=payload, by=self.user).hand
        else:
            hand = Hand.objects.get(pk=self.entered.pk)
            services.delete_hand(hand=hand, by=self.user, version=hand.version)
            self.entered = None


def timed(client, url, runs, floor, before=None) -> tuple[float, float]:
    """(median ms, its ratio to the floor's median): each request of ``url`` follows one of
    the floor, interleaved, so that both meet the same load; ``before`` runs untimed first."""
    floors, pages = [], []
    for _ in range(runs):
        if before is not None:
            before()
        started = time.perf_counter()
        floor()
        floors.append(time.perf_counter() - started)
        started = time.perf_counter()
        response = client.get(url)
        pages.append(time.perf_counter() - started)
        if response.status_code != 200:
            raise RuntimeError(f"{url} answered {response.status_code}")
    return statistics.median(pages) * 1000, statistics.median(pages) / statistics.median(floors)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database-url", required=True)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--size", default="10,40,20", help="seasons,evenings,hands of the big league")
    parser.add_argument("--new-process", action="store_true", help="also time a new process's first request")
    args = parser.parse_args(argv)
    seasons, evenings, hands = (int(n) for n in args.size.split(","))
    sizes = {"small": (1, 3, hands), "big": (seasons, evenings, hands)}
    setup(args.database_url, {}, build_missing=False)
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)
    build(sizes)
    from django.db import connection

    from leagues.models import Player

    client = logged_in_client()
    if client.get("/bench/floor/").status_code == 200:
        name, floor = "GET /bench/floor/", lambda: client.get("/bench/floor/")
    else:
        name, floor = "POST /api/v1/ping/", lambda: client.post("/api/v1/ping/")
    print(f"{connection.vendor}; median ms (and its ratio to {name}, interleaved)")
    print()
    print("| page | league | warm | fresh (after a hand) | first ever | new process |")
    print("|---|---|---|---|---|---|")
    for label, (seasons, _e, _h) in sizes.items():
        slug = f"fresh-{label}"
        tonight = Tonight(slug)
        anna = Player.objects.get(league__slug=slug, name="Anna").pk
        pages = {
            "statistics, all time": f"/l/{slug}/statistics/",
            "statistics, tonight's season": f"/l/{slug}/statistics/?season={seasons}",
            "a player's statistics": f"/l/{slug}/statistics/player/{anna}/",
            "ratings": f"/l/{slug}/ratings/",
            "what-if of a season under DDV rules": f"/l/{slug}/seasons/1/what-if/?variant=ddv",
        }
        for title, url in pages.items():
            cold = timed(client, url, max(1, args.runs // 2), floor, before=empty_caches)
            new = in_new_processes(args.database_url, url, runs=3)[0] if args.new_process else None
            warm = timed(client, url, args.runs, floor)
            fresh = timed(client, url, args.runs, floor, before=tonight.write)
            if tonight.entered is not None:
                tonight.write()

            def cell(figure):
                return f"{figure[0]:.0f} ({figure[1]:.0f}x)"

            print(
                f"| {title} | {label} | {cell(warm)} | {cell(fresh)} | {cell(cold)} |"
                f" {'–' if new is None else f'{new:.0f}'} |"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
