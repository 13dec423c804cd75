"""`make fuzz`: schemathesis over the whole OpenAPI schema against a real server.

For each database (a fresh SQLite file; and a fresh PostgreSQL database when DATABASE_URL
names a PostgreSQL server, or with --postgres): migrate, load the demo league
(`seed_demo`), start gunicorn with the production settings (debug off; plain HTTP, since no
proxy is in front), log in as the demo league's admin through the login form, and run
`schemathesis run <server>/api/v1/schema/` with every phase (examples, coverage, fuzzing,
stateful) over every operation, sending the session cookie and the CSRF header.

The API's rate limits are switched off for the run (KARTENLIGA_THROTTLE_ANON/USER=off): the
fuzzer sends thousands of requests a minute from one address and one account, and a wall of
429s would hide every other answer. The login lockout is untouched (the fuzzer never logs in).

Prints, per database, the operations, test cases, requests by status (from gunicorn's access
log) and failures by kind; the exit status is 1 when schemathesis found any failure.

    python -m tests.fuzz.run [--postgres] [--skip-sqlite] [--max-examples N] [--seed N] [--checks LIST] [--operation ID]...
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.live_server import BIN, Client, Gunicorn, manage, server_env  # noqa: E402

# A club night in the demo league, so that reading one reaches its tables and standings:
# three guests join the demo's five, two tables of four, a hand at each.
NIGHT_SCRIPT = """
import datetime
from leagues.models import League, Player
from leagues.table import nights, services
league = League.objects.get(slug="stammtisch-kreuz-dame")
for name in ("Fiete", "Greta", "Ole"):
    Player.objects.get_or_create(league=league, name=name)
players = list(league.players.order_by("pk"))
night = nights.open_club_night(
    league=league, date=datetime.date.today(), host=players[4], tables=[players[:4], players[4:8]]
)
for table in night.tables.order_by("table_number"):
    seated = [seat.player.name for seat in table.seats.order_by("position")]
    payload = {"kind": "normal", "re": seated[1:3], "re_eyes": 131}
    services.enter_hand(meeting=table, payload=payload, by=None)
"""

# The ids the hooks may use (tests/fuzz/hooks.py): the demo league, its meetings, their hands,
# its club nights.
IDS_SCRIPT = """
import json
from leagues.models import League
league = League.objects.get(slug="stammtisch-kreuz-dame")
meetings = {m.pk: list(m.hands.order_by("position").values_list("pk", flat=True)[:6]) for m in league.meetings.all()}
nights = list(league.club_nights.values_list("pk", flat=True))
print("FUZZ_IDS", json.dumps({"slug": league.slug, "meetings": meetings, "club_nights": nights}))
"""

# Checks that cannot hold for this API by design, with the reason (see /work/fuzz-findings.md).
EXCLUDED_CHECKS: dict[str, str] = {}


def postgres_url(base: str | None) -> str:
    """The server of DATABASE_URL (or the local one), for a fresh database of the run's own."""
    base = base if base and base.startswith("postgres") else "postgres://postgres@127.0.0.1:5432/postgres"
    parts = urlsplit(base)
    return urlunsplit(parts._replace(path="/postgres"))


class FreshPostgres:
    def __init__(self, server_url):
        import psycopg

        self.psycopg = psycopg
        self.server_url = server_url
        self.name = f"kartenliga_fuzz_{os.getpid()}_{int(time.time())}"

    def __enter__(self):
        with self.psycopg.connect(self.server_url, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{self.name}"')
        return urlunsplit(urlsplit(self.server_url)._replace(path=f"/{self.name}"))

    def __exit__(self, *exc):
        with self.psycopg.connect(self.server_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')


def summary_figures(output: str) -> dict:
    figures = {}
    selected = re.search(r"Selected: (\d+)/(\d+)", output)
    tested = re.search(r"Tested: (\d+)", output)
    cases = re.search(r"Test cases:\s*\n?\s*(\d+) generated", output)
    if selected:
        figures["operations"] = f"{selected.group(1)}/{selected.group(2)}"
    if tested:
        figures["operations_tested"] = int(tested.group(1))
    if cases:
        figures["test_cases"] = int(cases.group(1))
    failures = dict(re.findall(r"❌ (ST\d+ [^:\n]+): (\d+)", output))
    figures["failures"] = {kind: int(n) for kind, n in failures.items()}
    figures["phases"] = {
        name: mark for mark, name in re.findall(r"^\s+(\S+) (Examples|Coverage|Fuzzing|Stateful)\s*$", output, re.M)
    }
    return figures


def fuzz(database: str, label: str, args, workdir: Path) -> dict:
    env = server_env(
        database,
        DJANGO_SETTINGS_MODULE="kartenliga.settings",
        KARTENLIGA_THROTTLE_ANON="off",
        KARTENLIGA_THROTTLE_USER="off",
    )
    manage(env, "migrate", "--noinput", "-v", "0")
    manage(env, "seed_demo")
    manage(env, "shell", "-c", NIGHT_SCRIPT)
    ids = next(line for line in manage(env, "shell", "-c", IDS_SCRIPT).splitlines() if line.startswith("FUZZ_IDS"))
    access_log = workdir / f"access-{label}.log"
    with Gunicorn(env, workdir / f"gunicorn-{label}.log", workers=4, timeout=30, access_log=access_log) as server:
        client = Client(server.port).log_in("demo", "kartenliga-demo")
        command = [
            str(BIN / "schemathesis"),
            "--config-file",
            str(Path(__file__).with_name("schemathesis.toml")),
            "run",
            f"http://127.0.0.1:{server.port}/api/v1/schema/",
            "--phases",
            "examples,coverage,fuzzing,stateful",
            "--max-examples",
            str(args.max_examples),
            "--seed",
            str(args.seed),
            "--workers",
            str(args.workers),
            "--request-timeout",
            "30",
            # Every operation is fuzzed to the end: the first failure would otherwise stop it.
            "--continue-on-failure",
            "--suppress-health-check",
            "too_slow,filter_too_much",
            "--report",
            "junit,har",
            "--report-dir",
            str(workdir / f"report-{label}"),
        ]
        if args.checks != "all":
            # Every check runs by default; a --checks on the command line would also override
            # the per-operation exceptions of schemathesis.toml (the CLI takes precedence).
            command += ["--checks", args.checks]
        for operation in args.operation or ():
            command += ["--include-operation-id", operation]
        for check in EXCLUDED_CHECKS:
            command += ["--exclude-checks", check]
        fuzz_env = {**os.environ, "SCHEMATHESIS_HOOKS": "tests.fuzz.hooks", "PYTHONPATH": str(ROOT)}
        fuzz_env["FUZZ_IDS"] = ids.split(" ", 1)[1]
        fuzz_env["FUZZ_SESSIONID"] = client.cookies["sessionid"]
        fuzz_env["FUZZ_CSRFTOKEN"] = client.cookies["csrftoken"]
        before = access_log.stat().st_size if access_log.exists() else 0  # the log-in's requests
        started = time.monotonic()
        # In the run's folder: schemathesis keeps a cache (.schemathesis/) where it runs.
        done = subprocess.run(command, cwd=workdir, env=fuzz_env, capture_output=True, text=True)
        elapsed = time.monotonic() - started
        output = done.stdout + done.stderr
        (workdir / f"schemathesis-{label}.txt").write_text(output)
        server_log = server.log()
    with open(access_log, "rb") as log:
        log.seek(before)
        requests = Counter(line.split()[0].decode() for line in log.read().splitlines() if line.strip())
    figures = {
        "database": label,
        **summary_figures(output),
        "requests": sum(requests.values()),
        "requests_by_status": dict(sorted(requests.items())),
        "server_errors_logged": server_log.count("Internal Server Error"),
        "seconds": round(elapsed),
        "exit_status": done.returncode,
    }
    print(output if done.returncode else output[output.find("SUMMARY") - 40 :])
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--postgres", action="store_true", help="also on a fresh PostgreSQL database")
    parser.add_argument("--skip-sqlite", action="store_true", help="PostgreSQL only")
    parser.add_argument("--max-examples", type=int, default=int(os.environ.get("FUZZ_MAX_EXAMPLES", "50")))
    parser.add_argument("--seed", type=int, default=int(os.environ.get("FUZZ_SEED", "1")))
    # One worker: faster here than two (the server needs the cores), and schemathesis's threads
    # met CPython 3.11's "AST constructor recursion depth mismatch" while fuzzing calculate.
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--checks", default="all")
    parser.add_argument("--operation", action="append", help="only this operation id (repeatable)")
    parser.add_argument("--output", help="write the figures as JSON here (default: in the run's folder)")
    parser.add_argument("--keep", help="keep logs and reports in this folder")
    args = parser.parse_args()

    workdir = Path(args.keep or tempfile.mkdtemp(prefix="kartenliga-fuzz-"))
    workdir.mkdir(parents=True, exist_ok=True)
    runs = []
    if not args.skip_sqlite:
        print("== schemathesis on a fresh SQLite database")
        runs.append(fuzz(f"sqlite:///{workdir / 'fuzz.sqlite3'}", "sqlite", args, workdir))
    if args.postgres or os.environ.get("DATABASE_URL", "").startswith("postgres"):
        print("== schemathesis on a fresh PostgreSQL database")
        with FreshPostgres(postgres_url(os.environ.get("DATABASE_URL"))) as url:
            runs.append(fuzz(url, "postgresql", args, workdir))
    output = Path(args.output or workdir / "fuzz-results.json")
    output.write_text(json.dumps({"seed": args.seed, "max_examples": args.max_examples, "runs": runs}, indent=2))
    for run in runs:
        print(json.dumps(run))
    print(f"Logs and reports: {workdir}; figures: {output}")
    return 1 if any(run["exit_status"] for run in runs) else 0


if __name__ == "__main__":
    sys.exit(main())
