"""The sheet's rows, rendered by Jinja2 (templates/jinja2/, kartenliga/jinja2.py, issue 12):
what each row shows, written out by hand, escaping and numbers as Django's templates gave them."""

from decimal import Decimal

import pytest
from django.template.loader import get_template
from django.urls import reverse
from django.utils import translation

from kartenliga.jinja2 import number


def render(name, row):
    return get_template(name, using="jinja2").render({"r": row})


def meeting_row(**changes):
    row = {
        "slug": "kreuz-dame",
        "meeting": 7,
        "hand": 41,
        "number": 3,
        "round": "bock",
        "round_label": "Bock",
        "letters": [("B", "Bock"), ("S", "Solo")],
        "cells": [
            {"out": False, "solo": True, "delta": 6, "total": 12},
            {"out": False, "solo": False, "delta": -2, "total": -4},
            {"out": True, "solo": False, "delta": 0, "total": 5},
            {"out": False, "solo": False, "delta": 0, "total": 0},
        ],
        "game_end": ["Game over: O'Brien & Co <3"],
        "colspan": 5,
        "sat_out": "setzt aus",
    }
    return {**row, **changes}


def test_a_meeting_row_shows_its_link_letters_badge_and_each_cell():
    html = render("meetings/sheet_row.html", meeting_row())
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
    assert '<tr class="game-end"><td colspan="5">Game over: O&#39;Brien &amp; Co &lt;3</td></tr>' in html


def test_a_plain_meeting_row_has_no_badge_and_no_game_end():
    html = render("meetings/sheet_row.html", meeting_row(round="normal", round_label="", letters=[], game_end=[]))
    assert '<tr id="hand-3" class="round-normal">' in html
    assert "badge" not in html and "game-end" not in html and "abbr" not in html


def public_row(**changes):
    row = {
        "number": 9,
        "round": "ramsch",
        "round_label": "Ramsch",
        "letters": [("R", "Ramsch")],
        "cells": [(-3, 10, True), (0, 4, False), None, (0, 0, True)],
        "game_end": [],
        "colspan": 5,
    }
    return {**row, **changes}


def test_a_public_row_shows_deltas_then_totals_as_the_members_sheet_and_who_sat_out():
    html = render("public/sheet_row.html", public_row())
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
    assert '<span class="badge bock">bock</span>' in render(
        "public/sheet_row.html", public_row(round="bock", round_label="")
    )
    html = render("public/sheet_row.html", public_row(round="normal", round_label=""))
    assert "badge" not in html and 'class="round-normal"' in html
    assert '<tr id="hand-9">' in render("public/sheet_row.html", public_row(round="", round_label="", letters=[]))


@pytest.mark.parametrize(
    ("value", "language", "shown"),
    [(1234567, "de", "1234567"), (-12, "de", "-12"), (Decimal("1.5"), "de", "1,5"), (Decimal("1.5"), "en", "1.5")],
)
def test_numbers_print_as_djangos_templates_print_them(value, language, shown):
    # An int as it is (no thousands separator is set); a Decimal localized.
    with translation.override(language):
        assert number(value) == shown
        html = render(
            "meetings/sheet_row.html",
            meeting_row(cells=[{"out": False, "solo": False, "delta": value, "total": value}]),
        )
    assert f'<span class="total">{shown}</span>' in html
