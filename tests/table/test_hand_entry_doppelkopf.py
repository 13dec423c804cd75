"""Hand entry for Doppelkopf: posts become doppelkopf.md's hands, garbage becomes field
errors, a stored hand fills the form again, and whatever the form posts the engine accepts."""

import re

import pytest
from django.template.loader import render_to_string

from leagues.table.hand_entry import doppelkopf as form
from leagues.table.hand_entry import form_module
from scoring.sitting import calculate
from tests.form_posts import post, post_from_html

PLAYERS = ["Anna", "Ben", "Carl", "Dora", "Emil"]
ACTIVE = ["Ben", "Carl", "Dora", "Emil"]  # Anna deals and sits out


def result_for(**next_extra):
    return {
        "game": "doppelkopf",
        "rules": {"ramsch": True},
        "parties": PLAYERS,
        "hands": [],
        "totals": {p: 0 for p in PLAYERS},
        "next": {
            "dealer": "Anna",
            "active": ACTIVE,
            "round": "normal",
            "round_games_left": 0,
            "queue": [],
            "soloist": None,
            "solo_owed": PLAYERS,
            **next_extra,
        },
    }


def read(data, **next_extra):
    return form.payload_from_post(data, players=PLAYERS, result=result_for(**next_extra))


def replays(payload):
    """The engine accepts the hand as hand 1 of a five-player club evening."""
    calculate({"game": "doppelkopf", "variant": "club", "players": PLAYERS, "hands": [payload]})


def test_doppelkopf_uses_this_module():
    assert form_module("doppelkopf") is form


def test_it_reads_a_normal_game_with_announcements_in_order():
    data = post(
        kind="normal", re=["Ben", "Dora"], eyes="131", eyes_for="re", ann=["re:re", "kontra:kontra", "re:keine_90"]
    )
    payload, errors = read(data)
    assert errors == {}
    assert payload == {
        "kind": "normal",
        "re": ["Ben", "Dora"],
        "re_eyes": 131,
        "announcements": [
            {"party": "re", "call": "re"},
            {"party": "kontra", "call": "kontra"},
            {"party": "re", "call": "keine_90"},
        ],
        "specials": [],
    }
    replays(payload)


def test_it_turns_kontra_eyes_into_re_eyes():
    payload, errors = read(post(kind="normal", re=["Ben", "Dora"], eyes=" 109 ", eyes_for="kontra"))
    assert errors == {} and payload["re_eyes"] == 131


def test_it_reads_a_solo_with_tricks_and_an_outbid_solo():
    data = post(kind="solo", solo="damen", re=["Carl"], eyes="185", re_tricks="9", solo_outbid=["Emil"])
    payload, errors = read(data)
    assert errors == {}
    assert payload == {
        "kind": "solo",
        "re": ["Carl"],
        "solo": "damen",
        "re_eyes": 185,
        "re_tricks": 9,
        "announcements": [],
        "specials": [],
        "solo_outbid": ["Emil"],
    }
    replays(payload)


def test_it_reads_sonderpunkte():
    data = post(
        kind="normal",
        re=["Ben", "Dora"],
        eyes="150",
        dk_re="2",
        dk_kontra="0",
        fuchs_re="1",
        fuchs_kontra="1",
        fuchs_last="re",
        fuchs_wins_last_doppelkopf="1",
    )
    payload, errors = read(data)
    assert errors == {}
    assert payload["specials"] == [
        {"kind": "doppelkopf", "party": "re"},
        {"kind": "doppelkopf", "party": "re"},
        {"kind": "fuchs", "party": "re", "last_trick": True},
        {"kind": "fuchs", "party": "kontra"},
    ]
    assert payload["fuchs_wins_last_doppelkopf"] is True
    replays(payload)


def test_it_reads_a_doppel_charly():
    payload, errors = read(post(kind="normal", re=["Ben", "Dora"], eyes="150", karlchen="kontra", karlchen_doppel="1"))
    assert errors == {}
    assert payload["specials"] == [{"kind": "karlchen", "party": "kontra", "doppel": True}]
    replays(payload)


def test_karlchen_gefangen_is_offered_and_read_only_when_the_rules_count_it():
    # Off (both presets' default): no row, and a posted party is not read.
    off = result_for()
    assert 'name="karlchen_gefangen"' not in render_form(off)
    payload, errors = read(post(kind="normal", re=["Ben", "Dora"], eyes="150", karlchen_gefangen="re"))
    assert errors == {} and payload["specials"] == []
    # On: the row is there, the catching party is read, and the engine accepts it under those rules.
    on = result_for()
    on["rules"] = {"ramsch": True, "karlchen_gefangen": True}
    html = render_form(on)
    assert 'name="karlchen_gefangen" value="re"' in html and 'name="karlchen_gefangen" value="kontra"' in html
    assert "Karlchen gefangen" in html
    data = post(kind="normal", re=["Ben", "Dora"], eyes="150", karlchen="re", karlchen_gefangen="re")
    payload, errors = form.payload_from_post(data, players=PLAYERS, result=on)
    assert errors == {}
    assert payload["specials"] == [
        {"kind": "karlchen", "party": "re"},
        {"kind": "karlchen_gefangen", "party": "re"},
    ]
    result = calculate(
        {
            "game": "doppelkopf",
            "players": PLAYERS,
            "rules": {"karlchen_gefangen": True},
            "hands": [payload],
        }
    )
    # Re 150 wins: gewonnen 1 + Karlchen 1 + Karlchen gefangen 1 = 3 (doppelkopf.md, item 8).
    assert result["hands"][0]["value"] == 3
    # A stored hand fills the form again, and says it in the players' words.
    initial = form.initial_from_payload(payload)
    assert initial["karlchen_gefangen"] == "re"
    assert 'name="karlchen_gefangen" value="re" checked' in render_form(on, initial)
    assert dict(form.describe(payload))["Sonderpunkte"] == "Re: Karlchen, Re: Karlchen gefangen"


def test_it_reads_a_revoke():
    payload, errors = read(post(kind="revoke", revoke_by="Carl", ann=["re:re"], re=["Ben"], eyes="99"))
    assert errors == {}
    assert payload == {"kind": "revoke", "revoke_by": "Carl", "announcements": [{"party": "re", "call": "re"}]}
    replays(payload)


def test_it_reads_a_ramsch_for_the_active_players():
    fields = {"kind": "ramsch"}
    for name, eyes, tricks in (("Ben", "70", "4"), ("Carl", "50", "3"), ("Dora", "60", "3"), ("Emil", "60", "2")):
        fields[f"eyes__{name}"] = eyes
        fields[f"tricks__{name}"] = tricks
    payload, errors = read(post(**fields), round="ramsch")
    assert errors == {}
    assert payload == {
        "kind": "ramsch",
        "eyes": {"Ben": 70, "Carl": 50, "Dora": 60, "Emil": 60},
        "tricks": {"Ben": 4, "Carl": 3, "Dora": 3, "Emil": 2},
    }


@pytest.mark.parametrize(
    "data, field",
    [
        (post(kind="normal", re=["Ben", "Dora"], eyes=""), "re_eyes"),
        (post(kind="normal", re=["Ben", "Dora"], eyes="12x"), "re_eyes"),
        (post(kind="normal", re=["Ben", "Dora"], eyes="300", eyes_for="kontra"), "re_eyes"),
        (post(kind="normal", re=["Ben", "Dora"], eyes="131", re_tricks="many"), "re_tricks"),
        (post(kind="normal", re=["Ben", "Dora"], eyes="131", ann=["re:keine_100"]), "announcements"),
        (post(kind="normal", re=["Ben", "Dora"], eyes="131", dk_re="zwei"), "specials"),
        (post(kind="normal", re=["Ben", "Dora"], eyes="131", fuchs_kontra="-1"), "specials"),
        (post(kind="solo", re=["Ben"], eyes="131"), "solo"),
        (post(kind="revoke"), "revoke_by"),
        (post(kind="ramsch", **{"eyes__Ben": "x"}), "eyes"),
        (post(kind="ramsch"), "tricks"),
    ],
)
def test_it_reports_what_it_cannot_read_on_the_field(data, field):
    _payload, errors = read(data)
    assert field in errors and errors[field]


def test_it_keeps_unreadable_text_so_the_form_can_show_it_again():
    payload, errors = read(post(kind="normal", re=["Ben", "Dora"], eyes="12x"))
    assert errors and payload["re_eyes"] == "12x"
    assert form.initial_from_payload(payload)["eyes"] == "12x"


def test_it_fills_the_form_from_a_stored_hand():
    payload = {
        "kind": "normal",
        "re": ["Ben", "Dora"],
        "re_eyes": 131,
        "re_tricks": 8,
        "announcements": [{"party": "kontra", "call": "kontra"}, {"party": "re", "call": "re"}],
        "specials": [
            {"kind": "doppelkopf", "party": "kontra"},
            {"kind": "fuchs", "party": "re", "last_trick": True},
            {"kind": "karlchen", "party": "kontra", "doppel": True},
        ],
        "solo_outbid": ["Carl"],
    }
    initial = form.initial_from_payload(payload)
    assert initial["kind"] == "normal" and initial["re"] == ["Ben", "Dora"] and initial["eyes"] == 131
    assert [a["value"] for a in initial["announcements"]] == ["kontra:kontra", "re:re"]
    assert initial["dk_kontra"] == 1 and initial["fuchs_re"] == 1 and initial["fuchs_last"] == "re"
    assert initial["karlchen"] == "kontra" and initial["karlchen_doppel"] is True
    html = render_to_string(
        form.TEMPLATE + "#form",
        {
            "initial": initial,
            "errors": {},
            "active": ACTIVE,
            "next": result_for()["next"],
            "rules": {"ramsch": True},
            **form.extra_context(result_for()),
        },
    )
    assert 'value="normal" checked' in html
    assert 'value="Ben" checked' in html and 'value="Carl" checked' not in html.split("dk-outbid")[0]
    assert 'value="131"' in html and 'inputmode="numeric"' in html
    assert html.index('value="kontra:kontra"') < html.index('value="re:re"')


def test_a_stored_hand_read_back_through_the_form_is_the_same_hand():
    """initial_from_payload, rendered, posted again: payload_from_post gives the hand back."""
    payload = {
        "kind": "normal",
        "re": ["Ben", "Dora"],
        "re_eyes": 131,
        "announcements": [{"party": "re", "call": "re"}],
        "specials": [{"kind": "doppelkopf", "party": "re"}, {"kind": "fuchs", "party": "kontra"}],
    }
    i = form.initial_from_payload(payload)
    data = post(
        kind=i["kind"],
        re=i["re"],
        eyes=str(i["eyes"]),
        eyes_for="re",
        ann=[a["value"] for a in i["announcements"]],
        dk_re=str(i["dk_re"]),
        dk_kontra=str(i["dk_kontra"]),
        fuchs_re=str(i["fuchs_re"]),
        fuchs_kontra=str(i["fuchs_kontra"]),
    )
    again, errors = read(data)
    assert errors == {} and again == payload


def render_form(result, initial=None):
    """The form partial as the meeting page renders it: with the module's extra context."""
    return render_to_string(
        form.TEMPLATE + "#form",
        {
            "initial": initial or {},
            "errors": {},
            "active": result["next"]["active"],
            "next": result["next"],
            "rules": result["rules"],
            **form.extra_context(result),
        },
    )


def render_next(nxt, result):
    """Doppelkopf's part of what comes next, as the meeting page's panel renders it."""
    return render_to_string(form.TEMPLATE + "#next", {"next": nxt, "result": result, "dk": form.next_words(nxt)})


def test_it_offers_the_soloist_when_a_solo_is_due():
    result = result_for(round="pflichtsolo", round_games_left=5, soloist="Ben")
    nxt = result["next"]
    html = render_form(result)
    assert 'value="solo" checked' in html and 'value="Ben" checked' in html
    panel = render_next(nxt, result_for())
    assert "Pflichtsolo round" in panel and "5 games left" in panel and "Must play a solo" in panel


def test_the_next_panel_shows_stacked_bock_rounds():
    # bock_stacking stack: two Bock rounds cover the next game (x4), with 3 and 4 games left.
    result = result_for(round="bock", round_games_left=4, multiplier=4, bock_rounds=[3, 4])
    panel = render_next(result["next"], result)
    assert "Every point counts ×4" in panel and "2 Bock rounds, games left: 3, 4" in panel
    # A Pflichtsolo round inside one Bock round: x2.
    result = result_for(round="pflichtsolo", round_games_left=4, soloist="Ben", multiplier=2, bock_rounds=[3])
    panel = render_next(result["next"], result)
    assert "Every point counts ×2" in panel and "Bock round, games left: 3" in panel
    # A queued Bock round says it as before, without the extra line.
    result = result_for(round="bock", round_games_left=3, multiplier=2, bock_rounds=[3])
    panel = render_next(result["next"], result)
    assert "Bock round" in panel and "Every point counts" not in panel


def test_it_describes_a_hand_in_the_players_words():
    lines = dict(
        form.describe(
            {
                "kind": "solo",
                "solo": "stilles",
                "re": ["Carl"],
                "re_eyes": 100,
                "announcements": [{"party": "kontra", "call": "kontra"}, {"party": "kontra", "call": "keine_90"}],
                "specials": [{"kind": "karlchen", "party": "kontra", "doppel": True}],
            }
        )
    )
    assert lines["Game"] == "Solo" and lines["Solo"] == "Stille Hochzeit"
    assert lines["Eyes"] == "Re 100 : Kontra 140"
    assert lines["Announcements"] == "Kontra: Kontra → Kontra: keine 90"
    assert lines["Sonderpunkte"] == "Kontra: Karlchen (Doppel-Charly)"


def test_the_result_chips_and_ranges_come_from_the_engine():
    # One chip per bracket of Re's eyes, and Sonderpunkte chips that count up to the
    # engine's most: the brackets and the most come from the engine, not the template.
    from scoring import doppelkopf

    html = render_to_string(
        form.TEMPLATE + "#form",
        {
            "initial": {},
            "errors": {},
            "active": ACTIVE,
            "next": result_for()["next"],
            **form.extra_context(result_for()),
        },
    )
    # The lines of doppelkopf.md (no trick, under 30/60/90, 120 : 121, 151/181/211, all):
    # each chip enters its bracket's edge nearest to 120.
    entered = [int(n) for n in re.findall(r'data-bracket-eyes="(\d+)"', html)]
    assert entered == [0, 29, 59, 89, 119, 120, 121, 151, 181, 211, 240]
    assert f'placeholder="0–{doppelkopf.TOTAL_EYES}"' in html and f'placeholder="0–{doppelkopf.TRICKS}"' in html
    assert f'data-count-for="dk_re" data-max="{doppelkopf.MAX_DOPPELKOPF}"' in html
    assert f'data-count-for="fuchs_kontra" data-max="{doppelkopf.FOXES}"' in html


def test_kontras_eyes_are_turned_into_res_with_the_engines_total():
    from scoring import doppelkopf

    payload, errors = read(post(kind="normal", re=["Ben", "Carl"], eyes="100", eyes_for="kontra"))
    assert errors == {} and payload["re_eyes"] == doppelkopf.TOTAL_EYES - 100
    _payload, errors = read(post(kind="normal", re=["Ben", "Carl"], eyes="241", eyes_for="kontra"))
    assert errors["re_eyes"] == "Eyes must be between 0 and 240."


def chip_values(html, name, tag="input"):
    """The values of the form's inputs (or data-ann buttons) called ``name``, in order."""
    if tag == "input":
        return re.findall(rf'name="{name}" value="([^"]*)"', html)
    return re.findall(r'data-ann="([^"]*)"', html)


def test_the_kinds_solo_types_and_calls_are_the_engines():
    from scoring import doppelkopf, doppelkopf_value

    html = render_form(result_for(round="ramsch", round_games_left=4))
    assert tuple(chip_values(html, "kind")) == doppelkopf.KINDS
    assert tuple(chip_values(html, "solo")) == doppelkopf.SOLO_TYPES
    calls = chip_values(html, "ann", tag="button")
    for party in ("re", "kontra"):
        mine = [c.split(":")[1] for c in calls if c.startswith(party + ":")]
        assert mine == [c for c in doppelkopf.CALLS if c == party or c not in ("re", "kontra")]
    assert {c.split(":")[1] for c in calls} == set(doppelkopf.CALLS)
    # every kind, solo type and call has words of its own (not the engine's value shown raw)
    assert set(form.KIND_LABELS) == set(doppelkopf_value.HAND_KINDS)  # the result-only kind too
    assert set(form.SOLO_LABELS) == set(doppelkopf.SOLO_TYPES)
    assert set(form.CALL_LABELS) == set(doppelkopf.CALLS)


def test_ramsch_is_offered_only_in_a_ramsch_round():
    from scoring import doppelkopf

    normal = chip_values(render_form(result_for()), "kind")
    assert "ramsch" not in normal and normal == [k for k in doppelkopf.KINDS if k != "ramsch"]
    html = render_form(result_for(round="ramsch", round_games_left=4))
    assert 'value="ramsch" checked' in html
    for rnd in ("bock", "pflichtsolo", "penalty"):
        assert "ramsch" not in chip_values(render_form(result_for(round=rnd, round_games_left=3)), "kind")
    # a stored Ramsch hand being corrected keeps its kind on screen even out of the round
    html = render_form(result_for(), initial={"kind": "ramsch"})
    assert 'value="ramsch" checked' in html


def test_a_solo_due_in_a_ramsch_round_pre_chooses_the_solo():
    html = render_form(result_for(round="ramsch", round_games_left=4, soloist="Ben"))
    assert 'value="solo" checked' in html and 'value="ramsch" checked' not in html


def test_a_call_the_engine_does_not_know_is_not_read():
    _payload, errors = read(post(kind="normal", re=["Ben", "Carl"], eyes="130", ann=["re:keine_120"]))
    assert "announcements" in errors


# --- the form itself (DoppelkopfHandForm): a stored hand of each kind, through the form -------

ALL_TRIGGERS = ["kontra_lost", "schwarz", "split_120", "re_kontra_re", "fuchs_last_doppelkopf", "solo_streak"]


def _result_with(rules, **next_extra):
    result = result_for(**next_extra)
    result["rules"] = {"ramsch": True, "bock_triggers": ALL_TRIGGERS, **rules}
    return result


ROUND_TRIPS = [
    (
        {
            "kind": "normal",
            "re": ["Ben", "Dora"],
            "re_eyes": 151,
            "re_tricks": 9,
            "announcements": [{"party": "re", "call": "re"}, {"party": "kontra", "call": "kontra"}],
            "specials": [
                {"kind": "doppelkopf", "party": "re"},
                {"kind": "fuchs", "party": "re", "last_trick": True},
                {"kind": "fuchs", "party": "kontra"},
                {"kind": "karlchen", "party": "re", "doppel": True},
            ],
            "solo_outbid": ["Carl"],
        },
        {},
    ),
    (
        {"kind": "solo", "re": ["Carl"], "solo": "buben", "re_eyes": 61, "announcements": [], "specials": []},
        {},
    ),
    ({"kind": "revoke", "revoke_by": "Emil", "announcements": [{"party": "kontra", "call": "kontra"}]}, {}),
    (
        {
            "kind": "ramsch",
            "eyes": {"Ben": 100, "Carl": 40, "Dora": 60, "Emil": 40},
            "tricks": {"Ben": 5, "Carl": 2, "Dora": 3, "Emil": 2},
        },
        {"round": "ramsch", "round_games_left": 4},
    ),
    ({"kind": "points", "re": ["Ben", "Dora"], "winner": "re", "value": 1}, {}),
    (
        {
            "kind": "points",
            "re": ["Carl"],
            "solo": "damen",
            "winner": "kontra",
            "value": 9,
            "schwarz": True,
            "re_kontra_re": True,
        },
        {},
    ),
]


@pytest.mark.parametrize("payload, next_extra", ROUND_TRIPS, ids=lambda p: p.get("kind") if "kind" in p else "")
def test_a_stored_hand_of_each_kind_comes_back_the_same_through_the_form(payload, next_extra):
    """from_payload, rendered, posted as a browser would: to_payload gives the stored hand."""
    result = _result_with({"points_only": True}, **next_extra)
    html = render_form(result, form.DoppelkopfHandForm.from_payload(payload))
    hand_form = form.DoppelkopfHandForm(post_from_html(html), players=PLAYERS, result=result)
    assert hand_form.is_valid(), hand_form.errors
    assert hand_form.to_payload() == payload
    replays_with = {"game": "doppelkopf", "variant": "club", "players": PLAYERS, "hands": [payload]}
    if next_extra.get("round") != "ramsch":  # a Ramsch needs its round first
        calculate(replays_with)


def test_only_the_posted_kinds_fields_are_read():
    # Eyes typed before the game was changed to a revoke are not part of the hand, nor a problem.
    hand_form = form.DoppelkopfHandForm(
        post(kind="revoke", revoke_by="Carl", eyes="viel", winner="re"), players=PLAYERS, result=result_for()
    )
    assert hand_form.is_valid() and set(hand_form.fields) == {"kind", "revoke_by", "ann"}
    assert hand_form.to_payload() == {"kind": "revoke", "revoke_by": "Carl"}


@pytest.mark.parametrize(
    "data, field, message",
    [
        (post(kind="points", re=["Ben", "Dora"], value="1"), "winner", "Tap who won."),
        (post(kind="points", re=["Ben", "Dora"], winner="re"), "value", "Tap the value."),
        (post(kind="points", re=["Ben", "Dora"], winner="re", value_other="viel"), "value", "“viel” is not a whole"),
        (post(kind="points", re=["Ben", "Dora"], winner="re", value="x"), "value", "“x” is not a whole"),
        (post(kind="normal", re=["Ben", "Dora"], eyes="１３１"), "re_eyes", "is not a whole number"),
    ],
)
def test_the_form_names_the_hands_field_it_cannot_read(data, field, message):
    hand_form = form.DoppelkopfHandForm(data, players=PLAYERS, result=result_for())
    assert not hand_form.is_valid()
    assert message in hand_form.hand_errors()[field]


def test_a_typed_value_wins_over_the_chip_and_is_kept_when_unreadable():
    payload, errors = read(post(kind="points", re=["Ben", "Dora"], winner="re", value="1", value_other="12"))
    assert errors == {} and payload["value"] == 12
    payload, errors = read(post(kind="points", re=["Ben", "Dora"], winner="re", value="1", value_other="12x"))
    assert errors["value"] and payload["value"] == "12x"
    assert form.initial_from_payload(payload)["value_other"] == "12x"


def test_a_solo_type_is_sent_only_for_a_single_re_player():
    payload, errors = read(post(kind="points", re=["Ben", "Dora"], solo="damen", winner="kontra", value="2"))
    assert errors == {} and "solo" not in payload
    payload, errors = read(post(kind="points", re=["Ben"], solo="damen", winner="kontra", value="2"))
    assert payload["solo"] == "damen"


# --- the points-only option: the result first, in three taps ---------------------------------


def _facts_section(html):
    return html.split('class="dk-facts"')[1].split("</details>")[0]


def test_with_points_only_the_result_is_the_first_kind_and_a_plain_game_needs_no_more():
    result = _result_with({"points_only": True})
    html = render_form(result)
    assert chip_values(html, "kind")[0] == "points" and 'value="points" checked' in html
    assert 'name="value" value="1" checked' in html  # gewonnen: a plain game's value
    assert 'name="winner" value="re"' in html and 'name="winner" value="re" checked' not in html
    # The facts are those that fire the triggers in force, folded away.
    facts = re.findall(r'<input type="checkbox" name="(\w+)" value="1"', _facts_section(html))
    assert facts == ["kontra_announced", "schwarz", "split_120", "re_kontra_re", "fuchs_wins_last_doppelkopf"]
    assert '<details class="dk-facts">' in html
    # A plain game as the form posts it after a pair and a winner are tapped.
    data = post_from_html(html)
    data.setlist("re", ["Ben", "Dora"])
    data["winner"] = "re"
    payload, errors = form.payload_from_post(data, players=PLAYERS, result=result)
    assert errors == {} and payload == {"kind": "points", "re": ["Ben", "Dora"], "winner": "re", "value": 1}


def test_with_points_only_off_the_result_kind_is_only_kept_for_a_stored_one():
    result = _result_with({})
    assert "points" not in chip_values(render_form(result), "kind")
    assert 'name="value"' in render_form(result)  # hidden by CSS with its kind
    stored = {"kind": "points", "re": ["Ben", "Dora"], "winner": "re", "value": 2}
    html = render_form(result, form.initial_from_payload(stored))
    assert 'value="points" checked' in html and 'name="value" value="2" checked' in html


def test_the_facts_offered_follow_the_rules_bock_triggers():
    html = render_form(_result_with({"points_only": True, "bock_triggers": ["split_120", "schwarz"]}))
    facts = re.findall(r'<input type="checkbox" name="(\w+)" value="1"', _facts_section(html))
    assert facts == ["schwarz", "split_120"]
    assert "dk-facts" not in render_form(_result_with({"points_only": True, "bock_triggers": []}))


def test_a_due_solo_or_a_ramsch_round_under_points_only():
    # The soloist is pre-ticked and the kind stays the result; a Ramsch round keeps Ramsch.
    html = render_form(_result_with({"points_only": True}, round="pflichtsolo", round_games_left=4, soloist="Ben"))
    assert 'value="points" checked' in html and 'name="re" value="Ben" checked' in html
    html = render_form(_result_with({"points_only": True}, round="ramsch", round_games_left=4))
    assert 'value="ramsch" checked' in html


def test_a_points_hand_is_described_in_the_players_words():
    lines = dict(
        form.describe(
            {"kind": "points", "re": ["Carl"], "solo": "damen", "winner": "kontra", "value": 3, "schwarz": True}
        )
    )
    assert lines["Game"] == "Result only" and lines["Solo"] == "Damen" and lines["Re"] == "Carl"
    assert lines["Won by"] == "Kontra" and lines["Value"] == 3 and lines["Starts a special round"] == "schwarz"
