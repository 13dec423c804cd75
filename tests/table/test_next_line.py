"""The line above the hand form with its panel folded (leagues/table/next_line.py): a race game's
score in it, and the solos owed in the last round told short when everyone owes one."""

from django.utils import translation

from leagues.table import next_line
from leagues.table.views.meeting import next_words
from tests.table.test_next_panel import LATE


class _League:
    def __init__(self, game):
        self.game = game


def _race(**result):
    base = {"totals": {"Anna": 25, "Ben": 5, "Carl": 0}, "hands": [{}], "games": []}
    return {**base, **result}


def test_a_race_games_line_holds_each_partys_score_in_seat_order():
    with translation.override("en"):
        words = next_line.race_words(_race())
    assert words == {"scores": [("Anna", 25), ("Ben", 5), ("Carl", 0)]}


def test_a_race_games_line_says_who_won_the_game_the_last_hand_ended():
    result = _race(hands=[{}, {}], games=[{"winner": "Ben", "hand": 1}, {"winner": "Anna", "hand": 2}])
    with translation.override("en"):
        assert next_line.race_words(result)["game_won"] == "game won by Anna"
    # A game ended by an earlier hand is over: the line does not name it any more.
    assert "game_won" not in next_line.race_words(_race(hands=[{}, {}], games=[{"winner": "Ben", "hand": 1}]))


def test_a_pot_games_line_holds_the_pot():
    with translation.override("en"):
        assert next_line.race_words(_race(pot=1))["pot"] == "pot: 1 chip"
        assert next_line.race_words(_race(pot=12))["pot"] == "pot: 12 chips"


def test_everyone_owing_a_solo_is_told_as_everyone():
    players = ["Anna", "Ben", "Carl", "Dora", "Emil", "Fritz"]
    with translation.override("en"):
        assert next_line.owed_words(players, players) == "solo owed: everyone"
        assert next_line.owed_words(["Anna", "Carl"], players) == "solo owed: Anna, Carl"
        assert next_line.owed_words(["Anna"], ["Anna"]) == "solo owed: Anna"


def test_the_meeting_panels_words_of_a_race_game_hold_its_score_and_doppelkopf_none():
    race = {**LATE, "league": _League("one_ten"), "result": _race(), "players": ["Anna", "Ben", "Carl"]}
    dk = {**LATE, "league": _League("doppelkopf"), "result": _race(), "players": ["Anna", "Ben", "Carl"]}
    with translation.override("en"):
        assert next_words(race)["scores"] == [("Anna", 25), ("Ben", 5), ("Carl", 0)]
        assert "scores" not in next_words(dk)
