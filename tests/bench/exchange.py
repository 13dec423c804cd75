"""What a big league's exports and its import cost: seconds and peak memory, each in a process
of its own.

    .venv/bin/python -m tests.bench.exchange --database-url URL [--tiny]

Builds the big league of ``tests.bench.build`` (20 seasons x 40 evenings x 40 hands) on the
database if it holds none yet, each hand with the history record its entry leaves, then runs
each of these in a new Python process, set up as a gunicorn worker is:

- the CSV export (``export.csv``, English and German), the JSON export (``export.json``) and
  the API's (``/api/v1/leagues/<slug>/export/``) through Django's test client, each answer
  read to its end;
- ``manage.py import_league`` of the API's export (rolled back afterwards): the page's, with
  its indentation, is larger than the command takes for this league.

Prints, for each, the seconds, the peak memory of the process above what it held once set up,
the bytes written and their SHA-256 (the JSON's time of export fixed), so that the figures of
two versions of the code can be set side by side and their files compared byte for byte.
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

SIZES = {"big": (20, 40, 40, False)}
TINY = {"big": (2, 3, 6, False)}
SLUG = "bench-big"
EXPORTED_AT = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)
KINDS = ("csv", "csv-de", "json", "api", "import")
URLS = {
    "csv": "league_export_csv",
    "csv-de": "league_export_csv",
    "json": "league_export_json",
    "api": "api_league_export",
}


def setup(database_url: str) -> None:
    os.environ["DATABASE_URL"] = database_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")
    import django

    django.setup()


def build(sizes) -> None:
    """The big league, built once on the database, with a history record per hand."""
    from django.core.management import call_command
    from django.db import connection

    from leagues.models import Hand, League
    from tests.bench.build import build as build_leagues

    call_command("migrate", verbosity=0, interactive=False)
    if League.objects.filter(slug=SLUG).exists():
        return
    started = time.perf_counter()
    build_leagues(sizes)
    History = Hand.history.model
    hands = Hand.objects.filter(meeting__league__slug=SLUG).order_by("pk")
    batch = []
    for hand in hands.iterator(chunk_size=2000):
        batch.append(
            History(
                id=hand.pk,
                meeting_id=hand.meeting_id,
                position=hand.position,
                number=hand.number,
                version=hand.version,
                payload=hand.payload,
                entered_at=hand.entered_at,
                changed_at=hand.changed_at,
                history_date=hand.entered_at,
                history_type="+",
                history_user_id=hand.entered_by_id,
            )
        )
        if len(batch) == 2000:
            History.objects.bulk_create(batch)
            batch = []
    History.objects.bulk_create(batch)
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")
    print(f"Built the league in {time.perf_counter() - started:.0f} s", flush=True)


def _megabytes() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kB on Linux


def one(kind: str, json_file: str) -> dict:
    """One measurement in this process (set up already): seconds, peak MB above the start."""
    from unittest import mock

    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import transaction
    from django.test import Client
    from django.urls import reverse

    from tests.bench.build import USERNAME

    user = get_user_model().objects.get(username=USERNAME)
    client = Client()
    client.force_login(user)
    client.get(reverse("league", kwargs={"slug": SLUG}))  # the URLs, templates and connection
    digest = hashlib.sha256()
    start_mb = _megabytes()
    started = time.perf_counter()
    size = 0
    if kind == "import":
        with transaction.atomic():
            call_command("import_league", json_file, "--name", "Copy", "--slug", "bench-copy", "--admin", USERNAME)
            transaction.set_rollback(True)
    else:
        language = "de" if kind == "csv-de" else "en"
        with mock.patch("django.utils.timezone.now", return_value=EXPORTED_AT):
            response = client.get(reverse(URLS[kind], kwargs={"slug": SLUG}), HTTP_ACCEPT_LANGUAGE=language)
            assert response.status_code == 200, response.status_code
            with open(json_file if kind == "api" else os.devnull, "wb") as out:
                for chunk in response.streaming_content if response.streaming else [response.content]:
                    out.write(chunk)
                    digest.update(chunk)
                    size += len(chunk)
    return {
        "kind": kind,
        "seconds": round(time.perf_counter() - started, 1),
        "peak_mb": round(_megabytes() - start_mb, 1),
        "bytes": size,
        "sha256": digest.hexdigest()[:16] if size else "",
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database-url", default=os.environ.get("DATABASE_URL", ""))
    parser.add_argument("--tiny", action="store_true", help="a tiny league (for a quick check)")
    parser.add_argument("--only", choices=KINDS, help="one measurement in this process (used by the bench)")
    parser.add_argument("--json-file", default=str(Path(tempfile.gettempdir()) / "bench-exchange.json"))
    args = parser.parse_args(argv)
    setup(args.database_url)
    if args.only:
        print(json.dumps(one(args.only, args.json_file)))
        return 0
    build(TINY if args.tiny else SIZES)
    print("| what | seconds | peak MB | bytes | sha256 |\n|---|---|---|---|---|")
    for kind in KINDS:
        done = subprocess.run(
            [sys.executable, "-m", "tests.bench.exchange", "--only", kind, "--json-file", args.json_file,
             "--database-url", args.database_url],
            cwd=Path.cwd(), capture_output=True, text=True,
        )  # fmt: skip
        if done.returncode != 0:
            print(done.stdout + done.stderr, file=sys.stderr)
            return 1
        r = json.loads(done.stdout.strip().splitlines()[-1])
        print(f"| {r['kind']} | {r['seconds']} | {r['peak_mb']} | {r['bytes']:,} | {r['sha256']} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
