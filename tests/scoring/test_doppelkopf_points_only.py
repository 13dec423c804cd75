"""The Doppelkopf option ``points_only``: a club that writes only the result. It
chooses the entry form; the engine scores a ``points`` hand the same with it on or off.
Figures by hand from doppelkopf.md (special rounds: each Bock trigger enqueues one Bock
round of as many games as players, every point counts double) and the kind ``points``
(plain plus-minus, the soloist three times)."""

from tests.scoring.test_doppelkopf_support import run

ON = {"points_only": True}


def _points(re, winner, value, **facts):
    return {"kind": "points", "re": list(re), "winner": winner, "value": value, **facts}


def test_a_written_120_to_120_starts_a_bock_round_under_the_option():
    # G1: 120 : 120, Kontra wins, written 2: Anna, Ben -2; Carl, Dora +2; split_120 is a Bock
    # trigger of the club: G2-G5 are a Bock round (four players). G2: Re (Carl, Dora) wins,
    # written 3, doubled: Carl, Dora +6; Anna, Ben -6. G3: Dora's trump solo lost, written 1,
    # doubled and tripled: Dora -6, the others +2 each.
    hands = [
        _points(["Anna", "Ben"], "kontra", 2, split_120=True),
        _points(["Carl", "Dora"], "re", 3),
        _points(["Dora"], "kontra", 1, solo="trumpf"),
    ]
    result = run(hands, rules=ON)
    h = result["hands"]
    assert h[0]["triggers"] == ["split_120"] and h[0]["round"] == "normal"
    assert h[0]["deltas"] == {"Anna": -2, "Ben": -2, "Carl": 2, "Dora": 2}
    assert (h[1]["round"], h[1]["multiplier"]) == ("bock", 2)
    assert h[1]["deltas"] == {"Anna": -6, "Ben": -6, "Carl": 6, "Dora": 6}
    assert (h[2]["round"], h[2]["multiplier"]) == ("bock", 2)
    assert h[2]["deltas"] == {"Anna": 2, "Ben": 2, "Carl": 2, "Dora": -6}
    assert result["totals"] == {"Anna": -6, "Ben": -6, "Carl": 10, "Dora": 2}
    assert result["next"]["round"] == "bock" and result["next"]["round_games_left"] == 2


def test_the_option_changes_no_figure():
    hands = [_points(["Anna", "Ben"], "re", 4, kontra_announced=True), _points(["Carl", "Dora"], "kontra", 1)]
    on, off = run(hands, rules=ON), run(hands)
    assert on["rules"]["points_only"] is True and off["rules"]["points_only"] is False
    assert [h["deltas"] for h in on["hands"]] == [h["deltas"] for h in off["hands"]]
    # Kontra announced and Re won: kontra_lost, so G2 counts double: Re lost 1 -> -2 each.
    assert on["hands"][1]["deltas"] == {"Anna": 2, "Ben": 2, "Carl": -2, "Dora": -2}
