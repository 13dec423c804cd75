"""The race games' hand forms: ``ThousandHandForm``, ``FiftySixHandForm`` and
``MawHandForm``, each a ``HandForm``. A stored hand goes through ``from_payload``, the game's
template and ``to_payload`` unchanged; what cannot be read is named by the hand's field (in
the players' words, German too) and left out of the payload."""

import pytest
from django.template.loader import render_to_string
from django.utils import translation
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from leagues.table.hand_entry import fifty_six, maw, thousand
from leagues.table.hand_entry.base import HandForm
from scoring import thousand as thousand_engine
from tests.form_posts import post, post_from_html
from tests.table import test_hand_entry_fifty_six as ff_entry
from tests.table import test_hand_entry_maw as maw_entry
from tests.table import test_hand_entry_thousand as th_entry

FORMS = [
    (thousand, thousand.ThousandHandForm, th_entry.PLAYERS, th_entry.result_for),
    (fifty_six, fifty_six.FiftySixHandForm, ff_entry.PLAYERS, ff_entry.result_for),
    (maw, maw.MawHandForm, maw_entry.PLAYERS, lambda: maw_entry.result_for("one_ten")),
]


def through_the_page(module, form_class, players, result, payload):
    """``payload`` shown for correction (``from_payload``, the game's template), posted back
    as a browser would and read by the form: ``(form, payload read)``."""
    html = render_to_string(
        module.TEMPLATE + "#form",
        {"result": result, "initial": form_class.from_payload(payload), "errors": {}, **module.extra_context(result)},
    )
    form = form_class(post_from_html(html), players=players, result=result)
    assert form.is_valid(), form.hand_errors()
    return form, form.to_payload()


@pytest.mark.parametrize(("module", "form_class", "players", "result_for"), FORMS)
def test_each_race_game_entry_is_a_hand_form_the_module_contract_uses(module, form_class, players, result_for):
    assert issubclass(form_class, HandForm)
    assert module.payload_from_post.__func__ is form_class.payload_from_post.__func__
    assert module.initial_from_payload.__func__ is form_class.from_payload.__func__


# --- to_payload and from_payload: a stored hand comes back unchanged ----------------------------

ACTIVE = ["Ben", "Carl", "Dora"]  # Anna deals and sits out (th_entry.result_for)


@st.composite
def thousand_hands(draw):
    hand = {"declarer": draw(st.sampled_from(ACTIVE)), "bid": draw(st.integers(0, 60)) * 5}
    if draw(st.booleans()):
        hand["forgot_to_pass"] = True
    else:
        hand["points"] = {name: draw(st.integers(0, 240)) for name in ACTIVE}
        if draw(st.booleans()):
            hand["all_tricks"] = True
    marriages = {}
    for name in ACTIVE:
        # In the engine's order: the template offers the suits so, and posts them so.
        suits = [suit for suit in thousand_engine.SUITS if draw(st.booleans())]
        if suits:
            marriages[name] = suits
    if marriages:
        hand["marriages"] = marriages
    return hand


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(thousand_hands())
def test_a_thousand_hand_goes_through_the_form_unchanged(payload):
    result = th_entry.result_for()
    form, again = through_the_page(thousand, thousand.ThousandHandForm, th_entry.PLAYERS, result, payload)
    assert again == payload
    assert thousand.ThousandHandForm.from_payload(again) == thousand.ThousandHandForm.from_payload(payload)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    bidder=st.sampled_from(maw_entry.PLAYERS),
    bid=st.sampled_from([15, 20, 25, 30]),
    tricks=st.lists(st.sampled_from(maw_entry.PLAYERS), min_size=1, max_size=5),
    top=st.one_of(st.none(), st.integers(1, 5)),
)
def test_a_one_ten_hand_goes_through_the_form_unchanged(bidder, bid, tricks, top):
    payload = {"bidder": bidder, "bid": bid, "tricks": tricks, "top_trump_trick": top}
    result = maw_entry.result_for("one_ten")
    _form, again = through_the_page(maw, maw.MawHandForm, maw_entry.PLAYERS, result, payload)
    assert again == payload


@pytest.mark.parametrize(
    "payload",
    [
        {"bidder": "Dora", "bid": 40, "trump": "hearts", "double": 2, "bidder_team_points": 41},
        {"bidder": "Anna", "bid": 28, "trump": "no_trump", "double": 0, "bidder_team_points": 0},
    ],
)
def test_a_fifty_six_hand_goes_through_the_form_unchanged(payload):
    result = ff_entry.result_for()
    _form, again = through_the_page(fifty_six, fifty_six.FiftySixHandForm, ff_entry.PLAYERS, result, payload)
    assert again == payload


def test_an_auction_hand_with_other_bids_goes_through_the_form_unchanged():
    result = maw_entry.result_for("auction_45", teams=True)
    result["rules"]["bid_unfreezes"] = 20
    payload = {
        "maker": "Us",
        "bid": 20,
        "other_bids": {"Them": 25},
        "tricks": ["Us", "Them", "Us", "Us", "Us"],
        "top_trump_trick": 1,
    }
    _form, again = through_the_page(maw, maw.MawHandForm, maw_entry.PLAYERS, result, payload)
    assert again == payload


# --- what cannot be read: named by the hand's field, left out of the payload --------------------


def test_thousand_names_the_unreadable_bid_and_every_unreadable_player():
    data = post(declarer="Ben", bid="1x0", **{"points:Ben": "70", "points:Carl": "3O", "points:Dora": "¼"})
    form = thousand.ThousandHandForm(data, players=th_entry.PLAYERS, result=th_entry.result_for())
    assert not form.is_valid()
    errors = form.hand_errors()
    assert set(errors) == {"bid", "points"}
    assert "“1x0”" in errors["bid"] and "bid" in errors["bid"]
    assert "Carl, Dora" in errors["points"] and "Ben" not in errors["points"]
    assert form.to_payload() == {"declarer": "Ben"}


def test_fifty_six_names_each_unreadable_number_by_its_field():
    data = post(bidder="Anna", bid="thirty", trump="clubs", double="twice", bidder_team_points="3 0")
    form = fifty_six.FiftySixHandForm(data, players=ff_entry.PLAYERS, result=ff_entry.result_for())
    assert not form.is_valid()
    errors = form.hand_errors()
    assert set(errors) == {"bid", "double", "bidder_team_points"}
    assert "“thirty”" in errors["bid"] and "“3 0”" in errors["bidder_team_points"]
    assert "card points" in errors["bidder_team_points"]
    assert form.to_payload() == {"bidder": "Anna", "trump": "clubs"}


def test_maw_names_an_unreadable_top_trump_trick_and_a_gap_in_the_tricks():
    data = post(bidder="Ben", bid="20", trick_1="Ben", trick_3="Carl", top_trump_trick="first")
    form = maw.MawHandForm(data, players=maw_entry.PLAYERS, result=maw_entry.result_for("one_ten"))
    assert not form.is_valid()
    errors = form.hand_errors()
    assert set(errors) == {"top_trump_trick", "tricks"}
    assert "“first”" in errors["top_trump_trick"] and "trick number" in errors["top_trump_trick"]
    assert "Trick 2 has no winner" in errors["tricks"]
    assert form.to_payload() == {"bidder": "Ben", "bid": 20}


def test_maw_names_an_unreadable_other_bid_by_the_hands_field():
    result = maw_entry.result_for("auction_45", teams=True)
    data = post(maker="Us", bid="20", **{"other_bids:Them": "lots"}, **maw_entry.tricks(*["Us"] * 5))
    form = maw.MawHandForm(data, players=maw_entry.PLAYERS, result=result)
    errors = form.hand_errors()
    assert set(errors) == {"other_bids"} and "“lots”" in errors["other_bids"]
    assert "other_bids" not in form.to_payload()


def test_the_messages_are_german_on_a_german_page():
    data = post(bidder="Ben", bid="x", **maw_entry.tricks("Ben"), top_trump_trick="y")
    with translation.override("de"):
        form = maw.MawHandForm(data, players=maw_entry.PLAYERS, result=maw_entry.result_for("one_ten"))
        errors = form.hand_errors()
    assert errors["bid"] == "„x“ ist keine ganze Zahl: gib das Gebot in Ziffern ein."
    assert errors["top_trump_trick"] == "„y“ ist keine ganze Zahl: gib die Stichnummer in Ziffern ein."


@pytest.mark.parametrize("game", ["twenty_five", "forty_five", "one_ten", "auction_45", "spoil_five"])
def test_a_maw_form_has_only_its_games_fields(game):
    form = maw.MawHandForm(players=maw_entry.PLAYERS, result=maw_entry.result_for(game))
    fields = {name.split(":")[0] for name in form.fields if not name.startswith("trick_")}
    assert fields == set(maw_entry.get_game(game).hand_fields) - {"tricks"}
