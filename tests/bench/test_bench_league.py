"""`make bench-league` in miniature (tiny leagues, two samples a row, two kinds cold, against a
real gunicorn on a fresh SQLite file), so that the suite keeps the benchmark working: it builds
the leagues with the writer's own results (checked against a fresh replay after the timed
writes) and times every page kind and write, warm, fresh and cold, against the floor."""

import json
import os
import subprocess
import sys

import pytest

from tests.bench.league import READS, ROOT, WRITES

# It runs on a SQLite file of its own whatever the suite's database: the suite's SQLite pass
# runs it, the PostgreSQL pass would run the same again.
pytestmark = pytest.mark.skipif(
    not os.environ.get("DATABASE_URL", "sqlite").startswith("sqlite"),
    reason="runs on its own SQLite file; runs in the suite's SQLite pass",
)


def test_the_league_benchmark_runs_in_miniature(tmp_path):
    output = tmp_path / "bench-league.json"
    done = subprocess.run(
        [sys.executable, "-m", "tests.bench.league", "--tiny", "--sqlite", "--output", str(output)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    results = json.loads(output.read_text())
    rows = {(row["kind"], row["mode"]): row for row in results["rows"]}
    for kind in [*READS, *WRITES]:
        for mode in ("warm", "fresh"):
            labels = {"carry"} if kind == "chain" else {"small", "big", "carry"}
            row = rows[kind, mode]
            assert all(row[label]["ratio"] > 0 and row[label]["floor_ms"] > 0 for label in labels), row
            assert isinstance(row["pass"], bool)
    assert {kind for kind, mode in rows if mode == "cold"} == {"league", "enter_hand"}
    assert rows["league", "warm"]["big_small"] > 0
    assert results["chain_reaches"]["carry"] >= 1
    assert "| league page | warm |" in done.stdout
