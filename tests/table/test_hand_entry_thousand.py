"""Hand entry for 1000: posts become thousand.md's hands, garbage becomes field errors."""

import random
import re

import pytest
from django.template.loader import render_to_string

from leagues.table.hand_entry import form_module
from leagues.table.hand_entry import thousand as form
from scoring import thousand
from tests.form_posts import post, post_from_html

PLAYERS = ["Anna", "Ben", "Carl", "Dora"]


def result_for(**extra):
    """A replay result as calculate-api.md shapes it, four at the table: Anna deals, sits out."""
    result = {
        "game": "thousand",
        "variant": "koenigsberg",
        "rules": dict(thousand.PRESETS["koenigsberg"]),
        "parties": PLAYERS,
        "hands": [],
        "totals": {p: 0 for p in PLAYERS},
        "next": {"dealer": "Anna", "active": ["Ben", "Carl", "Dora"]},
        "winner": None,
        "team_members": None,
    }
    result.update(extra)
    return result


def render_form(result, **context):
    """The form partial as the meeting page renders it: with the module's extra context."""
    return render_to_string(
        form.TEMPLATE + "#form", {"result": result, "errors": {}, **form.extra_context(result), **context}
    )


def read(data):
    return form.payload_from_post(data, players=PLAYERS, result=result_for())


def test_thousand_uses_this_module():
    assert form_module("thousand") is form


def test_it_reads_a_hand_with_marriages():
    data = post(
        declarer="Ben",
        bid="20",
        **{"points:Ben": "70", "points:Carl": " 30 ", "points:Dora": "20", "points:Anna": ""},
        **{"marriages:Ben": ["clubs", "hearts"], "marriages:Dora": ["spades"]},
    )
    payload, errors = read(data)
    assert errors == {}
    assert payload == {
        "declarer": "Ben",
        "bid": 20,
        "points": {"Ben": 70, "Carl": 30, "Dora": 20},
        "marriages": {"Ben": ["clubs", "hearts"], "Dora": ["spades"]},
    }


def test_it_reads_a_forced_declarer_who_took_every_trick():
    data = post(
        declarer="Carl", bid="0", all_tricks="1", **{"points:Ben": "0", "points:Carl": "120", "points:Dora": "0"}
    )
    payload, errors = read(data)
    assert errors == {}
    assert payload == {"declarer": "Carl", "bid": 0, "points": {"Ben": 0, "Carl": 120, "Dora": 0}, "all_tricks": True}


def test_it_reads_forgot_to_pass_without_points():
    payload, errors = read(post(declarer="Dora", bid="15", forgot_to_pass="on"))
    assert errors == {}
    assert payload == {"declarer": "Dora", "bid": 15, "forgot_to_pass": True}


def test_it_asks_for_declarer_bid_and_points():
    payload, errors = read(post())
    assert set(errors) == {"declarer", "bid", "points"}
    assert payload == {}


def test_it_rejects_numbers_it_cannot_read():
    data = post(declarer="Ben", bid="2O", **{"points:Ben": "seventy", "points:Carl": "30", "points:Dora": "4.5"})
    payload, errors = read(data)
    assert set(errors) == {"bid", "points"}
    assert "2O" in errors["bid"]
    assert "Ben" in errors["points"] and "Dora" in errors["points"]
    assert payload == {"declarer": "Ben"}


def test_garbage_never_raises():
    rng = random.Random(1000)
    junk = ["", " ", "x", "-", "-5", "1e3", "٣", "\x00", "None", "99999999999999999999", "3.5", "on"]
    names = [
        "declarer",
        "bid",
        "all_tricks",
        "forgot_to_pass",
        "points:Ben",
        "points:Carl",
        "points:Zed",
        "marriages:Ben",
    ]
    for _ in range(200):
        payload, errors = read(post(**{k: rng.choice(junk) for k in names}))
        assert isinstance(payload, dict) and all(isinstance(v, str) for v in errors.values())


@pytest.mark.parametrize(
    "payload",
    [
        {
            "declarer": "Ben",
            "bid": 20,
            "points": {"Ben": 70, "Carl": 30, "Dora": 20},
            "marriages": {"Ben": ["clubs", "hearts"], "Dora": ["spades"]},
        },
        {"declarer": "Anna", "bid": 0, "points": {"Anna": 120, "Carl": 0, "Dora": 0}, "all_tricks": True},
        {"declarer": "Dora", "bid": 15, "forgot_to_pass": True},
    ],
)
def test_a_stored_hand_comes_back_unchanged_through_the_form(payload):
    html = render_form(result_for(), initial=form.initial_from_payload(payload))
    again, errors = read(post_from_html(html))
    assert errors == {}
    assert again == payload


def test_the_form_dims_the_dealer_who_sits_out():
    html = render_form(result_for())
    assert html.count('name="points:') == 4
    anna = html[html.index('<div class="hf-player') : html.index('name="points:Anna"')]
    assert "hf-out" in anna and "sits out" in anna
    assert 'data-sum data-total="120"' in html
    assert 'step="5"' in html and "Contract = bid + 100" in html


def test_the_dealer_who_sits_out_cannot_be_tapped_as_declarer():
    # He was offered, dimmed, and the engine refused the hand only after the save.
    html = render_form(result_for())
    assert re.search(r'name="declarer" value="Anna" disabled', html)
    assert not re.search(r'name="declarer" value="Ben"[^>]*disabled', html)
    # Correcting a stored hand that named him keeps him chosen, for the engine to explain.
    html = render_form(result_for(), initial={"declarer": "Anna"})
    assert re.search(r'name="declarer" value="Anna" checked', html)


def test_the_form_shows_errors_next_to_their_field():
    errors = {"points": ["Card points must add up to 120, not 118."], "bid": ["Not a multiple of 5."]}
    html = render_form(result_for(), errors=errors)
    assert html.index("Not a multiple of 5.") < html.index("Card points and marriages")
    assert html.index("not 118") > html.index('name="points:Dora"')
    assert html.count('class="errorlist"') == 2


def test_the_next_panel_shows_dealer_sitting_out_and_the_last_winner():
    result = result_for(
        totals={"Anna": 0, "Ben": 0, "Carl": 0, "Dora": 0},
        winner="Carl",
        next={"dealer": "Ben", "active": ["Anna", "Carl", "Dora"]},
    )
    html = render_to_string(form.TEMPLATE + "#next", {"result": result})
    assert "sits out" in html and "Ben" in html
    assert "Last game won by" in html and "Carl" in html
    assert "to 1000" in html


def test_the_next_panel_with_three_players_has_nobody_sitting_out():
    result = result_for(
        parties=["Anna", "Ben", "Carl"],
        totals={"Anna": 120, "Ben": -60, "Carl": 35},
        next={"dealer": "Ben", "active": ["Anna", "Ben", "Carl"]},
    )
    html = render_to_string(form.TEMPLATE + "#next", {"result": result})
    assert "sits out" not in html and "Last game" not in html
    assert "<b>-60</b>" in html


def test_the_engine_accepts_what_the_form_posts():
    pytest.importorskip("scoring.thousand")
    from scoring.sitting import calculate

    hands = [
        {"declarer": "Ben", "bid": 20, "points": {"Ben": 70, "Carl": 30, "Dora": 20}, "marriages": {"Ben": ["clubs"]}},
        {"declarer": "Carl", "bid": 0, "points": {"Anna": 30, "Carl": 60, "Dora": 30}},
        {"declarer": "Dora", "bid": 15, "forgot_to_pass": True},
    ]
    response = calculate({"game": "thousand", "players": PLAYERS, "hands": hands})
    assert [h["made"] for h in response["hands"]] == [True, False, False]


def test_the_next_panel_says_when_the_last_hand_ended_the_game():
    result = result_for(
        hands=[{"number": 1}],
        totals={"Anna": 0, "Ben": 1010, "Carl": 300, "Dora": 220},
        games=[{"winner": "Ben", "hand": 1}],
        winner="Ben",
    )
    html = render_to_string(form.TEMPLATE + "#next", {"result": result})
    assert "Game over" in html and "hn-won" in html


def test_the_card_point_sum_and_the_bids_come_from_the_engine():
    html = render_form(result_for())
    assert f'data-total="{thousand.CARD_POINTS}"' in html
    assert f"{thousand.CARD_POINTS} together" in html
    low, high = thousand.bid_range(result_for()["rules"])
    assert f'min="{low}" max="{high}" step="5"' in html and 'placeholder="0, 5, 10 …"' in html
    pagat = result_for(rules=dict(thousand.PRESETS["pagat"]))
    html = render_form(pagat)
    assert 'min="100"' in html and "After any raise: 100, then steps of 5." in html


def test_a_league_with_bid_step_10_offers_steps_of_10(client, db):
    from leagues.models import Role
    from tests.factories import LeagueFactory, meeting_for, member

    league = LeagueFactory(game="thousand", variant="koenigsberg", rule_overrides={"bid_step": 10})
    meeting = meeting_for(league, ["Anna", "Ben", "Carl"])
    client.force_login(member(league, Role.SCOREKEEPER))
    html = client.get(meeting.get_absolute_url()).content.decode()
    assert 'step="10"' in html and "−10" in html and "+10" in html and "steps of 10" in html
    assert 'placeholder="0, 10, 20 …"' in html and 'step="5"' not in html


def test_the_marriage_suits_are_the_engines():
    html = render_form(result_for())
    for player in PLAYERS:
        offered = re.findall(rf'name="marriages:{player}" value="([^"]*)"', html)
        assert tuple(offered) == thousand.SUITS
    assert [chip["value"] for chip in form.extra_context(result_for())["suits"]] == list(thousand.SUITS)


def test_the_why_dialog_names_a_polish_penalty():
    # pagat, barrel_turns 3: Anna (880) falls back 120 at her third hand on the barrel; the why
    # dialog says so beside her points (-120 although she took 20 card points).
    from leagues.table.hand_entry.thousand import breakdown
    from scoring.sitting import calculate

    hands = [
        {"declarer": "Ben", "bid": 100, "points": {"Anna": 20, "Ben": 70, "Carl": 30}},
        {"declarer": "Carl", "bid": 100, "points": {"Anna": 20, "Ben": 30, "Carl": 70}},
        {"declarer": "Ben", "bid": 100, "points": {"Anna": 20, "Ben": 70, "Carl": 30}},
    ]
    result = calculate(
        {
            "game": "thousand",
            "variant": "pagat",
            "rules": {"barrel_turns": 3},
            "players": ["Anna", "Ben", "Carl"],
            "start_totals": {"Anna": 880},
            "hands": hands,
        }
    )
    why = breakdown(result["hands"][2], hands[2], result)
    assert ("Fell off the barrel", "Anna -120") in why["facts"]
    assert dict(why["rows"])["Anna"] == [20, "–", -120]
    assert not any(
        label == "Fell off the barrel" for label, _v in breakdown(result["hands"][1], hands[1], result)["facts"]
    )
