"""The sheet's rows, the partials ``sheet_row`` of templates/meetings/meeting.html (a row of
``selectors.sheet_rows``) and of templates/public/meeting.html (a row of
``selectors.meeting_sheet``): what each row shows, written out by hand, with words escaped and
numbers as Django's templates print them."""

from decimal import Decimal
from types import SimpleNamespace

import pytest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from leagues.table.selectors import SheetRow


def meeting_row(**changes):
    row = {
        "hand": SimpleNamespace(pk=41, payload={"kind": "solo"}),
        "number": 3,
        "round": "bock",
        "round_label": "Bock",
        "cells": [
            {"out": False, "solo": True, "delta": 6, "total": 12},
            {"out": False, "solo": False, "delta": -2, "total": -4},
            {"out": True, "solo": False, "delta": 0, "total": 5},
            {"out": False, "solo": False, "delta": 0, "total": 0},
        ],
        "game_end": ["Game over: O'Brien & Co <3"],
    }
    return {**row, **changes}


def render_meeting_row(row):
    context = {
        "row": row,
        "league": SimpleNamespace(slug="kreuz-dame"),
        "meeting": SimpleNamespace(pk=7),
        "parties": ["Anna", "Ben", "Carl", "Dora"],
    }
    return render_to_string("meetings/meeting.html#sheet_row", context)


def test_a_meeting_row_shows_its_link_letters_badge_and_each_cell():
    with translation.override("de"):
        html = render_meeting_row(meeting_row())
    why = reverse("hand_why", args=("kreuz-dame", 7, 41))
    assert why == "/l/kreuz-dame/m/7/h/41/"
    assert f'<a href="{why}" hx-get="{why}" hx-target="#why"' in html
    assert '<tr id="hand-3" class="round-bock">' in html
    assert '<abbr class="round-letter" title="Bock">B</abbr><abbr class="round-letter" title="Solo">S</abbr>' in html
    assert '<span class="badge bock">Bock</span></th>' in html
    cells = (
        '<td class="soloist"><span class="delta plus">+6</span> <span class="total">12</span></td>'
        '<td><span class="delta minus">-2</span> <span class="total">-4</span></td>'
        '<td class="out" title="setzt aus"><span class="delta">·</span><span class="total">5</span></td>'
        '<td><span class="delta">0</span> <span class="total">0</span></td>'
    )
    assert cells in html
    # Words are escaped: a name with an apostrophe, an ampersand, a "<".
    assert '<tr class="game-end"><td colspan="5">Game over: O&#x27;Brien &amp; Co &lt;3</td></tr>' in html


def test_a_plain_meeting_row_has_no_badge_and_no_game_end():
    plain = meeting_row(round="normal", round_label="", game_end=[], hand=SimpleNamespace(pk=41, payload={}))
    html = render_meeting_row(plain)
    assert '<tr id="hand-3" class="round-normal">' in html
    assert "badge" not in html and "game-end" not in html and "abbr" not in html


def render_public_row(row):
    return render_to_string("public/meeting.html#sheet_row", {"row": row, "players": ["A", "B", "C", "D"]})


def public_row(**changes):
    row = {"number": 9, "round": "ramsch", "cells": [(-3, 10, True), (0, 4, False), None, (0, 0, True)]}
    return SheetRow(**{**row, **changes})


def test_a_public_row_shows_deltas_then_totals_as_the_members_sheet_and_who_sat_out():
    html = render_public_row(public_row())
    assert '<tr id="hand-9" class="round-ramsch">' in html
    assert (
        '<td class="muted">9<abbr class="round-letter" title="Ramsch">R</abbr> <span class="badge ramsch">Ramsch</span></td>'
        in html
    )
    cells = (
        '<td><small class="minus">-3</small> <span class="total">10</span></td>'
        '<td class="out"><span class="total">4</span></td>'
        '<td class="out">·</td>'
        '<td><small class="muted">0</small> <span class="total">0</span></td>'
    )
    assert cells in html


def test_a_public_row_without_a_label_names_its_round_and_a_normal_one_none():
    assert '<span class="badge other">other</span>' in render_public_row(public_row(round="other"))
    html = render_public_row(public_row(round="normal"))
    assert "badge" not in html and 'class="round-normal"' in html
    assert '<tr id="hand-9">' in render_public_row(public_row(round=""))


@pytest.mark.parametrize(
    ("value", "language", "shown"),
    [(1234567, "de", "1234567"), (-12, "de", "-12"), (Decimal("1.5"), "de", "1,5"), (Decimal("1.5"), "en", "1.5")],
)
def test_numbers_print_as_djangos_templates_print_them(value, language, shown):
    # An int as it is (no thousands separator is set); a Decimal localized.
    with translation.override(language):
        html = render_meeting_row(meeting_row(cells=[{"out": False, "solo": False, "delta": value, "total": value}]))
    assert f'<span class="total">{shown}</span>' in html
