"""Calculate requests that show the Doppelkopf house rules in the API docs (the
OpenAPI schema lists them beside the generated example; tests/api/test_api_calculate.py replays
each and checks its figures, worked out by hand there).

``API_EXAMPLES``: {game name: [(title, request), ...]}, read by ``leagues.api``.
"""

from __future__ import annotations

FOUR = ["Anna", "Ben", "Carl", "Dora"]

API_EXAMPLES = {
    "doppelkopf": [
        (
            "Re and Kontra worth 1, Karlchen gefangen",
            {
                "game": "doppelkopf",
                "variant": "club",
                "rules": {"announcement_points": 1, "karlchen_gefangen": True},
                "players": FOUR,
                "hands": [
                    {
                        "kind": "normal",
                        "re": ["Anna", "Ben"],
                        "re_eyes": 150,
                        "announcements": [{"party": "re", "call": "re"}],
                        "specials": [{"kind": "karlchen_gefangen", "party": "re"}],
                    }
                ],
            },
        ),
        (
            "Stacked Bock rounds",
            {
                "game": "doppelkopf",
                "variant": "club",
                "rules": {"bock_stacking": "stack"},
                "players": FOUR,
                "hands": [
                    {"kind": "normal", "re": ["Anna", "Ben"], "re_eyes": 120},
                    {"kind": "normal", "re": ["Carl", "Dora"], "re_eyes": 120},
                    {"kind": "normal", "re": ["Anna", "Carl"], "re_eyes": 130},
                ],
            },
        ),
        (
            "Result only (kind points)",
            {
                "game": "doppelkopf",
                "variant": "club",
                "players": FOUR,
                "hands": [
                    {"kind": "points", "re": ["Anna", "Ben"], "winner": "re", "value": 4, "kontra_announced": True},
                    {"kind": "points", "re": ["Carl"], "solo": "damen", "winner": "kontra", "value": 3},
                ],
            },
        ),
    ]
}
