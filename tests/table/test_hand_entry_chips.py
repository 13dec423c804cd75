"""The Doppelkopf result as bracket chips, the Ramsch loser's brackets, the Re pairs,
short names for the sheet's header and the round letters on its rows."""

from types import SimpleNamespace

from hypothesis import given
from hypothesis import strategies as st

from leagues.table.hand_entry import doppelkopf as form
from leagues.templatetags.sheet import round_letters, short_names


def test_the_eye_brackets_cover_0_to_240_once_at_the_spec_lines():
    # doppelkopf.md: the score turns on Re's eyes at no trick (0), under 30/60/90, 120 : 121
    # and Kontra under 90/60/30 (Re 151/181/211), and Kontra without a trick (240).
    brackets = form.eye_brackets()
    assert [(b["lo"], b["hi"]) for b in brackets] == [
        (0, 0),
        (1, 29),
        (30, 59),
        (60, 89),
        (90, 119),
        (120, 120),
        (121, 150),
        (151, 180),
        (181, 210),
        (211, 239),
        (240, 240),
    ]
    assert [b["label"] for b in brackets] == [
        "0",
        "<30",
        "<60",
        "<90",
        "<120",
        "120",
        "121+",
        "151+",
        "181+",
        "211+",
        "240",
    ]


def test_each_bracket_enters_its_edge_nearest_to_120():
    # 90–119 is Kontra with 121 to 150: entered as 119 (Re's most); 151–180 as 151.
    entered = {(b["lo"], b["hi"]): b["eyes"] for b in form.eye_brackets()}
    assert entered[(90, 119)] == 119
    assert entered[(151, 180)] == 151
    assert entered[(1, 29)] == 29
    assert entered[(0, 0)] == 0 and entered[(240, 240)] == 240


def test_the_ramsch_brackets_are_the_points_the_loser_pays():
    # doppelkopf.md, Ramsch: P = ⌊loser's eyes / 30⌋; the most of 240 among four is at least 60.
    brackets = form.ramsch_brackets()
    assert [(b["lo"], b["hi"], b["points"]) for b in brackets] == [
        (60, 89, 2),
        (90, 119, 3),
        (120, 149, 4),
        (150, 179, 5),
        (180, 209, 6),
        (210, 239, 7),
        (240, 240, 8),
    ]


def test_every_pair_of_the_four_playing_is_offered_once():
    pairs = form._re_pairs(["Anna", "Ben", "Carl", "Dora"])
    assert [p["value"] for p in pairs] == ["Anna|Ben", "Anna|Carl", "Anna|Dora", "Ben|Carl", "Ben|Dora", "Carl|Dora"]


def test_short_names_are_the_shortest_start_nobody_else_shares():
    names = ["Annegret", "Annika", "Bernhard", "Bo", "Christiane", "Chris"]
    assert short_names(names) == {
        "Annegret": "Anne",
        "Annika": "Anni",
        "Bernhard": "Ber",
        "Bo": "Bo",
        "Christiane": "Christ",  # "Chris" is the start of "Christiane": one more letter
        "Chris": "Chris",
    }


@given(st.lists(st.text(alphabet="abcdeABC", min_size=1, max_size=8), min_size=1, max_size=6, unique=True))
def test_short_names_stay_apart_when_the_names_differ(names):
    shorts = short_names(names)
    distinct = {n.casefold() for n in names}
    if len(distinct) == len(names):
        cut = [shorts[n].casefold() for n in names]
        # A short name that is a whole name may be the start of another; otherwise unique.
        assert all(names[i].startswith(shorts[names[i]]) for i in range(len(names)))
        assert len(set(cut)) == len(cut)


def test_a_row_carries_its_round_and_its_kind_as_letters():
    def row(round_kind, kind):
        return {"round": round_kind, "hand": SimpleNamespace(payload={"kind": kind})}

    assert [letter for letter, _words in round_letters(row("normal", "normal"))] == []
    assert [letter for letter, _words in round_letters(row("bock", "solo"))] == ["B", "S"]
    assert [letter for letter, _words in round_letters(row("normal", "hochzeit"))] == ["H"]
    assert [letter for letter, _words in round_letters(row("ramsch", "ramsch"))] == ["R"]
    # A Pflichtsolo round's game is a solo anyway: P alone.
    assert [letter for letter, _words in round_letters(row("pflichtsolo", "solo"))] == ["P"]
    # The public sheet's rows have the round only (HandResult), as attributes.
    assert [letter for letter, _words in round_letters(SimpleNamespace(round="bock"))] == ["B"]


def test_a_correction_shows_the_counted_chips_and_reads_back_the_same_hand():
    # The counting chips keep their counts in hidden fields: a hand with two foxes and a
    # Doppelkopf for Re, a Doppel-Charly for Kontra renders them, and the form reads the
    # same Sonderpunkte back (the spec's shape: one item per point, doppelkopf.md).
    from django.template.loader import render_to_string

    from tests.form_posts import post
    from tests.table.test_hand_entry_doppelkopf import ACTIVE, result_for

    specials = [
        {"kind": "doppelkopf", "party": "re"},
        {"kind": "fuchs", "party": "re"},
        {"kind": "fuchs", "party": "re"},
        {"kind": "karlchen", "party": "kontra", "doppel": True},
    ]
    payload = {"kind": "normal", "re": ["Ben", "Carl"], "re_eyes": 151, "announcements": [], "specials": specials}
    initial = form.initial_from_payload(payload)
    html = render_to_string(
        form.TEMPLATE + "#form",
        {
            "initial": initial,
            "errors": {},
            "active": ACTIVE,
            "next": result_for()["next"],
            **form.extra_context(result_for()),
        },
    )
    assert 'name="fuchs_re" value="2"' in html and 'name="dk_re" value="1"' in html
    assert 'name="karlchen" value="kontra"' in html and 'name="karlchen_doppel" value="1"' in html
    data = post(
        kind="normal", re=["Ben", "Carl"], eyes="151", fuchs_re="2", dk_re="1", karlchen="kontra", karlchen_doppel="1"
    )
    read, errors = form.payload_from_post(data, players=["Anna", *ACTIVE], result=result_for())
    assert errors == {}
    assert sorted(map(repr, read["specials"])) == sorted(map(repr, specials))
