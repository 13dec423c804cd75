"""`make fuzz`, its second part: mutations of a real league export through the import page.

The base file is the demo league (seed_demo) with a corrected, a deleted and a discarded
hand, reopenings and an evening copied from paper, exported (tests/fuzz/import_checks.py).
Every field of it is mutated (tests/fuzz/mutations.py): exhaustively, each mutation of the
catalogue on the first node of each field, and a seeded random sample of one to three at a
time. Each file is imported through the import page as a logged-in user would (Django's test
client: the whole middleware stack, debug off). The goal: no server error at import; and
for every file accepted, every page of the imported league 200, its export round trip equal
(export, import, export) and ``verify_replays`` clean. Accepted files that import to the same
data as one already checked are not checked twice.

For each database (a fresh SQLite file; and a fresh PostgreSQL database when DATABASE_URL
names a PostgreSQL server, or with --postgres) a worker process of its own, side by side,
runs the files and prints one line of figures starting with ``{"database"`` (CI greps it). Exit status 1 on any
server error or broken accepted file. ``--findings FILE`` appends each distinct finding (the
field, the mutation, the error's last line and where it was raised) to FILE as Markdown.
``--share K/N`` takes every N-th mutation of the catalogue from the K-th: CI runs a share of it
on each database, a different one each run (`.ci/run`); `make fuzz` runs it all.

    python -m tests.fuzz.import_mutations [--postgres] [--skip-sqlite] [--share K/N] [--random N] [--seed N]
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import logging
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.fuzz.run import FreshPostgres, postgres_url  # noqa: E402
from tests.live_server import server_env  # noqa: E402


def arguments(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--postgres", action="store_true", help="also on a fresh PostgreSQL database")
    parser.add_argument("--random", type=int, default=int(os.environ.get("FUZZ_IMPORT_RANDOM", "200")))
    parser.add_argument("--seed", type=int, default=int(os.environ.get("FUZZ_SEED", "1")))
    parser.add_argument("--skip-sqlite", action="store_true", help="PostgreSQL only")
    parser.add_argument("--pg-name", help="the fresh PostgreSQL database's name (default: one of its own)")
    parser.add_argument("--limit", type=int, help="only the first N files (a quick look)")
    parser.add_argument(
        "--share",
        default=os.environ.get("FUZZ_IMPORT_SHARE", "1/1"),
        help="K/N: of the catalogue's mutations every N-th, starting with the K-th (CI: a share a run)",
    )
    parser.add_argument("--findings", help="append each distinct finding to this Markdown file")
    parser.add_argument("--keep", help="keep the details (JSON per database) in this folder")
    parser.add_argument("--worker", nargs=2, metavar=("DATABASE_URL", "LABEL"), help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def main(argv=None) -> int:
    args = arguments(argv)
    if args.worker:
        return worker(args, *args.worker)
    workdir = Path(args.keep or tempfile.mkdtemp(prefix="kartenliga-import-fuzz-"))
    workdir.mkdir(parents=True, exist_ok=True)
    # The databases side by side, a worker process each: on two cores the run takes the time
    # of the slower one.
    with contextlib.ExitStack() as stack:
        workers = []
        if not args.skip_sqlite:
            print("== import mutations on a fresh SQLite database", flush=True)
            sqlite = workdir / "import-fuzz.sqlite3"
            sqlite.unlink(missing_ok=True)  # a fresh database, also when --keep names an earlier run's folder
            workers.append(start_worker(args, f"sqlite:///{sqlite}", "sqlite", workdir))
        if args.postgres or os.environ.get("DATABASE_URL", "").startswith("postgres"):
            print("== import mutations on a fresh PostgreSQL database", flush=True)
            fresh = FreshPostgres(postgres_url(os.environ.get("DATABASE_URL")))
            fresh.name = args.pg_name or fresh.name
            workers.append(start_worker(args, stack.enter_context(fresh), "postgresql", workdir))
        statuses = [process.wait() for process in workers]
    print(f"Details: {workdir}")
    return 1 if any(statuses) else 0


def start_worker(args, database: str, label: str, workdir: Path) -> subprocess.Popen:
    env = server_env(database, KARTENLIGA_THROTTLE_ANON="off", KARTENLIGA_THROTTLE_USER="off")
    command = [sys.executable, "-m", "tests.fuzz.import_mutations", "--worker", database, label]
    command += ["--random", str(args.random), "--seed", str(args.seed), "--keep", str(workdir), "--share", args.share]
    if args.limit:
        command += ["--limit", str(args.limit)]
    if args.findings:
        command += ["--findings", str(Path(args.findings).resolve())]
    return subprocess.Popen(command, cwd=ROOT, env=env)


# --- the worker: one database -----------------------------------------------------------------


def worker(args, database: str, label: str) -> int:
    import django

    django.setup()
    from django.core.management import call_command
    from django.test import Client

    from tests.fuzz import import_checks, mutations

    # Each finding is counted and written down once: not a traceback per request on stderr.
    for name in ("django.request", "django.security"):
        logging.getLogger(name).setLevel(logging.CRITICAL)
    started = time.monotonic()
    call_command("migrate", "--noinput", verbosity=0)
    base = import_checks.base_export()
    client = Client(raise_request_exception=True, HTTP_HOST="localhost")
    client.force_login(import_checks.fuzz_user())
    findings_file = FindingsFile(args.findings, label)
    run = Run(label, client, base, findings_file)
    outcome = run.check(mutations.Mutation("(the file)", "unchanged"), 0)
    if outcome != "accepted":
        print(f"The unchanged base file does not pass ({outcome}, {run.statuses}): {run.findings}", file=sys.stderr)
        return 2
    run.outcomes.clear()  # the figures count the mutations, not the base file
    run.statuses.clear()
    files = share(mutations.exhaustive(base), args.share) + mutations.seeded(base, count=args.random, seed=args.seed)
    files = files[: args.limit] if args.limit else files
    for n, mutation in enumerate(files, start=1):
        run.check(mutation, n)
        if n % 500 == 0:
            seconds = round(time.monotonic() - started)
            print(f"   {label}: {n} of {len(files)} files, {seconds} s: {dict(run.outcomes)}", flush=True)
    figures = {**run.figures(len(files), round(time.monotonic() - started)), "share": args.share}
    print(json.dumps(figures), flush=True)
    if args.keep:
        details = {"figures": figures, "findings": run.findings}
        Path(args.keep, f"import-fuzz-{label}.json").write_text(json.dumps(details, indent=1, ensure_ascii=False))
    findings_file.close(figures)
    return figures["exit_status"]


def share(files: list, text: str) -> list:
    """``files`` cut to the share ``text`` names ("K/N": every N-th from the K-th, 1-based; "1/1":
    all): CI takes one share a run, another each time, so that runs go round the catalogue."""
    picked, _slash, every = text.partition("/")
    k, n = int(picked), int(every or 1)
    if not 1 <= k <= n:
        raise SystemExit(f"--share {text}: K/N with 1 <= K <= N")
    return files[k - 1 :: n]


class Run:
    """The files of one database and what became of them."""

    def __init__(self, label, client, base, findings_file):
        self.label, self.client, self.base = label, client, base
        self.findings_file = findings_file
        self.outcomes: Counter[str] = Counter()
        self.statuses: Counter[int] = Counter()
        self.findings: list[dict] = []
        self.checked_digests: set[str] = set()
        self.distinct = 0

    def check(self, mutation, n: int) -> str:
        """Import one file; when accepted, check the league it made. Returns the outcome."""
        from leagues.models import League
        from tests.fuzz import import_checks

        slug = f"fuzz-{n}"
        answer = import_checks.import_file(self.client, mutation.file(self.base), slug)
        self.statuses[answer.status] += 1
        if answer.server_error:
            self.note(mutation, "500 at import", answer.error or f"status {answer.status}", answer.at)
            return self.count("server_error")
        if answer.status != 302:
            return self.count("refused")
        league = League.objects.get(slug=slug)
        if self.seen(league):
            return self.count("accepted")
        self.distinct += 1
        broken = self.broken(mutation, league)
        return self.count("broken" if broken else "accepted")

    def broken(self, mutation, league) -> bool:
        """Whether the league of an accepted file fails a check (each failure noted)."""
        from tests.fuzz import import_checks as checks

        focus = checks.Focus.of(path for path, _action, _value in mutation.changes)
        found = self.guarded(
            "pages",
            lambda: [
                ("500 on a page" if page.server_error else f"{page.status} on a page", page.error, page.at, path)
                for path, page in checks.broken_pages(self.client, league, focus)
            ],
        )
        problem = self.guarded("round trip", lambda: checks.round_trip_problem(self.client, league))
        found += [("round trip", problem, None, None)] if isinstance(problem, str) else problem or []
        found += self.guarded(
            "verify_replays",
            lambda: [("verify_replays", p.split(": ", 1)[-1], None, None) for p in checks.verify_problems(league)],
        )
        for kind, error, at, page in found:
            self.note(mutation, kind, error or kind, at, page=page)
        return bool(found)

    @staticmethod
    def guarded(name, check):
        """``check()``, or the finding that it raised (the checks must not end the run)."""
        from tests.fuzz import import_checks as checks

        try:
            return check()
        except Exception as error:  # noqa: BLE001 - whatever a check raises is a finding
            return [(f"{name} raised", checks.last_line(error), checks.project_frame(error), None)]

    def seen(self, league) -> bool:
        """Whether a league with the same data was checked already (its export, as compared)."""
        from tests.exchange.files import exported
        from tests.fuzz import import_checks

        try:
            export = import_checks.comparable(exported(league))
            digest = hashlib.sha256(json.dumps(export, sort_keys=True, default=str).encode()).hexdigest()
        except Exception:  # noqa: BLE001 - an export that fails is checked (and found) below
            return False
        if digest in self.checked_digests:
            return True
        self.checked_digests.add(digest)
        return False

    def count(self, outcome: str) -> str:
        self.outcomes[outcome] += 1
        return outcome

    def note(self, mutation, kind, error, at, *, page=None):
        finding = {"kind": kind, "where": mutation.where, "what": mutation.what, "error": error, "at": at, "page": page}
        self.findings.append(finding)
        self.findings_file.add(finding)

    def figures(self, files: int, seconds: int) -> dict:
        kinds = Counter(f["kind"] for f in self.findings)
        failed = self.outcomes["server_error"] + self.outcomes["broken"]
        return {
            "database": self.label,
            "import_mutations": files,
            "accepted": self.outcomes["accepted"] + self.outcomes["broken"],
            "refused": self.outcomes["refused"],
            "server_errors": self.outcomes["server_error"],
            "accepted_checked": self.distinct,
            "accepted_broken": self.outcomes["broken"],
            "broken_pages": sum(n for kind, n in kinds.items() if kind.endswith("on a page")),
            "page_server_errors": kinds["500 on a page"],
            "failures_by_kind": dict(sorted(kinds.items())),
            "import_statuses": {str(k): v for k, v in sorted(self.statuses.items())},
            "seconds": seconds,
            "exit_status": 1 if failed else 0,
        }


def pattern_in(text: str) -> str:
    """A field's path or a page's address without its numbers (``meetings[*].date``,
    ``/l/<slug>/m/<n>/``): the same finding in another meeting is the same finding."""
    text = re.sub(r"\[\d+\]", "[*]", text)
    text = re.sub(r"/(l|api/v1/leagues)/fuzz-\d+(-rt)?/", r"/\1/<slug>/", text)
    text = re.sub(r"/p/[^/]+/", "/p/<token>/", text)
    return re.sub(r"/\d+/", "/<n>/", text)


class FindingsFile:
    """Each distinct finding (kind, field as a pattern, mutation, error, page) appended to a
    Markdown file as soon as it is found, under a heading for the run."""

    def __init__(self, path: str | None, label: str):
        self.path, self.label = (Path(path) if path else None), label
        self.written: set[tuple] = set()

    def add(self, finding: dict) -> None:
        page = finding["page"] and pattern_in(finding["page"])
        key = (finding["kind"], pattern_in(finding["where"]), finding["what"], finding["error"], page)
        if self.path is None or key in self.written:
            return
        lines = []
        if not self.written:
            stamp = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
            lines.append(f"\n## Import fuzzer on {self.label}, {stamp}\n")
        self.written.add(key)
        where = f" page `{page}`" if page else ""
        at = f" ({finding['at']})" if finding["at"] else ""
        what = finding["what"][:160].replace("\n", " ")
        lines.append(f"- **{finding['kind']}**{where}: `{finding['where'][:120]}` ← {what}: `{finding['error']}`{at}")
        with self.path.open("a") as out:
            out.write("\n".join(lines) + "\n")

    def close(self, figures: dict) -> None:
        if self.path is not None:
            with self.path.open("a") as out:
                out.write(f"- figures ({self.label}): `{json.dumps(figures)}`\n")


if __name__ == "__main__":
    sys.exit(main())
