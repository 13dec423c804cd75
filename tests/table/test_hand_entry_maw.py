"""Hand entry for the Maw family: posts become maw.md's hands, garbage becomes field errors."""

import random

import pytest
from django.template.loader import render_to_string

from leagues.table.hand_entry import form_module
from leagues.table.hand_entry import maw as form
from scoring import maw
from scoring.registry import get_game
from tests.form_posts import post, post_from_html

PLAYERS = ["Anna", "Ben", "Carl", "Dora"]
TEAMS = {"Us": ["Anna", "Carl"], "Them": ["Ben", "Dora"]}


def result_for(game, *, teams=False, **extra):
    """A replay result as calculate-api.md shapes it (no hands yet), for the form to read."""
    parties = list(TEAMS) if teams else PLAYERS
    result = {
        "game": game,
        "variant": "x",
        "rules": {"target": 45, "top_trump_bonus": 5, "match_games": 3},
        "parties": parties,
        "hands": [],
        "totals": {p: 0 for p in parties},
        "next": {"dealer": "Anna", "active": PLAYERS},
        "team_members": TEAMS if teams else None,
    }
    if game in ("one_ten", "auction_45"):
        spec = get_game(game)
        result["rules"] = {**spec.presets[spec.default_preset], **result["rules"]}
        result["rules"]["min_bid"] = 15 if game == "one_ten" else 5
    if game == "spoil_five":
        result["rules"] = {"stake": 2}
        result["pot"] = 10
    else:
        result.update(games=[], games_won={p: 0 for p in parties}, match_winner=None)
    result.update(extra)
    return result


def read(game, data, **kwargs):
    return form.payload_from_post(data, players=PLAYERS, result=result_for(game, **kwargs))


def tricks(*winners):
    return {f"trick_{n}": w for n, w in enumerate(winners, start=1)}


@pytest.mark.parametrize("game", ["twenty_five", "forty_five", "one_ten", "auction_45", "spoil_five"])
def test_every_maw_game_uses_this_module(game):
    assert form_module(game) is form


def test_it_reads_a_forty_five_hand():
    payload, errors = read("forty_five", post(**tricks("Anna", "Ben", "Anna", "Carl", "Anna"), top_trump_trick="3"))
    assert errors == {}
    assert payload == {"tricks": ["Anna", "Ben", "Anna", "Carl", "Anna"], "top_trump_trick": 3}


def test_it_reads_no_trump_played_as_null():
    payload, errors = read("forty_five", post(**tricks("Anna", "Ben", "Anna", "Carl", "Anna"), top_trump_trick="none"))
    assert errors == {}
    assert payload["top_trump_trick"] is None


def test_it_omits_the_top_trump_when_not_tapped():
    payload, errors = read("twenty_five", post(**tricks("Us", "Us", "Them", "Us", "Us")), teams=True)
    assert errors == {}
    assert payload == {"tricks": ["Us", "Us", "Them", "Us", "Us"]}


def test_it_reads_a_game_that_ended_mid_hand():
    payload, errors = read("forty_five", post(**tricks("Anna", "Anna", "Anna"), top_trump_trick="1"))
    assert errors == {}
    assert payload == {"tricks": ["Anna", "Anna", "Anna"], "top_trump_trick": 1}


def test_it_reads_a_one_ten_hand():
    data = post(bidder="Ben", bid="20", **tricks("Ben", "Ben", "Anna", "Ben", "Carl"), top_trump_trick="2")
    payload, errors = read("one_ten", data)
    assert errors == {}
    assert payload == {
        "bidder": "Ben",
        "bid": 20,
        "tricks": ["Ben", "Ben", "Anna", "Ben", "Carl"],
        "top_trump_trick": 2,
    }


def test_it_reads_an_auction_hand_with_a_call_and_bagged():
    data = post(maker="Them", bid="30", call="30_for_60", bagged="1", **tricks(*["Them"] * 5), top_trump_trick="4")
    payload, errors = read("auction_45", data, teams=True)
    assert errors == {}
    assert payload == {
        "maker": "Them",
        "bid": 30,
        "call": "30_for_60",
        "bagged": True,
        "tricks": ["Them"] * 5,
        "top_trump_trick": 4,
    }


def test_it_omits_an_empty_call_and_an_unticked_bagged():
    data = post(maker="Anna", bid="15", call="", **tricks("Anna", "Ben", "Anna", "Carl", "Anna"), top_trump_trick="1")
    payload, errors = read("auction_45", data)
    assert errors == {}
    assert "call" not in payload and "bagged" not in payload


def test_it_reads_a_spoil_five_jink():
    payload, errors = read("spoil_five", post(**tricks(*["Dora"] * 5), jink="1"))
    assert errors == {}
    assert payload == {"tricks": ["Dora"] * 5, "jink": True}


def test_it_reads_a_spoil_five_hand_without_jink():
    payload, errors = read("spoil_five", post(**tricks("Dora", "Ben", "Dora", "Dora")))
    assert errors == {}
    assert payload == {"tricks": ["Dora", "Ben", "Dora", "Dora"]}


def test_it_rejects_a_gap_in_the_tricks():
    payload, errors = read("forty_five", post(trick_1="Anna", trick_3="Ben", top_trump_trick="1"))
    assert "tricks" not in payload
    assert "2" in errors["tricks"]


def test_it_asks_for_the_tricks_when_none_were_tapped():
    payload, errors = read("spoil_five", post())
    assert set(errors) == {"tricks"}


def test_it_rejects_a_bid_that_is_not_a_number():
    data = post(bidder="Ben", bid="twenty", **tricks("Ben"), top_trump_trick="x")
    payload, errors = read("one_ten", data)
    assert set(errors) == {"bid", "top_trump_trick"}
    assert "twenty" in errors["bid"]
    assert "bid" not in payload and "top_trump_trick" not in payload


def test_it_asks_for_the_bidder_and_the_bid():
    payload, errors = read("one_ten", post(**tricks("Ben")))
    assert set(errors) == {"bidder", "bid"}
    payload, errors = read("auction_45", post(**tricks("Ben")))
    assert set(errors) == {"maker", "bid"}


@pytest.mark.parametrize("game", ["twenty_five", "forty_five", "one_ten", "auction_45", "spoil_five"])
def test_garbage_never_raises(game):
    rng = random.Random(5)
    junk = ["", " ", "x", "-", "1e3", "٣", "\x00", "None", "99999999999999999999", "3.5"]
    for _ in range(200):
        data = post(
            **{
                k: rng.choice(junk)
                for k in [
                    "bidder",
                    "maker",
                    "bid",
                    "call",
                    "bagged",
                    "jink",
                    "top_trump_trick",
                    "trick_1",
                    "trick_2",
                    "trick_4",
                ]
            }
        )
        payload, errors = read(game, data)
        assert isinstance(payload, dict) and isinstance(errors, dict)
        assert all(isinstance(v, str) for v in errors.values())


@pytest.mark.parametrize(
    "payload",
    [
        {"tricks": ["Anna", "Ben", "Anna", "Carl", "Anna"], "top_trump_trick": 3},
        {"tricks": ["Anna", "Ben"], "top_trump_trick": None},
        {"bidder": "Ben", "bid": 30, "tricks": ["Ben"] * 5, "top_trump_trick": 5},
        {
            "maker": "Anna",
            "bid": 30,
            "call": "60_for_120",
            "bagged": True,
            "tricks": ["Anna"] * 5,
            "top_trump_trick": 1,
        },
        {"tricks": ["Dora"] * 5, "jink": True},
        {"tricks": ["Dora", "Ben", "Dora", "Dora"]},
    ],
)
def test_a_stored_hand_comes_back_unchanged_through_the_form(payload):
    game = (
        "auction_45"
        if "maker" in payload
        else "one_ten"
        if "bidder" in payload
        else ("spoil_five" if "top_trump_trick" not in payload else "forty_five")
    )
    html = render_to_string(
        form.TEMPLATE + "#form",
        {"result": result_for(game), "initial": form.initial_from_payload(payload), "errors": {}, **extra(game)},
    )
    assert payload_from_html(html, game) == payload


def extra(game, **kwargs):
    return form.extra_context(result_for(game, **kwargs))


def render_form(result, **context):
    """The form partial as the meeting page renders it: with the module's extra context."""
    return render_to_string(
        form.TEMPLATE + "#form", {"result": result, "errors": {}, **form.extra_context(result), **context}
    )


def payload_from_html(html, game):
    """What a browser would post for the form as rendered (checked boxes and filled values)."""
    data = post_from_html(html)
    payload, errors = form.payload_from_post(data, players=PLAYERS, result=result_for(game))
    assert errors == {}
    return payload


def test_the_form_shows_what_each_game_needs():
    html = render_form(result_for("auction_45", rules={**result_for("auction_45")["rules"], "30_for_60": [60, -60]}))
    for name in [
        'name="maker"',
        'name="bid" value="5"',
        'value="30_for_60"',
        'name="bagged"',
        'name="trick_5"',
        'name="top_trump_trick" value="none"',
    ]:
        assert name in html
    html = render_form(result_for("spoil_five"))
    assert 'name="jink"' in html and "top_trump_trick" not in html and 'name="bid"' not in html
    html = render_form(result_for("one_ten"))
    assert 'name="bidder" value="Dora"' in html and 'name="bid" value="5"' not in html
    assert 'name="bid" value="15"' in html and 'name="bid" value="30"' in html


def test_the_bids_offered_follow_the_rules_in_force_not_the_preset(client, db):
    from leagues.models import Role
    from tests.factories import LeagueFactory, meeting_for, member

    assert "bids" not in extra("spoil_five")
    assert extra("auction_45")["bids"] == ["5", "10", "15", "20", "25", "30"]
    # Everyone at 100 (lowest bid 20 for them), but a bagged dealer still bids min_bid (5).
    assert extra("auction_45", next={"min_bid": {"Anna": 20, "Ben": 20}})["bids"][0] == "5"
    league = LeagueFactory(game="one_ten", variant="standard", rule_overrides={"min_bid": 10})
    meeting = meeting_for(league, ["Anna", "Ben", "Carl"])
    client.force_login(member(league, Role.SCOREKEEPER))
    html = client.get(meeting.get_absolute_url()).content.decode()
    assert 'name="bid" value="10"' in html and 'name="bid" value="5"' not in html


def test_the_form_shows_errors_next_to_their_field():
    errors = {"tricks": ["Trick 2 has no winner."], "top_trump_trick": ["Pick the trick."]}
    html = render_form(result_for("forty_five"), errors=errors)
    assert html.count('class="errorlist"') == 2
    assert html.index("Trick 2 has no winner.") < html.index('name="top_trump_trick"')
    assert "field-error" in html


def test_the_form_offers_teams_as_parties():
    html = render_form(result_for("forty_five", teams=True))
    assert 'name="trick_1" value="Us"' in html and 'value="Anna"' not in html
    assert "Anna, Carl" in html  # who plays in which team


def test_the_next_panel_shows_the_race():
    result = result_for(
        "forty_five",
        totals={"Anna": 30, "Ben": 15, "Carl": 0, "Dora": 5},
        games=[{"winner": "Ben", "hand": 4, "trick": 3, "games": 1}],
        games_won={"Anna": 0, "Ben": 1, "Carl": 0, "Dora": 0},
        next={"dealer": "Carl", "active": PLAYERS},
    )
    html = render_to_string(form.TEMPLATE + "#next", {"result": result})
    assert "Carl" in html and "<b>30</b>" in html and "to 45" in html
    assert "Last game, hand 4" in html and "/3" in html


def test_the_next_panel_names_the_match_winner():
    html = render_to_string(form.TEMPLATE + "#next", {"result": result_for("forty_five", match_winner="Dora")})
    assert "Match won by" in html and "Dora" in html


def test_the_next_panel_shows_the_spoil_five_pot():
    html = render_to_string(form.TEMPLATE + "#next", {"result": result_for("spoil_five", pot=13)})
    assert "13 chips" in html and "Game in progress" not in html


@pytest.mark.parametrize("game", ["twenty_five", "forty_five", "one_ten", "auction_45", "spoil_five"])
def test_the_engine_accepts_what_the_form_posts(game):
    pytest.importorskip("scoring.maw")
    from scoring.sitting import calculate

    hands = {
        "twenty_five": [{"tricks": ["Anna", "Ben", "Anna", "Carl", "Anna"]}],
        "forty_five": [
            {"tricks": ["Anna", "Ben", "Anna", "Carl", "Anna"], "top_trump_trick": 3},
            {"tricks": ["Ben"] * 5, "top_trump_trick": None},
        ],
        "one_ten": [
            {"bidder": "Ben", "bid": 20, "tricks": ["Ben", "Ben", "Anna", "Ben", "Carl"], "top_trump_trick": 2}
        ],
        "auction_45": [
            {"maker": "Anna", "bid": 15, "tricks": ["Anna", "Anna", "Ben", "Anna", "Carl"], "top_trump_trick": 1}
        ],
        "spoil_five": [{"tricks": ["Dora"] * 5, "jink": True}, {"tricks": ["Ben", "Ben", "Anna", "Ben"]}],
    }[game]
    response = calculate({"game": game, "players": PLAYERS, "hands": hands})
    assert len(response["hands"]) == len(hands)


def test_it_reads_other_bids_where_a_bid_unfreezes():
    result = result_for("auction_45", teams=True)
    result["rules"]["bid_unfreezes"] = 20
    data = post(
        maker="Us",
        bid="20",
        **{"other_bids:Them": "25", "other_bids:Us": ""},
        **tricks(*["Us"] * 5),
        top_trump_trick="1",
    )
    payload, errors = form.payload_from_post(data, players=PLAYERS, result=result)
    assert errors == {}
    assert payload["other_bids"] == {"Them": 25}
    html = render_form(result, initial=form.initial_from_payload(payload))
    assert 'name="other_bids:Them"' in html and 'value="25"' in html
    payload, errors = form.payload_from_post(post(**{"other_bids:Them": "lots"}), players=PLAYERS, result=result)
    assert "other_bids" in errors and "other_bids" not in payload


def test_it_asks_no_other_bids_by_default():
    html = render_form(result_for("auction_45"))
    assert "other_bids" not in html


def test_the_next_panel_says_when_the_last_hand_ended_the_game():
    result = result_for(
        "forty_five",
        hands=[{"number": 1}, {"number": 2}],
        totals={"Anna": 20, "Ben": 35, "Carl": 0, "Dora": 5},
        games=[{"winner": "Ben", "hand": 2, "trick": 5, "games": 1}],
    )
    html = render_to_string(form.TEMPLATE + "#next", {"result": result})
    assert "Game over" in html and "starts a new game at 0" in html and 'class="hn-won"' in html
    result["hands"].append({"number": 3})
    html = render_to_string(form.TEMPLATE + "#next", {"result": result})
    assert "Game in progress, to 45" in html and "hn-won" not in html


def test_the_bids_offered_are_the_engines_bids_under_the_rules():
    result = result_for("one_ten")
    assert extra("one_ten")["bids"] == [str(bid) for bid in maw.bids(result["rules"])] == ["15", "20", "25", "30"]
    result["rules"]["min_bid"] = 10
    html = render_form(result)
    assert 'name="bid" value="10"' in html and 'name="bid" value="5"' not in html
    # Every bid the engine accepts, and no other, is a chip.
    for bid in maw.BIDS:
        assert (f'name="bid" value="{bid}"' in html) == (bid >= 10)


def test_the_top_bid_help_comes_from_the_engine():
    html = render_form(result_for("one_ten"))
    made, failed = maw.top_bid_scores("one_ten", result_for("one_ten")["rules"])
    assert f"A bid of {maw.TOP_BID} needs all five tricks: made {made}, failed {failed}." in html
    result = result_for("auction_45")
    result["rules"]["bid_30"] = [30, -30]
    assert "made 30, failed -30" in render_form(result)
    assert "A bid of" not in render_form(result_for("forty_five"))


def test_only_the_calls_the_rules_play_are_offered():
    result = result_for("auction_45")
    result["rules"].update({"30_for_60": None, "60_for_120": None})
    html = render_form(result)
    assert 'name="call"' not in html and 'name="bagged"' in html
    result["rules"]["30_for_60"] = [60, -60]
    html = render_form(result)
    assert 'name="call" value="30_for_60"' in html and "60_for_120" not in html


@pytest.mark.parametrize("game", ["twenty_five", "forty_five", "one_ten", "auction_45", "spoil_five"])
def test_the_form_asks_for_the_games_hand_fields_and_no_others(game):
    import re

    result = result_for(game)
    if game == "auction_45":
        result["rules"].update({"bid_unfreezes": 20, "30_for_60": [60, -60]})
    html = render_form(result)
    names = {re.sub(r"^trick_\d$", "tricks", n.split(":")[0]) for n in re.findall(r'<input[^>]*name="([^"]+)"', html)}
    assert names == set(get_game(game).hand_fields)
    assert html.count('class="hf-trick"') == maw.TRICKS
