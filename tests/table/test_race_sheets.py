"""The sheets of the race games and Spoil Five read like their own paper sheets:
a won game is a line across the sheet, the next game's totals start from 0, each cell shows
what the hand itself scored (not the change that includes the reset), the why dialog breaks
the hand down in the game's figures, and the Doppelkopf legend shows only where its rounds are.

Every figure below is worked out by hand from the spec (maw.md, thousand.md)."""

import re

import pytest
from django.urls import reverse

from leagues.models import Role
from leagues.table import services
from tests.factories import LeagueFactory, PlayerFactory, meeting_for, member

A, B, C, D = "Aoife", "Brian", "Ciara", "Dónal"


def race_meeting(game, variant, names=(A, B, C), **kwargs):
    league = LeagueFactory(game=game, variant=variant)
    for name in names:
        PlayerFactory(league=league, name=name)
    meeting = meeting_for(league, list(names), **kwargs)
    return meeting, member(league, Role.SCOREKEEPER)


def add(meeting, user, *payloads):
    for payload in payloads:
        services.enter_hand(meeting=meeting, payload=payload, by=user)


def meeting_page(client, meeting, user):
    client.force_login(user)
    response = client.get(reverse("meeting", kwargs={"slug": meeting.league.slug, "pk": meeting.pk}))
    assert response.status_code == 200
    return response.content.decode()


def why(client, meeting, number):
    hand = meeting.hands.get(number=number)
    kwargs = {"slug": meeting.league.slug, "pk": meeting.pk, "hand_pk": hand.pk}
    response = client.get(reverse("hand_why", kwargs=kwargs), HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    return re.sub(r"\s+", " ", response.content.decode())


def row(html, number):
    """The row of hand ``number``: [(shown figure, running total)] per party, in seat order."""
    match = re.search(rf'<tr id="hand-{number}".*?</tr>', html, re.S)
    assert match, f"no row for hand {number}"
    cells = re.findall(r'<span class="delta[^"]*">([^<]*)</span>\s*<span class="total">([^<]*)</span>', match.group(0))
    return [(delta, int(total)) for delta, total in cells]


def facts(html):
    """The why dialog's facts of the game (not the hand as entered below them)."""
    block = re.search(r'<dl class="why-facts why-game">.*?</dl>', html, re.S).group(0)
    return {label: value for label, value in re.findall(r"<dt>([^<]*)</dt><dd>([^<]*)</dd>", block)}


def as_entered(html):
    block = re.search(r'<dl class="as-entered">.*?</dl>', html, re.S).group(0)
    return {label: value for label, value in re.findall(r"<dt>([^<]*)</dt><dd>([^<]*)</dd>", block)}


def party_rows(html):
    """The why dialog's table: {party: [figures]}."""
    table = re.search(r'<table class="breakdown why-parties">.*?</table>', html, re.S).group(0)
    out = {}
    for party, cells in re.findall(r'<th scope="row">([^<]*)</th>(.*?)</tr>', table, re.S):
        out[party] = re.findall(r'<td class="num">([^<]*)</td>', cells)
    return out


# --- 45 (Bruff: target 45, 5 a trick, 5 more for the trick of the highest trump, the game
# ends at the trick that reaches the target) -------------------------------------------------

FORTY_FIVE = [
    # Aoife 4 tricks and the top trump: 4 × 5 + 5 = 25; Brian 5.
    {"tricks": [A, A, A, B, A], "top_trump_trick": 1},
    # Aoife 10 at trick 1 (35), 40 at trick 2, 45 at trick 3: she wins game 1 there, tricks 4
    # and 5 are not counted. She scored 20 in this hand.
    {"tricks": [A, A, A, A, B], "top_trump_trick": 1},
    # A new game from 0: Brian 3 tricks and the top trump 20, Aoife 5, Ciara 5.
    {"tricks": [B, B, B, A, C], "top_trump_trick": 2},
]


def test_a_won_game_is_a_line_across_the_sheet_and_the_next_game_starts_from_0(client, db):
    meeting, user = race_meeting("forty_five", "bruff")
    add(meeting, user, *FORTY_FIVE)
    html = meeting_page(client, meeting, user)
    assert row(html, 1) == [("+25", 25), ("+5", 5), ("0", 0)]
    assert row(html, 2) == [("+20", 45), ("0", 5), ("0", 0)]
    # The winner's cell shows the 5 he scored, not −40 (45 back to 0, then 5).
    assert row(html, 3) == [("+5", 5), ("+20", 20), ("+5", 5)]
    line = html.index('<tr class="game-end">')
    assert html.index('id="hand-2"') < line < html.index('id="hand-3"')
    assert re.search(r'<tr class="game-end"><td colspan="4">Aoife wins game 1</td></tr>', html)
    assert html.count('class="game-end"') == 1


def test_a_race_sheet_has_no_doppelkopf_legend(client, db):
    meeting, user = race_meeting("forty_five", "bruff")
    add(meeting, user, *FORTY_FIVE)
    html = meeting_page(client, meeting, user)
    for badge in ("bock", "ramsch", "pflichtsolo", "penalty"):
        assert f'class="badge {badge}"' not in html
    assert "Tap a hand number to see why it scored what it did." in html


def test_the_why_dialog_breaks_a_45_hand_down(client, db):
    meeting, user = race_meeting("forty_five", "bruff")
    add(meeting, user, *FORTY_FIVE)
    meeting_page(client, meeting, user)
    html = why(client, meeting, 2)
    # Tricks that counted (4 and 5 came after the game was won) and what each scored.
    assert party_rows(html) == {A: ["3", "20"], B: ["0", "0"], C: ["0", "0"]}
    assert facts(html)["Highest trump"] == "trick 1"
    assert facts(html)["Not counted (the game was already won)"] == "4, 5"
    assert '<p class="game-end">Aoife wins game 1</p>' in html
    html = why(client, meeting, 3)
    assert party_rows(html) == {A: ["1", "5"], B: ["3", "20"], C: ["1", "5"]}
    assert "game-end" not in html


def test_a_team_win_names_the_team_and_its_players(client, db):
    teams = {"A": [A, C], "B": [B, D]}
    meeting, user = race_meeting("forty_five", "bruff", names=(A, B, C, D), teams=teams)
    # Team A: 3 tricks (one under Ciara's name) and the top trump, 20; team B 10. Then the
    # top trump at trick 1 (30), 35, 40 and 45 at trick 4: team A wins game 1 in hand 2
    # (trick 5 not counted).
    add(
        meeting,
        user,
        {"tricks": ["A", "B", C, "A", "B"], "top_trump_trick": 1},
        {"tricks": ["A", "A", "A", "A", "B"], "top_trump_trick": 1},
    )
    html = meeting_page(client, meeting, user)
    assert "A (Aoife, Ciara) wins game 1" in html
    assert party_rows(why(client, meeting, 1)) == {"A (Aoife, Ciara)": ["3", "20"], "B (Brian, Dónal)": ["2", "10"]}


# --- 1000 (Königsberg: contract = bid + 100, the others' points rounded to 5) --------------


def test_a_1000_sheet_shows_the_game_won_and_the_rounding(client, db):
    # Aoife carries 950 from an earlier evening (thousand.md: the first above 1000 wins).
    meeting, user = race_meeting("thousand", "koenigsberg", start_totals={A: 950})
    add(
        meeting,
        user,
        # Aoife plays 120 (bid 20): 100 card points + the hearts marriage 60 = 160, made:
        # 950 + 120 = 1070, she wins game 1. Brian 12 → 10, Ciara 8 → 10.
        {"declarer": A, "bid": 20, "points": {A: 100, B: 12, C: 8}, "marriages": {A: ["hearts"]}},
        # A new game from 0: Brian, forced to 100 (bid 0), takes 85 and melds spades (80):
        # 165, made, +100. Aoife 23 → 25, Ciara 12 → 10.
        {"declarer": B, "bid": 0, "points": {A: 23, B: 85, C: 12}, "marriages": {B: ["spades"]}},
    )
    html = meeting_page(client, meeting, user)
    assert row(html, 1) == [("+120", 1070), ("+10", 10), ("+10", 10)]
    assert row(html, 2) == [("+25", 25), ("+100", 100), ("+10", 10)]  # not −1045 for Aoife
    assert html.index('id="hand-1"') < html.index("Aoife wins game 1") < html.index('id="hand-2"')
    assert 'class="badge bock"' not in html

    first = why(client, meeting, 1)
    assert facts(first)["Declarer"] == A
    assert facts(first)["Contract"] == "120, made"
    assert party_rows(first) == {A: ["100", "♥", "120"], B: ["12", "–", "10"], C: ["8", "–", "10"]}
    assert as_entered(first) == {
        "Declarer": A,
        "Final bid": "20",
        "Card points": "Aoife 100, Brian 12, Ciara 8",
        "Marriages": "Aoife ♥",
    }
    second = why(client, meeting, 2)
    assert facts(second)["Contract"] == "100, made"
    assert party_rows(second) == {A: ["23", "–", "25"], B: ["85", "♠", "100"], C: ["12", "–", "10"]}


def test_a_failed_1000_contract_says_so(client, db):
    meeting, user = race_meeting("thousand", "koenigsberg")
    # Aoife plays 160 (bid 60) and takes 100 card points, no marriage: 100 < 160, failed,
    # −160. Brian 12 → 10, Ciara 8 → 10.
    add(meeting, user, {"declarer": A, "bid": 60, "points": {A: 100, B: 12, C: 8}})
    html = meeting_page(client, meeting, user)
    assert row(html, 1) == [("-160", -160), ("+10", 10), ("+10", 10)]
    assert facts(why(client, meeting, 1))["Contract"] == "160, failed"
    assert "game-end" not in html


# --- Spoil Five (stake 2, the dealer 2 more; after a spoilt hand each non-dealer 1, the
# dealer 2) ------------------------------------------------------------------------------------


def test_a_spoil_five_sheet_shows_the_pot_and_the_jink(client, db):
    meeting, user = race_meeting("spoil_five", "standard")
    add(
        meeting,
        user,
        # Aoife deals: pot 4 + 2 + 2 = 8; she takes three tricks and the pot: +8 − 4 = +4.
        {"tricks": [A, A, A]},
        # Brian deals: pot 2 + 4 + 2 = 8; nobody takes three: spoilt, the 8 stay.
        {"tricks": [A, B, C, A, B]},
        # Ciara deals: 1 + 1 + 2 more, pot 12; Brian jinks and takes all five: the pot and
        # 2 from each other player: 12 + 4 − 1 = +15; Aoife −1 − 2, Ciara −2 − 2.
        {"tricks": [B, B, B, B, B], "jink": True},
    )
    html = meeting_page(client, meeting, user)
    assert row(html, 1) == [("+4", 4), ("-2", -2), ("-2", -2)]
    assert row(html, 2) == [("-2", 2), ("-4", -6), ("-2", -4)]
    assert row(html, 3) == [("-3", -1), ("+15", 9), ("-4", -8)]
    assert "game-end" not in html  # no game to win: chips only
    assert 'class="badge bock"' not in html

    spoilt = why(client, meeting, 2)
    assert facts(spoilt)["Pot won by"] == "nobody: the pot stays"
    assert facts(spoilt)["In the pot now"] == "8"
    assert party_rows(spoilt) == {A: ["2", "2", "-2"], B: ["2", "4", "-4"], C: ["1", "2", "-2"]}
    jink = why(client, meeting, 3)
    assert facts(jink)["Jink"] == "made"
    assert facts(jink)["Pot won by"] == B
    assert facts(jink)["In the pot now"] == "0"
    assert party_rows(jink) == {A: ["0", "1", "-3"], B: ["5", "1", "15"], C: ["0", "2", "-4"]}


# --- 110: the bid made or failed ---------------------------------------------------------------


def test_the_why_dialog_says_whether_the_bid_was_made(client, db):
    meeting, user = race_meeting("one_ten", "standard")
    # Aoife bids 20 and takes 3 tricks and the top trump: 20, made; Brian 5, Ciara 5.
    add(meeting, user, {"bidder": A, "bid": 20, "tricks": [A, A, B, A, C], "top_trump_trick": 1})
    meeting_page(client, meeting, user)
    html = why(client, meeting, 1)
    assert facts(html)["Bid"] == "Aoife: 20, made"
    # The hand as entered, in the players' words, not the payload's field names.
    assert as_entered(html) == {
        "Bidder": A,
        "Bid": "20",
        "Tricks": "Aoife, Aoife, Brian, Aoife, Ciara",
        "Highest trump": "trick 1",
    }
    assert party_rows(html) == {A: ["3", "20"], B: ["1", "5"], C: ["1", "5"]}


# --- Doppelkopf: the legend where its rounds are ------------------------------------------


@pytest.mark.parametrize("bock", [False, True])
def test_the_doppelkopf_legend_shows_only_with_special_rounds(client, db, bock):
    league = LeagueFactory(game="doppelkopf", variant="club")
    names = ["Anna", "Ben", "Carl", "Dora", "Emil"]
    meeting = meeting_for(league, names)
    user = member(league, Role.SCOREKEEPER)
    hand = {"kind": "normal", "re": ["Ben", "Dora"], "re_eyes": 131, "specials": []}
    # Kontra announced and lost: a Bock round follows (doppelkopf.md); the second hand is Bock.
    first = {**hand, "announcements": [{"party": "kontra", "call": "kontra"}] if bock else []}
    # Ben deals the second hand and sits out: Anna and Carl play Re.
    add(meeting, user, first, {**hand, "re": ["Anna", "Carl"], "re_eyes": 100, "announcements": []})
    html = meeting_page(client, meeting, user)
    assert ('<span class="badge bock">Bock</span>' in html) is bock
    assert html.count('<span class="badge bock">Bock</span>') == (2 if bock else 0)  # the row and the legend
    assert "game-end" not in html


# --- 56 (seed rules: a double multiplies the stake by 2) -------------------------------------


def test_the_why_dialog_of_a_56_hand(client, db):
    names = (A, B, C, D, "Eimear", "Fionn")
    meeting, user = race_meeting("fifty_six", "seed", names=names)
    # Brian (team B) bids 40 in hearts, doubled, and his team takes 38: failed. A failed bid
    # of 40–47 gives the other team 3, doubled 6 (fifty-six.md).
    add(meeting, user, {"bidder": B, "bid": 40, "trump": "hearts", "double": 1, "bidder_team_points": 38})
    html = meeting_page(client, meeting, user)
    assert row(html, 1) == [("+6", 6), ("0", 0)]
    assert "game-end" not in html and 'class="badge bock"' not in html
    html = why(client, meeting, 1)
    team_a, team_b = "A (Aoife, Ciara, Eimear)", "B (Brian, Dónal, Fionn)"
    assert facts(html) == {
        "Bid": "Brian: 40 hearts",
        "Doubled": "Double",
        "Card points of the bidding team": "38",
        "Bidding team": f"{team_b}, failed",
        "Stake": f"6 → {team_a}",
    }
    assert party_rows(html) == {team_a: ["6"], team_b: ["0"]}
    assert as_entered(html) == {
        "Bidder": B,
        "Bid": "40",
        "Trump": "hearts",
        "Doubled": "Double",
        "Card points of the bidding team": "38",
    }


# --- the public link's sheet (from the cached results) reads the same ----------------------


def test_the_public_sheet_shows_the_won_game_and_the_next_game_from_0(client, db):
    teams = {"A": [A, C], "B": [B, D]}
    meeting, user = race_meeting("forty_five", "bruff", names=(A, B, C, D), teams=teams)
    league = meeting.league
    league.public_token = "w" * 32
    league.save(update_fields=["public_token"])
    # Team A: 20 and 45 at trick 4 of hand 2 (game 1); hand 3 from 0: team B three tricks
    # and the top trump 20, team A two tricks 10 (its delta would read 10 − 45 = −35).
    add(
        meeting,
        user,
        {"tricks": ["A", "B", C, "A", "B"], "top_trump_trick": 1},
        {"tricks": ["A", "A", "A", "A", "B"], "top_trump_trick": 1},
        {"tricks": ["B", "B", "A", "B", "A"], "top_trump_trick": 1},
    )
    page = client.get(reverse("public_meeting", kwargs={"token": "w" * 32, "pk": meeting.pk})).content.decode()
    line = page.index('<tr class="game-end"><td colspan="3">A (Aoife, Ciara) wins game 1</td></tr>')
    assert page.index('id="hand-2"') < line < page.index('id="hand-3"')
    third = re.search(r'<tr id="hand-3".*?</tr>', page, re.S).group(0)
    figures = re.findall(r'<small class="[^"]*">([^<]*)</small>\s*<span class="total">([^<]*)</span>', third)
    # The members' sheet's columns, team A and team B: what the hand scored for the team,
    # then its total.
    assert figures == [("+10", "10"), ("+20", "20")]


def test_a_double_game_in_25_says_so(client, db):
    meeting, user = race_meeting("twenty_five", "standard")
    # Aoife, with no points in the game, takes all five tricks: 25 and a double game (maw.md).
    add(meeting, user, {"tricks": [A] * 5})
    html = meeting_page(client, meeting, user)
    assert row(html, 1) == [("+25", 25), ("0", 0), ("0", 0)]
    assert "Aoife wins game 1, a double game" in html
