"""`python -m tests.bench.statistics_cold` in miniature (tiny leagues on a fresh SQLite file),
so that the suite keeps the measurement of the statistics pages on a cold cache working."""

import subprocess
import sys

from tests.bench.league import ROOT


def test_the_cold_statistics_benchmark_runs_in_miniature():
    done = subprocess.run(
        [sys.executable, "-m", "tests.bench.statistics_cold", "--tiny", "--runs", "1"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    for page in ("statistics, all time", "statistics, one season", "a player's statistics", "ratings"):
        for league in ("small", "big"):
            assert f"| {page} | {league} |" in done.stdout
