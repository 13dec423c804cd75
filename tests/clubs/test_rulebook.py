"""The rule book's texts (docs/rules/) and worked examples (leagues/clubs/rulebook_examples.py).

Every option a game declares in scoring/ must have a text in both languages, every example a
text names must exist for the game that shows it, and the examples' figures under the default
presets are checked here against figures worked out by hand from the spec.
"""

import pytest
from django.utils import translation

from leagues.clubs import rulebook
from leagues.clubs.rulebook import FILES, LANGUAGES, document_for, format_value, inline, parse, rule_book
from leagues.clubs.rulebook_examples import EXAMPLES, run
from scoring.options import BOOL, CHOICE, INT, INT_PAIR, MAPPING, MULTI, Option
from scoring.registry import all_games, game_names, get_game

GAME_LANGUAGES = [(game, language) for game in game_names() for language in LANGUAGES]


# --- the texts ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "language"), GAME_LANGUAGES)
def test_every_option_a_game_declares_has_a_text(game, language):
    document = document_for(game, language)
    missing = [o.name for o in get_game(game).options if document.option_section(game, o.name) is None]
    assert missing == [], f"docs/rules/{FILES[game]}.{language}.md has no section for {missing}"


@pytest.mark.parametrize(("game", "language"), GAME_LANGUAGES)
def test_every_option_text_says_something(game, language):
    document = document_for(game, language)
    for option in get_game(game).options:
        section = document.option_section(game, option.name)
        assert section.heading.strip(), option.name
        assert any(block.kind in ("p", "ul") for block in section.blocks), option.name


@pytest.mark.parametrize("stem", sorted(set(FILES.values())))
def test_both_languages_mark_the_same_options_and_examples(stem):
    def markers(language):
        document = rulebook.load(stem, language)
        return [(s.game, s.option, [b.name for b in s.examples()]) for s in document.sections]

    assert markers("de") == markers("en")


@pytest.mark.parametrize(("game", "language"), GAME_LANGUAGES)
def test_every_example_a_games_own_text_names_exists(game, language):
    document = document_for(game, language)
    for section in document.sections:
        if section.game != game:
            continue  # shared sections may name an example only some games have
        for block in section.examples():
            assert block.name in EXAMPLES[game], f"{game}: example {block.name!r} is not defined"


@pytest.mark.parametrize("game", game_names())
def test_every_example_is_shown_somewhere(game):
    named = {
        block.name
        for section in document_for(game, "en").sections
        if section.game in (None, "*", game)
        for block in section.examples()
    }
    assert set(EXAMPLES[game]) <= named, f"{game}: examples no text shows: {set(EXAMPLES[game]) - named}"


def test_every_game_has_a_rules_file_in_both_languages():
    assert set(FILES) == set(game_names())
    for stem in set(FILES.values()):
        for language in LANGUAGES:
            assert (rulebook.DOCS / f"{stem}.{language}.md").is_file()


# --- the markup --------------------------------------------------------------------------------


def test_it_escapes_everything_before_the_little_markup():
    html = inline('<script>alert("x")</script> **Bock** & *Re*')
    assert "<script>" not in html
    assert "&lt;script&gt;" in html
    assert "<strong>Bock</strong>" in html
    assert "&amp;" in html
    assert "<em>Re</em>" in html


def test_it_reads_sections_markers_lists_and_examples():
    document = parse(
        "# Title\n\nIntro line one\nand two.\n\n"
        "## Shared <!-- game: * -->\n\n### Target <!-- option: target -->\n\nFirst to it.\n\n"
        "## Game <!-- game: g -->\n\n### Bonus\n<!-- option: bonus -->\n\n- one\n- two\n  continued\n\n"
        "<!-- example: ex -->\nAnna takes\nall five.\n"
    )
    assert document.title == "Title"
    intro = document.sections[0]
    assert intro.blocks[0].text == "Intro line one and two."
    assert document.option_section("g", "target").game == "*"
    bonus = document.option_section("g", "bonus")
    assert bonus.game == "g"
    assert bonus.blocks[0].items == ["one", "two continued"]
    assert [(b.name, b.text) for b in bonus.examples()] == [("ex", "Anna takes all five.")]
    assert document.option_section("other", "bonus") is None


def test_values_are_said_in_the_players_words():
    with translation.override("en"):
        assert format_value(Option("x", BOOL, "x"), True) == "on"
        assert format_value(Option("x", INT, "x", nullable=True, minimum=0, maximum=9), None) == "none"
        assert format_value(Option("x", INT, "x", minimum=-9, maximum=9), -5) == "−5"
        pair = Option("x", INT_PAIR, "x", minimum=-99, maximum=99)
        assert format_value(pair, [60, -30]) == "60 / −30"
        choice = Option("x", CHOICE, "x", choices=("a",), choice_labels={"a": "the maker wins"})
        assert format_value(choice, "a") == "the maker wins"
        multi = Option("x", MULTI, "x", choices=("a", "b"), choice_labels={"a": "A", "b": "B"})
        assert format_value(multi, []) == "none"
        assert format_value(multi, ["b", "a"]) == "B, A"
        mapping = Option("x", MAPPING, "x", choices=("c",), choice_labels={"c": "Clubs"}, minimum=0, maximum=200)
        assert format_value(mapping, {"c": 100}) == "Clubs 100"


@pytest.mark.parametrize("spec", all_games(), ids=lambda s: s.key)
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_preset_of_every_game_has_a_complete_page(spec, language):
    for variant, preset in spec.presets.items():
        with translation.override(language):
            book = rule_book(game=spec.key, spec=spec, variant=variant, rules=dict(preset), language=language)
        assert book.missing == []
        assert [p.option.name for p in book.rules] == [o.name for o in spec.options]
        assert not book.changed, variant  # a preset as it is changes nothing
        for part in book.general + book.rules:
            for worked in part.examples:
                assert worked.outcome.problem or worked.outcome.cells, (variant, part.section.heading)


# --- the worked examples under the default presets, by hand ------------------------------------


def figures(game, name, rules=None):
    spec = get_game(game)
    with translation.override("en"):
        outcome = run(game, name, rules or dict(spec.presets[spec.default_preset]))
    assert not outcome.problem, outcome.problem
    return dict(outcome.cells)


def test_doppelkopf_re_announced_is_won_kontra_under_90_and_re():
    # gewonnen 1 + Kontra under 90 (80 eyes) 1 + Re announced 2 = 4, plus-minus
    assert figures("doppelkopf", "re_announced") == {"Anna": "+4", "Ben": "+4", "Carl": "−4", "Dora": "−4"}


def test_doppelkopf_the_same_game_in_a_bock_round_counts_double():
    # 120:120 starts a Bock round (club); the next game, worth 4, counts ×2
    assert figures("doppelkopf", "bock_round") == {"Anna": "+8", "Ben": "+8", "Carl": "−8", "Dora": "−8"}


def test_doppelkopf_a_won_solo_has_the_solo_point_and_is_tripled():
    # gewonnen 1 + Solopunkt 1 = 2; soloist ×3
    assert figures("doppelkopf", "solo") == {"Anna": "+6", "Ben": "−2", "Carl": "−2", "Dora": "−2"}


def test_doppelkopf_without_the_solo_point_the_solo_is_worth_one():
    rules = {**get_game("doppelkopf").presets["club"], "solo_point": False}
    assert figures("doppelkopf", "solo", rules) == {"Anna": "+3", "Ben": "−1", "Carl": "−1", "Dora": "−1"}


def test_doppelkopf_club_counts_only_the_winners_absagen():
    # gewonnen 1, Kontra under 90 1, Re 2, Kontra 2, Re's keine 90 1, 120 against keine 90 1 = 8
    assert figures("doppelkopf", "absagen") == {"Anna": "+8", "Ben": "+8", "Carl": "−8", "Dora": "−8"}


def test_doppelkopf_the_losers_get_the_points_of_a_timid_win():
    # Kontra 50 eyes, Re said nothing: gewonnen 1 + under 90 1 + under 60 1 = 3, signs swapped
    assert figures("doppelkopf", "loser_points") == {"Anna": "−3", "Ben": "−3", "Carl": "+3", "Dora": "+3"}


def test_doppelkopf_a_revoke_is_a_solo_lost_schwarz():
    # 5 (gewonnen, 90, 60, 30, schwarz) + Re announced 2 = 7; the revoker pays 3 × 7
    assert figures("doppelkopf", "revoke") == {"Anna": "+7", "Ben": "+7", "Carl": "−21", "Dora": "+7"}


def test_doppelkopf_ramsch_with_a_jungfrau():
    # ⌊100 / 30⌋ = 3, doubled for Dora without a trick = 6; the loser pays 3 × 6
    assert figures("doppelkopf", "ramsch") == {"Anna": "−18", "Ben": "+6", "Carl": "+6", "Dora": "+6"}


def test_doppelkopf_ddv_has_no_ramsch_and_says_so():
    with translation.override("en"):
        outcome = run("doppelkopf", "ramsch", dict(get_game("doppelkopf").presets["ddv"]))
    assert "Ramsch" in outcome.problem


def test_thousand_contract_made_and_the_others_rounded():
    # 80 + hearts 60 = 140 ≥ 130: +130; 28 → 30, 12 → 10
    assert figures("thousand", "contract") == {"Anna": "+130", "Ben": "+30", "Carl": "+10"}


def test_fifty_six_a_doubled_failed_bid_of_40():
    # 40–47 lost: the other team scores 3, doubled × 2 = 6
    assert figures("fifty_six", "doubled_failed") == {"A (Anna, Carl, Emil)": "0", "B (Ben, Dora, Fritz)": "+6"}


def test_forty_five_bruff_the_top_trump_trick_counts_ten():
    # 5 a trick, the highest trump's trick 5 more
    assert figures("forty_five", "top_trump") == {"Anna": "+15", "Ben": "+10", "Carl": "+5"}


def test_one_ten_a_bidder_who_made_it_writes_what_he_made():
    # four tricks, one with the highest trump: 4 × 5 + 5 = 25 ≥ 20
    assert figures("one_ten", "bid_made") == {"Anna": "+25", "Ben": "+5", "Carl": "0"}


def test_auction_45_barker_made_bid():
    # A: three tricks, the first with the top trump: 10 + 5 + 5 = 20 ≥ 15; B: two tricks 10
    assert figures("auction_45", "made") == {"A (Anna, Carl)": "+20", "B (Ben, Dora)": "+10"}


def test_spoil_five_the_pot_after_a_spoilt_hand():
    # hand 1: 2 each and the dealer 2 more = 10, spoilt; hand 2 (Ben deals): Ben 2, the others
    # 1 each: pot 15, Ben wins it having paid 2
    assert figures("spoil_five", "spoilt") == {"Anna": "−1", "Ben": "+13", "Carl": "−1", "Dora": "−1"}


def test_one_ten_the_bidder_goes_out_first_only_with_the_option():
    # Ben reaches 110 at the second trick; Anna makes her 15 at her second trick (10 + 5) and
    # reaches 110 too: first to reach it wins, unless the bidder who made his bid goes out first
    assert figures("one_ten", "bidder_out") == {"Anna": "0", "Ben": "+10", "Carl": "0"}
    rules = {**get_game("one_ten").presets["standard"], "bidder_out_first": True}
    assert figures("one_ten", "bidder_out", rules) == {"Anna": "+15", "Ben": "+10", "Carl": "0"}


def test_thousand_three_zeros_cost_the_penalty_only_when_it_is_set():
    # Carl takes 0 three hands running: nothing by default, −120 with the penalty at 120
    assert figures("thousand", "three_zeros")["Carl"] == "0"
    rules = {**get_game("thousand").presets["koenigsberg"], "zero_rounds_penalty": 120}
    assert figures("thousand", "three_zeros", rules)["Carl"] == "−120"


def test_thousand_exactly_1000_wins_under_pagat_and_not_under_koenigsberg():
    # thousand.md: from 880 a made contract of 120 lands on 1000; pagat has target_inclusive
    # on (1000 wins), koenigsberg keeps seed 001's "mehr als 1000" (the game goes on)
    presets = get_game("thousand").presets
    with translation.override("en"):
        pagat = run("thousand", "target_exact", dict(presets["pagat"]))
        koenigsberg = run("thousand", "target_exact", dict(presets["koenigsberg"]))
    assert dict(pagat.totals)["Anna"] == dict(koenigsberg.totals)["Anna"] == "1000"
    assert "Anna wins game 1" in pagat.lines
    assert not any("wins" in line for line in koenigsberg.lines)


def test_thousand_no_trick_on_the_barrel_is_no_zero_hand():
    # thousand.md, zero_rounds_penalty: hands played on the barrel don't count, even with no
    # trick. pagat with the penalty at 120: Carl on the barrel (880) takes nothing three hands
    # running and pays nothing; the same three hands below it cost him 120.
    rules = {**get_game("thousand").presets["pagat"], "zero_rounds_penalty": 120}
    with translation.override("en"):
        on_the_barrel = run("thousand", "three_zeros_on_the_barrel", rules)
    assert dict(on_the_barrel.cells) == {"Anna": "+120", "Ben": "+40", "Carl": "0"}
    assert dict(on_the_barrel.totals)["Carl"] == "880"
    assert figures("thousand", "three_zeros", rules)["Carl"] == "−120"


def test_thousand_three_hands_on_the_barrel_cost_the_fall_and_the_page_says_why():
    # pagat, barrel_turns 3, barrel_fall 120, zero_rounds_penalty 120: Carl's third hand on
    # the barrel without a win costs the fall (not the zero penalty): 880 − 120 = 760
    rules = {**get_game("thousand").presets["pagat"], "barrel_turns": 3, "zero_rounds_penalty": 120}
    with translation.override("en"):
        outcome = run("thousand", "three_zeros_on_the_barrel", rules)
    assert dict(outcome.cells)["Carl"] == "−120"
    assert dict(outcome.totals)["Carl"] == "760"
    assert "Fell off the barrel: Carl −120" in outcome.lines


def test_thousand_without_a_barrel_the_barrel_example_says_it_cannot_be_played():
    with translation.override("en"):
        outcome = run("thousand", "three_zeros_on_the_barrel", dict(get_game("thousand").presets["koenigsberg"]))
    assert outcome.problem == "there is no barrel."


def test_spoil_five_two_tricks_win_only_with_the_relative_majority():
    # six players: the pot is 6 × 2 + the dealer's 2 = 14; Anna (dealer) paid 4
    assert figures("spoil_five", "two_tricks")["Anna"] == "−4"  # spoilt, the pot stays
    rules = {**get_game("spoil_five").presets["standard"], "relative_majority": True}
    assert figures("spoil_five", "two_tricks", rules)["Anna"] == "+10"  # 14 − 4


def test_auction_45_a_party_deep_in_the_hole_loses_only_with_lose_at():
    # A at −110 fails its 15: −125; B takes four tricks with the top trump: 25
    assert figures("auction_45", "deep_in_the_hole") == {"A (Anna, Carl)": "−15", "B (Ben, Dora)": "+25"}
    rules = {**get_game("auction_45").presets["barker"], "lose_at": -120}
    with translation.override("en"):
        outcome = run("auction_45", "deep_in_the_hole", rules)
    assert "B (Ben, Dora) wins game 1" in outcome.lines


def test_fifty_six_the_stake_follows_the_leagues_table():
    # a bid of 44 made: the seed's 40–47 tier scores 2; a table with one tier 28–56 at 1 / 2
    # scores 1
    assert figures("fifty_six", "made") == {"A (Anna, Carl, Emil)": "+2", "B (Ben, Dora, Fritz)": "0"}
    rules = {**get_game("fifty_six").presets["seed"], "stake_table": [[28, 1, 2]]}
    assert figures("fifty_six", "made", rules) == {"A (Anna, Carl, Emil)": "+1", "B (Ben, Dora, Fritz)": "0"}
