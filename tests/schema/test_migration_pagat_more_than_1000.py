"""Migration 0018: a 1000 evening of the Pagat rule set whose copied rules have no
``target_inclusive`` (started before the option existed) keeps "more than 1000", the rule it
was played by; a replay would otherwise take the preset's value, which is now on (thousand.md,
presets). Rules that name the option, and other rule sets, are left as they are."""

import datetime

import pytest

from scoring.registry import get_game
from tests.migrations import migrate

BEFORE = [("leagues", "0017_imported_names")]
AFTER = [("leagues", "0018_pagat_meetings_keep_more_than_1000")]

OLD_PAGAT = {
    "marriage_values": {"hearts": 100, "diamonds": 80, "clubs": 60, "spades": 40},
    "bid_offset": 0,
    "bid_step": 5,
    "round_to": 5,
    "target": 1000,
    "barrel": 880,
    "forgot_to_pass_penalty": 240,
}


@pytest.mark.django_db(transaction=True)
def test_pagat_evenings_without_the_option_keep_more_than_1000(back_to_latest):
    assert get_game("thousand").presets["pagat"]["target_inclusive"] is True
    apps = migrate(BEFORE)
    League, Season, Player, Meeting = (apps.get_model("leagues", m) for m in ("League", "Season", "Player", "Meeting"))
    day = datetime.date(2020, 1, 3)
    rules = {
        "old": ("pagat", OLD_PAGAT),
        "chosen": ("pagat", {**OLD_PAGAT, "target_inclusive": True}),
        "koenigsberg": ("koenigsberg", {"bid_offset": 100}),
    }
    for name, (variant, rule_set) in rules.items():
        league = League.objects.create(name=name, slug=name, game="thousand", variant=variant)
        season = Season.objects.create(league=league, number=1, started_on=day)
        host = Player.objects.create(league=league, name="Anna")
        Meeting.objects.create(
            league=league, season=season, date=day, host=host, game="thousand", variant=variant, rules=rule_set
        )

    apps = migrate(AFTER)
    stored = {m.league.slug: m.rules for m in apps.get_model("leagues", "Meeting").objects.select_related("league")}
    assert stored["old"] == {**OLD_PAGAT, "target_inclusive": False}
    assert stored["chosen"] == {**OLD_PAGAT, "target_inclusive": True}
    assert stored["koenigsberg"] == {"bid_offset": 100}
    # the leagues themselves follow the preset: nothing of theirs is written
    assert all(league.rule_overrides == {} for league in apps.get_model("leagues", "League").objects.all())
