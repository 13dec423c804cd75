"""The Doppelkopf form keeps what the scorekeeper entered: a result chip is stored as the bracket
of Re's eyes it stands for (beside the figure it is scored with) and a Ramsch entered by its
chips as those chips, without made-up eyes or tricks; the history says what was entered, in
English and German. Hands stored before the chips were kept read as they always did."""

import re

import pytest
from django.urls import reverse
from django.utils import translation

from leagues.models import Hand, Role
from leagues.table import services
from leagues.table.hand_entry import doppelkopf as form
from tests.factories import LeagueFactory, meeting_for, member
from tests.form_posts import post, post_from_html
from tests.table.test_hand_entry_doppelkopf import PLAYERS, _result_with, read, render_form, replays


def _normal(**fields):
    return post(kind="normal", re=["Ben", "Dora"], eyes_for="re", **fields)


# --- a result chip ----------------------------------------------------------------------------


def test_a_result_chip_is_kept_as_its_bracket_beside_the_figure_it_scores():
    payload, errors = read(_normal(eyes="121", eyes_range="121-150"))
    assert errors == {}
    assert payload["re_eyes"] == 121 and payload["re_eyes_range"] == [121, 150]
    replays(payload)


@pytest.mark.parametrize(
    "fields",
    [
        {"eyes": "131"},  # typed: the count is what was entered
        {"eyes": "131", "eyes_range": ""},
        {"eyes": "131", "eyes_range": "121-150", "eyes_for": "kontra"},  # Kontra's count typed after
        {"eyes": "160", "eyes_range": "121-150"},  # typed over the chip's figure
        {"eyes": "121", "eyes_range": "121+"},  # not a bracket
    ],
)
def test_eyes_typed_are_kept_as_the_count(fields):
    payload, errors = read(post(kind="normal", re=["Ben", "Dora"], **{"eyes_for": "re", **fields}))
    assert errors == {} and "re_eyes_range" not in payload


def test_a_stored_bracket_comes_back_through_the_form():
    payload = {
        "kind": "normal",
        "re": ["Ben", "Dora"],
        "re_eyes": 119,
        "re_eyes_range": [90, 119],
        "announcements": [],
        "specials": [],
    }
    result = _result_with({})
    html = render_form(result, form.DoppelkopfHandForm.from_payload(payload))
    assert 'name="eyes_range" value="90-119"' in html
    hand_form = form.DoppelkopfHandForm(post_from_html(html), players=PLAYERS, result=result)
    assert hand_form.is_valid(), hand_form.errors
    assert hand_form.to_payload() == payload


def test_the_history_says_the_bracket_and_an_older_hand_its_count():
    chip = {"kind": "normal", "re": ["Ben", "Dora"], "re_eyes": 121, "re_eyes_range": [121, 150]}
    translation.activate("en")  # a page asked for in German earlier leaves its language active
    assert dict(form.describe(chip))["Eyes"] == "Re 121–150 : Kontra 90–119"
    # A hand stored before the chips were kept cannot know its chip: its count, as before.
    assert dict(form.describe({**chip, "re_eyes_range": None}))["Eyes"] == "Re 121 : Kontra 119"
    one = {**chip, "re_eyes": 120, "re_eyes_range": [120, 120]}
    assert dict(form.describe(one))["Eyes"] == "Re 120 : Kontra 120"
    with translation.override("de"):
        assert dict(form.describe(chip))["Augen"] == "Re 121–150 : Kontra 90–119"


# --- Ramsch by its chips ----------------------------------------------------------------------

RAMSCH = {"round": "ramsch", "round_games_left": 4}


def _ramsch(**fields):
    return post(kind="ramsch", **fields)


def test_a_ramsch_by_its_chips_is_kept_as_the_chips():
    data = _ramsch(ramsch_losers=["Ben"], ramsch_eyes="90-119", ramsch_jungfrauen=["Emil"])
    payload, errors = read(data, **RAMSCH)
    assert errors == {}
    assert payload == {"kind": "ramsch", "losers": ["Ben"], "loser_eyes": [90, 119], "jungfrauen": ["Emil"]}


def test_a_ramsch_typed_in_full_wins_over_its_chips():
    fields = {"ramsch_losers": ["Ben"], "ramsch_eyes": "90-119"}
    for name, eyes, tricks in (("Ben", "70", "4"), ("Carl", "50", "3"), ("Dora", "60", "3"), ("Emil", "60", "2")):
        fields[f"eyes__{name}"], fields[f"tricks__{name}"] = eyes, tricks
    payload, errors = read(_ramsch(**fields), **RAMSCH)
    assert errors == {} and set(payload) == {"kind", "eyes", "tricks"}


@pytest.mark.parametrize(
    "fields, field",
    [
        ({"ramsch_losers": ["Ben"]}, "loser_eyes"),
        ({"ramsch_eyes": "90-119"}, "losers"),
        ({"ramsch_losers": ["Ben"], "ramsch_eyes": "ninety"}, "loser_eyes"),
        ({}, "eyes"),
    ],
)
def test_a_ramsch_missing_a_chip_names_it(fields, field):
    _payload, errors = read(_ramsch(**fields), **RAMSCH)
    assert field in errors


def test_a_ramsch_by_its_chips_comes_back_through_the_form_with_its_chips_on():
    payload = {"kind": "ramsch", "losers": ["Ben", "Carl"], "loser_eyes": [90, 119], "jungfrauen": ["Emil"]}
    result = _result_with({}, **RAMSCH)
    html = render_form(result, form.DoppelkopfHandForm.from_payload(payload))
    on = re.findall(r'<button type="button" class="chip[^"]* on" (data-ramsch-[a-z]+="[^"]*")', html)
    assert on == [
        'data-ramsch-loser="Ben"',
        'data-ramsch-loser="Carl"',
        'data-ramsch-lo="90"',
        'data-ramsch-jungfrau="Emil"',
    ]
    # Nothing made up in the table of exact figures.
    assert re.findall(r'name="(?:eyes|tricks)__[^"]+" value="\d', html) == []
    hand_form = form.DoppelkopfHandForm(post_from_html(html), players=PLAYERS, result=result)
    assert hand_form.is_valid(), hand_form.errors
    assert hand_form.to_payload() == payload


def test_a_ramsch_by_its_chips_is_described_by_them():
    hand = {"kind": "ramsch", "losers": ["Ben", "Carl"], "loser_eyes": [90, 119], "jungfrauen": ["Emil"]}
    translation.activate("en")
    assert form.describe(hand)[1:] == [("Most eyes (pays)", "Ben, Carl: 90–119"), ("Jungfrau (no trick)", "Emil")]
    durchmarsch = {
        "kind": "ramsch",
        "losers": ["Ben"],
        "loser_eyes": [240, 240],
        "jungfrauen": ["Carl", "Dora", "Emil"],
    }
    assert form.describe(durchmarsch)[1:] == [("Durchmarsch", "Ben")]
    with translation.override("de"):
        assert dict(form.describe(hand))["Meiste Augen (zahlt)"] == "Ben, Carl: 90–119"
        assert dict(form.describe(hand))["Jungfrau (kein Stich)"] == "Emil"


# --- through the meeting page, into the evening's history -------------------------------------


def _chips_meeting():
    league = LeagueFactory(game="doppelkopf", variant="club")
    meeting = meeting_for(league, PLAYERS)
    return meeting, member(league, Role.SCOREKEEPER)


def test_a_result_chip_entered_on_the_page_is_in_the_history_as_entered(client, db):
    meeting, user = _chips_meeting()
    client.force_login(user)
    url = reverse("hand_add_hx", kwargs={"slug": meeting.league.slug, "pk": meeting.pk})
    data = {"kind": "normal", "re": ["Ben", "Dora"], "eyes": "121", "eyes_for": "re", "eyes_range": "121-150"}
    response = client.post(url, {**data, "expected_hand": "1"})
    assert response.status_code in (200, 302)
    hand = Hand.objects.get(meeting=meeting)
    assert hand.payload["re_eyes_range"] == [121, 150]
    history = reverse("meeting_history", kwargs={"slug": meeting.league.slug, "pk": meeting.pk})
    page = client.get(history, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Re 121–150 : Kontra 90–119" in page and "Re 121 : Kontra 119" not in page


def test_the_score_of_a_chip_is_the_score_of_its_figure(db):
    # Anna deals and sits out; Ben and Dora win with 121 (gewonnen: 1 each), chip or count.
    hand = {"kind": "normal", "re": ["Ben", "Dora"], "re_eyes": 121, "announcements": [], "specials": []}
    deltas = []
    for payload in ({**hand, "re_eyes_range": [121, 150]}, hand):
        meeting, user = _chips_meeting()
        services.enter_hand(meeting=meeting, payload=payload, by=user)
        results = meeting.hands.get().results.all()
        deltas.append({r.player.name: r.delta for r in results})
    assert deltas[0] == deltas[1] == {"Anna": 0, "Ben": 1, "Carl": -1, "Dora": 1, "Emil": -1}


def test_ramsch_chips_that_cannot_be_are_refused_on_the_page_in_the_players_words(client, db):
    league = LeagueFactory(game="doppelkopf", variant="club")
    four = ["Anna", "Ben", "Carl", "Dora"]
    meeting = meeting_for(league, four)
    keeper = member(league, Role.SCOREKEEPER)
    # Kontra lost twice (the second time in the Bock round it brought): a Ramsch round after
    # that Bock round's four games; hand 6 is its first (doppelkopf.md, special rounds).
    lost = {
        "kind": "normal",
        "re": ["Anna", "Ben"],
        "re_eyes": 130,
        "announcements": [{"party": "kontra", "call": "kontra"}],
    }
    for payload in [lost, lost] + [{"kind": "normal", "re": ["Anna", "Ben"], "re_eyes": 130}] * 3:
        services.enter_hand(meeting=meeting, payload=payload, by=keeper)
    client.force_login(keeper)
    url = reverse("hand_add_hx", kwargs={"slug": league.slug, "pk": meeting.pk})
    # Anna alone with at most 89 eyes and Ben and Carl without a trick: Dora would have 151.
    data = {"expected_hand": "6", "kind": "ramsch", "ramsch_losers": ["Anna"], "ramsch_eyes": "60-89"}
    data["ramsch_jungfrauen"] = ["Ben", "Carl"]
    for language, message in (
        ("en", "No eyes in this bracket add up to 240 with these chips."),
        ("de", "Mit diesen Chips ergibt keine Augenzahl dieser Spanne zusammen 240."),
    ):
        response = client.post(url, data, HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE=language)
        assert response.status_code == 400
        assert message in response.content.decode()
    translation.activate("en")
    assert meeting.hands.count() == 5
