"""`make bench-load` in miniature (two small clubs, 8 clients of which 2 scorekeepers, 3 s against
a real gunicorn on a fresh SQLite file), so that the suite keeps the load benchmark working: no
request fails, every hand the scorekeepers were told was stored is there exactly once, and every
cached figure equals a fresh replay."""

import json
import os
import subprocess
import sys

import pytest

from tests.bench.load import ROOT

# It runs on a SQLite file of its own whatever the suite's database: the suite's SQLite pass
# runs it, the PostgreSQL pass would run the same again.
pytestmark = pytest.mark.skipif(
    not os.environ.get("DATABASE_URL", "sqlite").startswith("sqlite"),
    reason="runs on its own SQLite file; runs in the suite's SQLite pass",
)


def test_the_load_benchmark_runs_in_miniature(tmp_path):
    output = tmp_path / "bench-load.json"
    done = subprocess.run(
        [sys.executable, "-m", "tests.bench.load", "--tiny", "--sqlite", "--output", str(output)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    results = json.loads(output.read_text())
    assert results["floor"]["errors"] == 0 and results["mix"]["errors"] == 0
    assert results["floor"]["requests"] > 0 and 0 < results["mix_to_floor"]
    hands = results["hands"]
    assert hands["intended"] > 0
    assert (hands["lost"], hands["duplicated"], hands["wrong"], hands["unexpected"]) == (0, 0, 0, 0)
    assert results["replays"]["problem_count"] == 0
    assert {"enter_hand", "standings", "meeting", "public_sheet"} <= set(results["mix"]["kinds"])
    assert "| **the mix**" in done.stdout
