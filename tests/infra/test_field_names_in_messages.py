"""No payload field name in a message a page shows.

scoring/ names the payload's fields and values in its problems ("“eyes” must…", "…already
made this call: keine_90"); the API keeps them, the HTML pages say them as their forms label
them (leagues/field_labels.py). These tests fail when a message rendered for a page holds a
payload word in quotes or after a colon, in English or in German: first over every problem
the engines find in a broad set of broken hands, sittings and rules (hypothesis), then through
the hand-entry and correction pages of every game, the start-meeting page and the rules form.

The words are those of the spec (shared/spec/*.md): each game's hand fields, the keys inside
them and the values they hold, the sitting's fields and the games' rule options. Words that
are the players' own too ("schwarz", the English suits) are not listed.
"""

from __future__ import annotations

import dataclasses
import html
import random
import re

import pytest
from django.urls import reverse
from django.utils import translation
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from leagues import field_labels
from leagues.models import Role
from leagues.table import services
from scoring.errors import ScoringError
from scoring.registry import example_request, game_names, get_game
from scoring.sitting import parse_request
from tests.factories import LeagueFactory, PlayerFactory, meeting_for, member

# --- the payload words, from the spec -----------------------------------------------------------

SITTING = {"players", "teams", "start_totals", "compulsory_solos", "rules", "hands", "game", "variant"}
DOPPELKOPF = {
    # doppelkopf.md, "What one game records"
    "kind",
    "re",
    "solo",
    "re_eyes",
    "re_tricks",
    "announcements",
    "specials",
    "fuchs_wins_last_doppelkopf",
    "revoke_by",
    "eyes",
    "tricks",
    "solo_outbid",
    # a hand written as its result only (kind points)
    "winner",
    "value",
    "split_120",
    "kontra_announced",
    "re_kontra_re",
    # inside announcements and specials
    "party",
    "call",
    "last_trick",
    "doppel",
    # the values they hold
    "kontra",
    "keine_90",
    "keine_60",
    "keine_30",
    "normal",
    "hochzeit",
    "trumpfabgabe",
    "ramsch",
    "revoke",
    "trumpf",
    "damen",
    "buben",
    "fleischlos",
    "stilles",
    "doppelkopf",
    "fuchs",
    "karlchen",
}
THOUSAND = {"declarer", "bid", "points", "marriages", "all_tricks", "forgot_to_pass"}
FIFTY_SIX = {"bidder", "bid", "trump", "double", "bidder_team_points", "no_trump"}
MAW = {"tricks", "top_trump_trick", "bidder", "maker", "bid", "call", "bagged", "other_bids", "jink"}
WORDS = {
    "doppelkopf": DOPPELKOPF,
    "thousand": THOUSAND,
    "fifty_six": FIFTY_SIX,
    "twenty_five": MAW,
    "forty_five": MAW,
    "one_ten": MAW,
    "auction_45": MAW | {"30_for_60", "60_for_120"},
    "spoil_five": MAW,
}


@pytest.fixture(autouse=True)
def _language_restored():
    # A request in German leaves German active in this thread (LocaleMiddleware): put back
    # what was active before, so that the next test module starts as it expects.
    with translation.override(translation.get_language()):
        yield


def payload_words(game):
    return SITTING | WORDS[game] | {option.name for option in get_game(game).options}


def leaked(text, words):
    """The payload words ``text`` shows in quotes (English or German), or after a colon as the
    thing named ("…already made this call: keine_90.", "…one of: re, kontra")."""
    found = set()
    for word in words:
        w = re.escape(word)
        if re.search(rf"[“„\"‚‘«]{w}[”“\"‘’»]", text) or re.search(rf":\s*(?:[^:.]*,\s*)?{w}(?=[.,;!?)]|\s*$)", text):
            found.add(word)
    return found


def test_the_check_finds_a_field_name_in_the_engines_own_message():
    # The engine's message as the API says it: the check must catch it, or it proves nothing.
    problem = ramsch_problem()
    for language in ("en", "de"):
        with translation.override(language):
            raw = problem.render(translate=translation.gettext)
            page = field_labels.page_message(problem, game="doppelkopf", players=PLAYERS)
        assert leaked(raw, DOPPELKOPF) == {"eyes"}
        assert leaked(page, DOPPELKOPF) == set()


def test_a_page_names_the_field_as_the_form_labels_it():
    problem = ramsch_problem()
    with translation.override("en"):
        assert field_labels.page_message(problem, game="doppelkopf", players=PLAYERS).startswith("“Eyes” must")
    with translation.override("de"):
        assert field_labels.page_message(problem, game="doppelkopf", players=PLAYERS).startswith("„Augen“ muss")


def test_a_page_says_a_call_as_the_players_say_it():
    hand = {"kind": "normal", "re": ["Ben", "Carl"], "re_eyes": 131}
    hand["announcements"] = [{"party": "re", "call": "keine_90"}, {"party": "re", "call": "keine_90"}]
    (problem,) = problems({**sitting("doppelkopf"), "hands": [hand]})
    with translation.override("en"):
        assert problem.render(translate=translation.gettext).endswith(": keine_90.")  # the API's words
        assert field_labels.page_message(problem, game="doppelkopf", players=PLAYERS).endswith(": keine 90.")


def test_a_player_named_like_a_field_keeps_his_name():
    hand = {"kind": "normal", "re": ["Ben", "bid"], "re_eyes": 131}
    found = problems({**sitting("doppelkopf"), "hands": [hand]})
    with translation.override("en"):
        messages = [field_labels.page_message(p, game="doppelkopf", players=["Anna", "Ben", "bid"]) for p in found]
    assert any("bid" in m for m in messages)


def test_the_api_keeps_the_payload_names(client):
    hand = {"kind": "normal", "re": ["Ben", "Carl"], "re_eyes": 131}
    hand["announcements"] = [{"party": "re", "call": "keine_90"}, {"party": "re", "call": "keine_90"}]
    body = {**sitting("doppelkopf"), "hands": [hand]}
    response = client.post(reverse("api_calculate"), body, content_type="application/json")
    assert response.status_code == 400
    assert [e["message"] for e in response.json()["errors"]] == [
        "The Re party has already made this call or a higher one: keine_90."
    ]


# --- every problem of the engines, rendered for a page ---------------------------------------------

PLAYERS = ["Anna", "Ben", "Carl", "Dora", "Emil"]


def sitting(game):
    request = example_request(game, random.Random(7), 3)
    if game == "doppelkopf":
        request["players"] = PLAYERS
    return request


def problems(request, carried=()):
    """The engine's problems with ``request``; ``carried``: special rounds the evening starts
    in (as a meeting after one that left a Ramsch round open), so that a Ramsch is checked."""
    try:
        spec, _variant, parsed = parse_request(request)
        spec.replay(dataclasses.replace(parsed, carried_rounds=tuple(carried)) if carried else parsed)
    except ScoringError as error:
        return error.problems
    return []


def ramsch_problem():
    hand = {"kind": "ramsch", "eyes": {"Ben": 100, "Carl": 100, "Dora": 20, "Emil": 10}}
    hand["tricks"] = {"Ben": 3, "Carl": 3, "Dora": 3, "Emil": 3}
    found = problems({**sitting("doppelkopf"), "hands": [hand]}, carried=["ramsch"])
    return next(p for p in found if p.field == "eyes" and "240" in p.render())


# Values a form can post for a field (numbers in and out of range, the game's own words, names
# at the table or not), and the odd shapes an older page could send.
SCALARS = st.sampled_from(
    [
        None,
        -5,
        0,
        1,
        7,
        28,
        55,
        121,
        241,
        999,
        "",
        "x",
        "Zoe",
        "Anna",
        "Ben",
        "A",
        "re",
        "kontra",
        "keine_90",
        "schwarz",
        "solo",
        "ramsch",
        "revoke",
        "trumpf",
        "hearts",
        "no_trump",
        "30_for_60",
        "60_for_120",
        True,
        False,
    ]
)


def structured(game, request):
    players = request["players"]
    parties = list(request.get("teams") or players)
    items = st.one_of(SCALARS, st.sampled_from(parties + ["Zoe"]))
    per_player = st.dictionaries(st.sampled_from(players + ["Zoe"]), st.integers(-10, 300), max_size=6)
    calls = st.lists(
        st.fixed_dictionaries(
            {
                "party": st.sampled_from(["re", "kontra", "x"]),
                "call": st.sampled_from(["re", "kontra", "keine_90", "keine_60", "keine_30", "schwarz", "nein"]),
            }
        ),
        max_size=4,
    )
    specials = st.lists(
        st.dictionaries(
            st.sampled_from(["kind", "party", "last_trick", "doppel"]),
            st.sampled_from(["doppelkopf", "fuchs", "karlchen", "re", "kontra", True, 1, "x"]),
            min_size=1,
            max_size=4,
        ),
        max_size=4,
    )
    marriages = st.dictionaries(
        st.sampled_from(players + ["Zoe"]),
        st.lists(st.sampled_from(["hearts", "spades", "clubs", "diamonds", "stars"]), max_size=3),
        max_size=3,
    )
    return st.one_of(
        items,
        st.lists(items, max_size=6),
        per_player,
        calls,
        specials,
        marriages,
        st.dictionaries(st.sampled_from(parties + ["Zoe"]), st.integers(-5, 40), max_size=3),
    )


def broken_request(game):
    """(request, carried rounds): a valid sitting of ``game`` with up to three fields of its
    hands set, emptied or dropped, sometimes a rule option or the starting totals too, and a
    Doppelkopf evening sometimes starting in a Ramsch or Pflichtsolo round."""
    request = sitting(game)
    fields = sorted(get_game(game).hand_fields)
    options = get_game(game).options

    @st.composite
    def build(draw):
        hands = [dict(hand) for hand in request["hands"]]
        for _ in range(draw(st.integers(1, 3))):
            index = draw(st.integers(0, len(hands) - 1))
            key = draw(st.sampled_from(fields))
            if draw(st.booleans()) and key in hands[index]:
                del hands[index][key]
            else:
                hands[index][key] = draw(structured(game, request))
        broken = {**request, "hands": hands}
        if options and draw(st.integers(0, 4)) == 0:
            option = draw(st.sampled_from(options))
            broken["rules"] = {option.name: draw(st.one_of(SCALARS, st.lists(SCALARS, max_size=3)))}
        if "start_totals" in get_game(game).extra_fields and draw(st.integers(0, 4)) == 0:
            parties = list(request.get("teams") or request["players"])
            broken["start_totals"] = draw(
                st.dictionaries(st.sampled_from(parties + ["Zoe"]), st.integers(-2000, 2000), max_size=3)
            )
        carried = draw(st.sampled_from([(), ("ramsch",), ("pflichtsolo",)])) if game == "doppelkopf" else ()
        return broken, carried

    return build()


@pytest.mark.parametrize("game", game_names())
def test_no_engine_problem_shows_a_payload_name_on_a_page(game):
    words = payload_words(game)

    @settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(case=broken_request(game))
    def check(case):
        request, carried = case
        names = list(request["players"]) + list(request.get("teams") or ())
        for problem in problems(request, carried):
            for language in ("en", "de"):
                with translation.override(language):
                    message = field_labels.page_message(problem, game=game, players=names)
                assert not leaked(message, words), (language, problem, message)

    check()


def points_hands():
    """Hands written as their result only (kind points) with each of their fields broken."""
    plain = {"kind": "points", "re": ["Ben", "Carl"], "winner": "re", "value": 2}
    broken = [
        {**plain, "winner": "x"},
        {**plain, "winner": None},
        {**plain, "value": -3},
        {**plain, "value": 1000},
        {**plain, "value": "x"},
        {**plain, "schwarz": "x"},
        {**plain, "split_120": 1, "schwarz": True},
        {**plain, "kontra_announced": "x"},
        {**plain, "re_kontra_re": 7},
        {**plain, "re": ["Zoe"]},
    ]
    drop = [{k: v for k, v in plain.items() if k != field} for field in ("winner", "value", "re")]
    # A result-only field on a played game (a form switched from "Nur Ergebnis" to another
    # kind by an older page): the engine names the field, the page must name it as its form does.
    normal = {"kind": "normal", "re": ["Ben", "Carl"], "re_eyes": 130}
    stray = [{**normal, field: value} for field, value in (("winner", "re"), ("value", 2), ("split_120", True))]
    return broken + drop + stray


@pytest.mark.parametrize("hand", points_hands())
def test_no_problem_of_a_result_only_hand_shows_a_payload_name_on_a_page(hand):
    request = {**sitting("doppelkopf"), "hands": [hand]}
    found = problems(request)
    assert found, hand  # each of them is refused
    for problem in found:
        for language in ("en", "de"):
            with translation.override(language):
                message = field_labels.page_message(problem, game="doppelkopf", players=PLAYERS)
            assert not leaked(message, payload_words("doppelkopf")), (language, problem, message)


# --- through the pages --------------------------------------------------------------------------

DK = ["Anna", "Ben", "Carl", "Dora", "Emil"]  # Anna deals the first hand and sits out


def error_texts(page):
    """The texts of the page's error lists (field errors, the list above the form, refusals)."""
    blocks = re.findall(r'class="[^"]*errorlist[^"]*"[^>]*>(.*?)</(?:p|ul|div)>', page, flags=re.S)
    blocks += re.findall(r'<div class="[^"]*broken[^"]*"[^>]*>(.*?)</div>', page, flags=re.S)
    return [html.unescape(re.sub(r"<[^>]+>", " ", block)).strip() for block in blocks]


def dk(**fields):
    data = {"kind": "normal", "re": ["Ben", "Carl"], "eyes": "131", "eyes_for": "re"}
    data.update(fields)
    return data


def ann(*pairs):
    return [f"{party}:{call}" for party, call in pairs]


def tricks(*winners):
    return {f"trick_{n}": w for n, w in enumerate(winners, start=1)}


def ramsch(eyes, tricks_):
    data = {"kind": "ramsch"}
    for name, e, t in zip(DK[1:], eyes, tricks_, strict=True):
        data[f"eyes__{name}"] = str(e)
        data[f"tricks__{name}"] = str(t)
    return data


HAND_POSTS = {
    "doppelkopf": (
        DK,
        [
            dk(ann=ann(("re", "keine_90"), ("re", "keine_90"))),
            dk(ann=ann(("re", "re"), ("re", "keine_60"), ("re", "keine_90"))),
            dk(ann=ann(("kontra", "keine_60"), ("kontra", "kontra"))),
            dk(re=["Ben"]),
            dk(re=["Anna", "Ben"]),
            dk(kind="solo", solo="damen", re=["Ben", "Carl"]),
            dk(kind="hochzeit", re=[]),
            dk(eyes="0", re_tricks="12"),
            dk(eyes="131", re_tricks="0"),
            dk(dk_re="4", eyes="121"),
            dk(fuchs_re="2", fuchs_kontra="1"),
            dk(karlchen="re", fuchs_last="kontra", fuchs_kontra="1"),
            dk(fuchs_wins_last_doppelkopf="1"),
            dk(kind="solo", solo="trumpf", re=["Ben"], dk_re="1", fuchs_re="1", karlchen="re"),
            dk(solo_outbid=["Ben"]),
            dk(solo_outbid=["Anna"]),
            dk(kind="revoke", revoke_by="Anna"),
            ramsch([100, 100, 20, 10], [3, 3, 3, 3]),
            ramsch([60, 60, 60, 60], [3, 3, 3, 4]),
            ramsch([0, 80, 80, 80], [1, 4, 4, 3]),
        ],
    ),
    "thousand": (
        ["Anna", "Ben", "Carl"],
        [
            {"declarer": "Anna", "bid": "33", "points:Anna": "60", "points:Ben": "30", "points:Carl": "30"},
            {"declarer": "Anna", "bid": "35", "points:Anna": "60", "points:Ben": "30", "points:Carl": "20"},
            {"declarer": "Anna", "bid": "35", "points:Anna": "60", "points:Ben": "60"},
            {
                "declarer": "Anna",
                "bid": "35",
                "points:Anna": "60",
                "points:Ben": "30",
                "points:Carl": "30",
                "marriages:Anna": ["hearts"],
                "marriages:Ben": ["hearts"],
            },
            {"declarer": "Anna", "bid": "500", "points:Anna": "60", "points:Ben": "30", "points:Carl": "30"},
            {"declarer": "Zoe", "bid": "35", "points:Anna": "60", "points:Ben": "30", "points:Carl": "30"},
            {"declarer": "Anna", "bid": "35", "forgot_to_pass": "1", "all_tricks": "1"},
        ],
    ),
    "fifty_six": (
        ["Anna", "Ben", "Carl", "Dora", "Emil", "Fritz"],
        [
            {"bidder": "Anna", "bid": "20", "trump": "hearts", "double": "0", "bidder_team_points": "30"},
            {"bidder": "Anna", "bid": "30", "trump": "hearts", "double": "0", "bidder_team_points": "60"},
            {"bidder": "Anna", "bid": "30", "trump": "stars", "double": "0", "bidder_team_points": "30"},
            {"bidder": "Anna", "bid": "30", "trump": "no_trump", "double": "5", "bidder_team_points": "30"},
            {"bidder": "Zoe", "bid": "30", "trump": "hearts", "double": "0", "bidder_team_points": "30"},
        ],
    ),
    "forty_five": (
        ["Anna", "Ben", "Carl", "Dora"],
        [
            tricks("Anna", "Ben", "Anna", "Carl", "Anna"),
            {**tricks("Anna", "Ben", "Anna", "Carl", "Anna"), "top_trump_trick": "9"},
            {**tricks("Anna", "Ben"), "top_trump_trick": "1"},
            {**tricks("Anna", "Zoe", "Anna", "Carl", "Anna"), "top_trump_trick": "1"},
        ],
    ),
    "twenty_five": (["Anna", "Ben", "Carl", "Dora"], [tricks("Anna", "Ben"), tricks("Anna", "Zoe", "Ben")]),
    "one_ten": (
        ["Anna", "Ben", "Carl", "Dora"],
        [
            {"bidder": "Anna", "bid": "10", **tricks("Anna", "Ben", "Anna", "Carl", "Anna"), "top_trump_trick": "1"},
            {"bidder": "Anna", "bid": "17", **tricks("Anna", "Ben", "Anna", "Carl", "Anna"), "top_trump_trick": "1"},
            {"bidder": "Zoe", "bid": "20", **tricks("Anna", "Ben", "Anna", "Carl", "Anna"), "top_trump_trick": "1"},
        ],
    ),
    "auction_45": (
        ["Anna", "Ben", "Carl", "Dora"],
        [
            {"maker": "Anna", "bid": "20", "call": "30_for_60", **tricks("Anna", "Ben", "Anna", "Carl", "Anna")},
            {"maker": "Anna", "bid": "30", "call": "60_for_120", **tricks("Anna", "Ben", "Anna", "Carl", "Anna")},
            {"maker": "Anna", "bid": "30", "call": "90_for_180", **tricks("Anna", "Ben", "Anna", "Carl", "Anna")},
            {"maker": "Anna", "bid": "3", "bagged": "1", **tricks("Anna", "Ben", "Anna", "Carl", "Anna")},
            {
                "maker": "Anna",
                "bid": "20",
                "other_bids:Ben": "25",
                "other_bids:Anna": "5",
                **tricks("Anna", "Ben", "Anna", "Carl", "Anna"),
            },
        ],
    ),
    "spoil_five": (
        ["Anna", "Ben", "Carl", "Dora"],
        [tricks("Anna", "Ben"), {**tricks("Anna", "Ben", "Carl", "Dora", "Anna"), "jink": "1"}],
    ),
}
VARIANTS = {"auction_45": "atlantic"}


def hand_meeting(game):
    players, _posts = HAND_POSTS[game]
    spec = get_game(game)
    league = LeagueFactory(game=game, variant=VARIANTS.get(game, spec.default_preset))
    scorekeeper = member(league, Role.SCOREKEEPER)
    for p in league.players.all():
        p.active = False
        p.save()
    for name in players:
        PlayerFactory(league=league, name=name)
    return meeting_for(league, players), scorekeeper


@pytest.mark.django_db
@pytest.mark.parametrize("game", sorted(HAND_POSTS))
def test_no_hand_entry_page_shows_a_payload_name(client, game):
    meeting, scorekeeper = hand_meeting(game)
    client.force_login(scorekeeper)
    url = reverse("hand_add_hx", kwargs={"slug": meeting.league.slug, "pk": meeting.pk})
    words = payload_words(game)
    refused = 0
    for data in HAND_POSTS[game][1]:
        for language in ("en", "de"):
            response = client.post(url, data, HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE=language)
            if response.status_code == 200:  # a post that happens to be a valid hand
                meeting.hands.all().delete()
                continue
            assert response.status_code == 400, (data, response.status_code)
            refused += 1
            texts = error_texts(response.content.decode())
            assert texts, data
            for text in texts:
                assert not leaked(text, words), (language, data, text)
    assert refused >= len(HAND_POSTS[game][1])  # most of them are refused in both languages


@pytest.mark.django_db
def test_the_correction_page_names_the_fields_as_its_form_does(client):
    meeting, scorekeeper = hand_meeting("doppelkopf")
    hand = services.enter_hand(
        meeting=meeting, payload={"kind": "normal", "re": ["Ben", "Carl"], "re_eyes": 131}, by=None
    ).hand
    client.force_login(scorekeeper)
    url = reverse("hand_edit", kwargs={"slug": meeting.league.slug, "pk": meeting.pk, "hand_pk": hand.pk})
    for data in HAND_POSTS["doppelkopf"][1]:
        for language in ("en", "de"):
            response = client.post(url, {**data, "version": hand.version}, HTTP_ACCEPT_LANGUAGE=language)
            if response.status_code == 302:  # a post that happens to be a valid hand
                hand.refresh_from_db()
                continue
            assert response.status_code == 400, data
            for text in error_texts(response.content.decode()):
                assert not leaked(text, DOPPELKOPF | SITTING), (language, data, text)
    twice = dk(ann=ann(("re", "keine_90"), ("re", "keine_90")), version=hand.version)
    for language, said in (("en", "a higher one: keine 90."), ("de", "schon gemacht: keine 90.")):
        texts = error_texts(client.post(url, twice, HTTP_ACCEPT_LANGUAGE=language).content.decode())
        assert any(text.endswith(said) for text in texts), texts
        assert not any("keine_90" in text for text in texts)


@pytest.mark.django_db
def test_the_start_page_names_a_rule_option_by_its_label(client):
    # The house rules hold Dreaded 45 while a game still ends mid-hand (bruff): only a replay
    # finds that the two do not go together, when the meeting starts.
    league = LeagueFactory(game="forty_five", variant="bruff", rule_overrides={"dreaded_45": True})
    scorekeeper = member(league, Role.SCOREKEEPER)
    players = [PlayerFactory(league=league, name=name) for name in ("Anna", "Ben", "Carl", "Dora")]
    client.force_login(scorekeeper)
    data = {"players": [str(p.pk) for p in players], "date": "2026-11-27"}
    for language in ("en", "de"):
        response = client.post(
            reverse("meeting_start", kwargs={"slug": league.slug}), data, HTTP_ACCEPT_LANGUAGE=language
        )
        assert response.status_code == 400
        texts = error_texts(response.content.decode())
        assert any("Dreaded 45" in text for text in texts), texts
        for text in texts:
            assert not leaked(text, payload_words("forty_five")), (language, text)
        with translation.override(language):
            label = translation.gettext(get_game("forty_five").options[3].label)  # ends_mid_hand
        assert any(label in text for text in texts), (label, texts)


@pytest.mark.django_db
def test_the_start_page_names_the_carried_scores_in_words(client):
    league = LeagueFactory(game="forty_five", variant="bruff")
    scorekeeper = member(league, Role.SCOREKEEPER)
    players = [PlayerFactory(league=league, name=name) for name in ("Anna", "Ben", "Carl", "Dora")]
    client.force_login(scorekeeper)
    data = {"players": [str(p.pk) for p in players], "date": "2026-11-27", f"start_{players[0].pk}": "50"}
    for language in ("en", "de"):
        response = client.post(
            reverse("meeting_start", kwargs={"slug": league.slug}), data, HTTP_ACCEPT_LANGUAGE=language
        )
        assert response.status_code == 400
        texts = error_texts(response.content.decode())
        assert any("Anna" in text for text in texts), texts
        for text in texts:
            assert not leaked(text, payload_words("forty_five")), (language, text)
