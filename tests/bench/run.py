"""`make bench`: how fast the engines replay, and what the calculate endpoint costs.

1. Engine throughput, per game, in process on one core: random valid 40-hand meetings (from
   each engine's ``example_request``) replayed through ``scoring.sitting.calculate`` (request
   checks included), as hands per second.
2. Endpoint latency: a gunicorn server (one sync worker) on 127.0.0.1 answers, interleaved,
   POST /api/v1/calculate/ with a 40-hand Doppelkopf meeting and the trivial POST
   /api/v1/ping/; the medians and their ratio are reported.

Prints a table and writes the figures as JSON (``--output``). Targets: Doppelkopf
>= 50,000 hands/s; calculate for 40 hands <= 2x the trivial endpoint's median.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import platform
import random
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from scoring.registry import GAME_MODULES, example_request, get_game  # noqa: E402
from scoring.sitting import calculate  # noqa: E402

HANDS = 40


def example(game: str, seed: int, hands: int = HANDS, variant: str | None = None) -> dict:
    return example_request(game, random.Random(seed), hands, variant=variant)


def engine_throughput(game: str, seconds: float, variant: str | None = None) -> dict:
    requests = [example(game, seed, variant=variant) for seed in range(20)]
    hands = sum(len(r["hands"]) for r in requests)
    for request in requests:  # warm up, and make sure they are valid
        calculate(request)
    rounds = 0
    start = time.perf_counter()
    while True:
        for request in requests:
            calculate(request)
        rounds += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            break
    return {"hands_per_second": round(rounds * hands / elapsed), "hands_replayed": rounds * hands}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def post(port: int, path: str, body: bytes) -> float:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    start = time.perf_counter()
    connection.request("POST", path, body=body, headers={"Content-Type": "application/json"})
    response = connection.getresponse()
    response.read()
    elapsed = time.perf_counter() - start
    connection.close()
    if response.status != 200:
        raise RuntimeError(f"{path} answered {response.status}")
    return elapsed


def endpoint_latency(samples: int) -> dict:
    port = free_port()
    env = dict(
        os.environ,
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY=os.environ.get("DJANGO_SECRET_KEY", "bench-only-secret-" + "x" * 40),
        DJANGO_ALLOWED_HOSTS="127.0.0.1",
        DJANGO_SECURE_SSL_REDIRECT="0",
        DJANGO_STATIC_MANIFEST="0",
        # Hundreds of requests from one address in a minute: the API's rate limit would
        # answer 429 (README "Running it for real").
        KARTENLIGA_THROTTLE_ANON="off",
        KARTENLIGA_THROTTLE_USER="off",
    )
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "kartenliga.wsgi",
            "-b",
            f"127.0.0.1:{port}",
            "-w",
            "1",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                post(port, "/api/v1/ping/", b"{}")
                break
            except (OSError, RuntimeError):
                if time.monotonic() > deadline or server.poll() is not None:
                    raise RuntimeError("the server did not start") from None
                time.sleep(0.2)
        meeting = json.dumps(example("doppelkopf", 7)).encode()
        ping = b"{}"
        for _ in range(20):  # warm up both paths
            post(port, "/api/v1/ping/", ping)
            post(port, "/api/v1/calculate/", meeting)
        trivial, calc = [], []
        for _ in range(samples):  # interleaved, so both see the same machine
            trivial.append(post(port, "/api/v1/ping/", ping))
            calc.append(post(port, "/api/v1/calculate/", meeting))
    finally:
        server.terminate()
        server.wait(10)
    t, c = statistics.median(trivial), statistics.median(calc)
    return {
        "samples": samples,
        "hands": HANDS,
        "trivial_median_ms": round(t * 1000, 3),
        "calculate_median_ms": round(c * 1000, 3),
        "ratio": round(c / t, 3),
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--output", default="bench-results.json")
    parser.add_argument("--seconds", type=float, default=1.0, help="replay time per game and preset")
    parser.add_argument("--samples", type=int, default=300, help="requests per endpoint")
    args = parser.parse_args(argv)

    results = {"python": platform.python_version(), "machine": platform.machine(), "engines": {}}
    print(f"Engine throughput ({HANDS}-hand meetings, one core, {args.seconds:g} s per game and preset)")
    for game in GAME_MODULES:
        spec = get_game(game)
        figures = engine_throughput(game, args.seconds)
        figures["presets"] = {}
        print(f"  {game:<12} {figures['hands_per_second']:>10,} hands/s  ({spec.default_preset})")
        for variant in spec.presets:
            if variant == spec.default_preset:
                continue
            preset = engine_throughput(game, args.seconds, variant=variant)
            figures["presets"][variant] = preset["hands_per_second"]
            print(f"  {'':<12} {preset['hands_per_second']:>10,} hands/s  ({variant})")
        results["engines"][game] = figures
    print(f"Endpoint latency ({args.samples} interleaved requests each)")
    latency = endpoint_latency(args.samples)
    results["endpoint"] = latency
    print(f"  trivial    median {latency['trivial_median_ms']:.3f} ms")
    print(f"  calculate  median {latency['calculate_median_ms']:.3f} ms ({HANDS} Doppelkopf hands)")
    print(f"  ratio      {latency['ratio']:.2f} (target <= 2)")
    dk = results["engines"]["doppelkopf"]["hands_per_second"]
    print(f"Doppelkopf engine: {dk:,} hands/s (target >= 50,000)")
    Path(args.output).write_text(json.dumps(results, indent=2) + "\n")
    print(f"Written to {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
