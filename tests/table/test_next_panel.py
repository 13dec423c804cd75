"""The panel of what comes next and the hand's form, the partials ``next_card`` and
``hand_form`` of templates/meetings/meeting.html: their words with figures
(``views.meeting.next_words``, ``hand_entry.doppelkopf.next_words``), written out by hand in
English and German, in the panel as the meeting page shows it."""

import pytest
from django.template.loader import render_to_string
from django.test import RequestFactory
from django.utils import translation
from django.utils.safestring import mark_safe

from leagues.table.hand_entry import doppelkopf
from leagues.table.views.meeting import next_context, next_words

LATE = {
    "hand_number": 23,
    "next": {
        "dealer": "Ben",
        "active": ["Carl", "Dora", "Emil", "Anna"],
        "round": "pflichtsolo",
        "round_games_left": 1,
        "soloist": None,
        "solo_owed": ["Anna", "O'Brien"],
        "multiplier": 2,
        "bock_rounds": [3],
        "queue": ["bock", "bock", "ramsch"],
    },
    "sitting_out": ["Fritz"],
    "after_end": True,
    "host_round_games_left": 2,
    "last_round": True,
}


def test_the_panels_words_in_english():
    with translation.override("en"):
        words = {key: str(value) for key, value in next_words(LATE).items()}
    assert words == {
        "title": "Next: hand 23",
        "dealer": "Ben deals",
        "sitting_out": "Fritz",
        "out": "out: Fritz",
        "round": "Pflichtsolo",
        "round_left": "1 left",
        "end_left": "end time: 2 left",
        "host_round_left": "2 games left in the host round",
        "solo_owed": "solo owed: Anna, O'Brien",
        "last_round_solos": "Anna, O'Brien",
    }


def test_the_panels_words_in_german_with_a_soloist_due():
    context = {**LATE, "next": {**LATE["next"], "soloist": "Carl", "round_games_left": 3}, "host_round_games_left": 1}
    with translation.override("de"):
        words = {key: str(value) for key, value in next_words(context).items()}
    assert words["title"] == "Als Nächstes: Spiel 23"
    assert words["dealer"] == "Ben gibt"
    assert words["out"] == "setzt aus: Fritz"
    assert words["solo"] == "Solo: Carl" and "solo_owed" not in words
    assert words["last_round_solos"] == "Anna, O'Brien"


def test_doppelkopfs_words_with_a_bock_round_stacked_in_a_pflichtsolo_round():
    with translation.override("en"):
        words = {key: str(value) for key, value in doppelkopf.next_words(LATE["next"]).items()}
    assert words == {
        "round": "Pflichtsolo round",
        "round_left": "1 game left",
        "multiplier": "Every point counts ×2",
        "bock_stack": "Bock round, games left: 3",
        "queue": '<span class="badge bock">Bock ×2</span> <span class="badge ramsch">Ramsch</span> ',
        "solo_owed": "Anna, O'Brien",
    }
    with translation.override("de"):
        words = doppelkopf.next_words({"round": "bock", "round_games_left": 4, "multiplier": 4, "bock_rounds": [3, 4]})
        assert str(words["round"]) == "Bockrunde" and str(words["round_left"]) == "noch 4 Spiele"
        assert str(words["bock_stack"]) == "2 Bockrunden, noch Spiele: 3, 4"


@pytest.fixture
def request_():
    return RequestFactory().get("/")


def test_the_panel_and_the_form_escape_names_once(request_):
    class League:
        game, slug = "doppelkopf", "kreuz-dame"

    class Meeting:
        pk = 7

    context = {
        **LATE,
        "league": League,
        "meeting": Meeting,
        "result": {"hands": [{}], "totals": {"Anna": 3, "O'Brien": -3}},
        "can_close": True,
        "hand_url": "/l/kreuz-dame/m/7/hands/_hx/",
        "idempotency_key": "k1",
        "other_errors": ["Hand 2: <b>bad</b>"],
        "game_form_html": mark_safe("<div class=dk-form></div>"),  # rendered (views.meeting.form_context)
    }
    with translation.override("en"):
        context.update(next_context(context, module=doppelkopf), dk=doppelkopf.next_words(context["next"]))
        card = render_to_string("meetings/meeting.html#next_card", context, request=request_)
        form = render_to_string("meetings/meeting.html#hand_form", context, request=request_)
    assert '<span class="next-solo">solo owed: Anna, O&#x27;Brien</span>' in card
    assert '<li><span>O&#x27;Brien</span> <b class="minus">-3</b></li>' in card
    assert "/close/" not in card  # "End the evening" is below the sheet, away from the form
    assert '<input type="hidden" name="csrfmiddlewaretoken" value="' in form
    assert "<h2>Enter hand 23</h2>" in form and '<button type="submit" class="wide">Save hand 23</button>' in form
    assert "<li>Hand 2: &lt;b&gt;bad&lt;/b&gt;</li>" in form and "<div class=dk-form></div>" in form
