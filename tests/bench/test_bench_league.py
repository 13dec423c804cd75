"""`make bench-league` in miniature (tiny leagues, one short run against a real gunicorn on a
fresh SQLite file), so that the suite keeps the benchmark working: it builds the leagues with
the writer's own caches (checked against a fresh replay before and after the timed writes)
and times every page."""

import json
import subprocess
import sys

from tests.bench.league import PAGES, ROOT


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
    assert set(results["ratios"]) == {"small", "big", "carry"}
    for figures in results["ratios"].values():
        assert set(figures) == set(PAGES)
        assert all(f["median"] > 0 for f in figures.values())
    assert "| league page |" in done.stdout
