"""Rule options: presets plus overrides (scoring/options.py)."""

import pytest

from scoring.errors import ScoringError
from scoring.registry import all_games, get_game
from scoring.sitting import calculate


def test_a_caller_changing_the_rules_it_got_back_never_changes_the_preset():
    first = calculate({"game": "doppelkopf", "players": ["A", "B", "C", "D"], "hands": []})
    first["rules"]["bock_triggers"].clear()
    second = calculate({"game": "doppelkopf", "players": ["A", "B", "C", "D"], "hands": []})
    assert second["rules"]["bock_triggers"] == get_game("doppelkopf").presets["club"]["bock_triggers"]
    assert second["rules"]["bock_triggers"]


@pytest.mark.parametrize("spec", all_games(), ids=lambda s: s.key)
def test_every_preset_names_every_option_and_passes_its_own_checks(spec):
    names = {o.name for o in spec.options}
    for preset, values in spec.presets.items():
        assert set(values) == names, preset
        for option in spec.options:
            assert option.check(values[option.name]) is None, (preset, option.name)


def test_an_override_replaces_one_option_only():
    result = calculate(
        {
            "game": "doppelkopf",
            "variant": "ddv",
            "rules": {"solo_point": True},
            "players": ["A", "B", "C", "D"],
            "hands": [],
        }
    )
    assert result["rules"]["solo_point"] is True
    assert result["rules"]["loser_gets_points"] is False


def test_a_bool_is_not_a_number_for_an_int_option():
    with pytest.raises(ScoringError) as caught:
        calculate({"game": "twenty_five", "rules": {"target": True}, "players": ["A", "B"], "hands": []})
    assert [(p.hand, p.field) for p in caught.value.problems] == [(None, "rules")]
