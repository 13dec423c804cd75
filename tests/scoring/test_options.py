"""Rule options: presets plus overrides (scoring/options.py)."""

import pytest

from scoring.errors import Problems, ScoringError
from scoring.options import MAX_TIERS, TIERS, Option, resolve_rules, tier_of
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


# --- the tiers kind (a table by tiers, e.g. 56's stakes by bid) --------------------------------

TIER_OPTION = Option("stakes", TIERS, "Stakes", choices=tuple(range(10, 21)), minimum=0, maximum=9)


def test_a_tiers_option_needs_the_values_its_tiers_start_at():
    with pytest.raises(ValueError, match="choices"):
        Option("stakes", TIERS, "Stakes", minimum=0, maximum=9)


def test_tiers_start_at_the_first_choice_and_rise():
    assert TIER_OPTION.check([[10, 1, 2], [15, 2, 3], [20, 3, 4]]) is None
    assert TIER_OPTION.check([[10, 0, 9]]) is None
    assert "first tier at %(first)s" in TIER_OPTION.check([[11, 1, 2]])
    assert "first tier at %(first)s" in TIER_OPTION.check([[10, 1, 2], [15, 1, 2], [12, 1, 2]])
    assert "first tier at %(first)s" in TIER_OPTION.check([[10, 1, 2], [21, 1, 2]])
    assert "%(min)s to %(max)s" in TIER_OPTION.check([[10, 1, 10]])
    assert "at most %(tiers)s" in TIER_OPTION.check([[10 + i, 1, 2] for i in range(MAX_TIERS + 1)])
    for shape in ([], [10, 1, 2], [[10, 1]], [[10, 1, 2.0]], [[10, False, 2]], {"10": [1, 2]}):
        assert "three whole numbers" in TIER_OPTION.check(shape), shape
    assert TIER_OPTION.limits() == {"min": 0, "max": 9, "first": 10, "last": 20, "tiers": MAX_TIERS}


def test_tier_of_takes_the_last_tier_starting_at_or_below_the_value():
    tiers = [[10, 1, 2], [15, 2, 3], [20, 3, 4]]
    assert [tier_of(tiers, v) for v in (10, 14, 15, 19, 20)] == [(1, 2), (1, 2), (2, 3), (2, 3), (3, 4)]


def test_resolved_tiers_are_copies_a_caller_cannot_change_the_preset_through():
    preset = {"stakes": [[10, 1, 2], [15, 2, 3]]}
    rules = resolve_rules(options=(TIER_OPTION,), preset=preset, overrides=None, problems=Problems())
    rules["stakes"][0][1] = 99
    assert preset["stakes"][0] == [10, 1, 2]
