"""Hand entry for 56: posts become fifty-six.md's hands, garbage becomes field errors."""

import random
import re

import pytest
from django.http import QueryDict
from django.template.loader import render_to_string

from leagues.table.hand_entry import fifty_six as form
from leagues.table.hand_entry import form_module
from tests.form_posts import post, post_from_html

PLAYERS = ["Anna", "Ben", "Carl", "Dora", "Emil", "Finn"]
TEAMS = {"A": ("Anna", "Carl", "Emil"), "B": ("Ben", "Dora", "Finn")}


def result_for(**extra):
    result = {
        "game": "fifty_six",
        "variant": "seed",
        "rules": {"double": 2, "redouble": 4, "tables": None},
        "parties": list(TEAMS),
        "hands": [],
        "totals": {"A": 0, "B": 0},
        "next": {"dealer": "Anna", "active": PLAYERS},
        "winner": None,
        "team_members": TEAMS,
    }
    result.update(extra)
    return result


def read(data):
    return form.payload_from_post(data, players=PLAYERS, result=result_for())


def test_fifty_six_uses_this_module():
    assert form_module("fifty_six") is form


def test_it_reads_a_redoubled_hand():
    payload, errors = read(post(bidder="Dora", bid="40", trump="hearts", double="2", bidder_team_points="41"))
    assert errors == {}
    assert payload == {"bidder": "Dora", "bid": 40, "trump": "hearts", "double": 2, "bidder_team_points": 41}


def test_an_untouched_double_means_none():
    payload, errors = read(post(bidder="Anna", bid="28", trump="no_trump", bidder_team_points="0"))
    assert errors == {}
    assert payload == {"bidder": "Anna", "bid": 28, "trump": "no_trump", "double": 0, "bidder_team_points": 0}


def test_it_asks_for_every_missing_field():
    payload, errors = read(post())
    assert set(errors) == {"bidder", "bid", "trump", "bidder_team_points"}
    assert payload == {"double": 0}


def test_it_rejects_numbers_it_cannot_read():
    payload, errors = read(post(bidder="Ben", bid="forty", trump="clubs", double="twice", bidder_team_points="3x"))
    assert set(errors) == {"bid", "double", "bidder_team_points"}
    assert "forty" in errors["bid"]
    assert payload == {"bidder": "Ben", "trump": "clubs"}


def test_garbage_never_raises():
    rng = random.Random(56)
    junk = ["", " ", "x", "-", "-5", "1e3", "٣", "\x00", "None", "99999999999999999999", "3.5"]
    for _ in range(200):
        data = post(**{k: rng.choice(junk) for k in ["bidder", "bid", "trump", "double", "bidder_team_points"]})
        payload, errors = read(data)
        assert isinstance(payload, dict) and all(isinstance(v, str) for v in errors.values())


@pytest.mark.parametrize(
    "payload",
    [
        {"bidder": "Dora", "bid": 40, "trump": "hearts", "double": 2, "bidder_team_points": 41},
        {"bidder": "Emil", "bid": 56, "trump": "no_trump", "double": 0, "bidder_team_points": 0},
    ],
)
def test_a_stored_hand_comes_back_unchanged_through_the_form(payload):
    html = render_to_string(
        form.TEMPLATE + "#form",
        {
            "result": result_for(),
            "initial": form.initial_from_payload(payload),
            "errors": {},
            **form.extra_context(result_for()),
        },
    )
    assert read(post_from_html(html)) == (payload, {})


def test_the_form_groups_bidders_by_team_and_shows_errors():
    html = render_to_string(
        form.TEMPLATE + "#form",
        {
            "result": result_for(),
            "errors": {"bid": ["A bid must be between 28 and 56."]},
            **form.extra_context(result_for()),
        },
    )
    assert html.index('value="Emil"') < html.index('value="Ben"')  # team A first
    assert 'name="double" value="0" checked' in html
    assert html.index("between 28 and 56") < html.index('name="trump"')


def test_the_next_panel_shows_dealer_scores_and_winner():
    html = render_to_string(
        form.TEMPLATE + "#next",
        {"result": result_for(totals={"A": 3, "B": 7}, winner="B", next={"dealer": "Finn", "active": PLAYERS})},
    )
    assert "Finn" in html and "<b>7</b>" in html and "Team B" in html and "Ben, Dora, Finn" in html


def test_the_engine_accepts_what_the_form_posts():
    pytest.importorskip("scoring.fifty_six")
    from scoring.sitting import calculate

    hands = [
        {"bidder": "Dora", "bid": 40, "trump": "hearts", "double": 2, "bidder_team_points": 41},
        {"bidder": "Anna", "bid": 28, "trump": "no_trump", "double": 0, "bidder_team_points": 10},
    ]
    response = calculate({"game": "fifty_six", "players": PLAYERS, "hands": hands})
    assert [h["winner_team"] for h in response["hands"]] == ["B", "B"]


def test_the_bid_range_and_card_points_come_from_the_engine():
    from scoring import fifty_six

    html = render_to_string(
        form.TEMPLATE + "#form", {"result": result_for(), "errors": {}, **form.extra_context(result_for())}
    )
    assert f'min="{fifty_six.MIN_BID}" max="{fifty_six.MAX_BID}"' in html
    assert f'max="{fifty_six.CARD_POINTS}"' in html and f"Out of {fifty_six.CARD_POINTS}:" in html
    _payload, errors = form.payload_from_post(QueryDict(), players=PLAYERS, result=result_for())
    assert errors["bid"] == f"Enter the bid ({fifty_six.MIN_BID} to {fifty_six.MAX_BID})."


def test_the_trumps_are_the_engines():
    from scoring import fifty_six

    html = render_to_string(
        form.TEMPLATE + "#form", {"result": result_for(), "errors": {}, **form.extra_context(result_for())}
    )
    assert tuple(re.findall(r'name="trump" value="([^"]*)"', html)) == fifty_six.TRUMPS
    assert "♥" in html and "No trump" in html
