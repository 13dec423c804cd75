"""The words a hand waiting offline is said with (leagues/table/hand_entry/words.py): those of each
game's ``describe``, in the page's language, for static/js/hand-words.js."""

import json

import pytest
from django.utils import translation

from leagues.table.hand_entry import FORMS
from leagues.table.hand_entry.words import hand_words


@pytest.mark.parametrize("game", sorted(FORMS))
def test_every_game_has_the_words_of_its_describe(game):
    with translation.override("de"):
        words = json.loads(hand_words(game))
    assert words["game"] in {"doppelkopf", "maw", "thousand", "fifty_six"}
    assert words["labels"] and all(isinstance(label, str) and label for label in words["labels"].values())


def test_doppelkopfs_words_are_describes_in_german():
    with translation.override("de"):
        words = json.loads(hand_words("doppelkopf"))
    assert words["labels"]["eyes"] == "Augen"
    assert words["eyes_text"] == "Re {re} : Kontra {kontra}"
    assert words["kinds"]["normal"] == "Normalspiel"
    assert words["ramsch_row"] == ["{name} {eyes} Augen, {tricks} Stich", "{name} {eyes} Augen, {tricks} Stiche"]
    with translation.override("en"):
        assert json.loads(hand_words("doppelkopf"))["labels"]["eyes"] == "Eyes"
