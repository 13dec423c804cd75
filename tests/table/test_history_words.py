"""Smaller things a club saw on its walk: the Auction 45s form's "Bagged" in German, a game with
one rule set named once, deleted hands listed with their number and game, who entered or
changed a hand named as the player he plays as, and the public sheet read like the members'
one (the same columns in the same order, each cell the hand's figure above the total)."""

import re

import pytest
from django.urls import reverse
from django.utils import translation

from leagues.models import Player, Role
from leagues.table import services
from tests.factories import LeagueFactory, UserFactory, meeting_for, member
from tests.table.test_race_sheets import A, B, C, D, race_meeting
from tests.table.test_views_meetings import NAMES, add, normal, url

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english_after():
    """A page asked for in German leaves its language active in the test's thread."""
    yield
    translation.activate("en")


def german(client, address):
    response = client.get(address, HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 200
    return response.content.decode()


# --- Auction 45s: "Bagged" ---------------------------------------------------------------------


def test_bagged_is_german_on_the_auction_45s_form(client):
    meeting, user = race_meeting("auction_45", "barker", names=(A, B, C, D), teams={"A": [A, C], "B": [B, D]})
    client.force_login(user)
    page = german(client, url("meeting", meeting))
    assert "Eingetütet" in page
    assert "Bagged" not in page


def test_a_bagged_hand_is_described_in_german(client):
    from leagues.table.hand_entry import maw

    with translation.override("de"):
        lines = dict(maw.describe({"maker": "A", "bid": 15, "bagged": True, "tricks": ["A"] * 5}))
    assert lines["Eingetütet"] == "ja"


# --- a game with one rule set is named once ---------------------------------------------------


@pytest.mark.parametrize("game", ["one_ten", "twenty_five", "spoil_five"])
def test_a_game_whose_only_rule_set_bears_its_name_is_named_once(client, game):
    league = LeagueFactory(game=game, variant="standard")
    client.force_login(member(league, Role.ADMIN))
    for name in ("league", "league_rules"):
        page = client.get(reverse(name, kwargs={"slug": league.slug})).content.decode()
        label = {"one_ten": "One-Hundred-and-Ten", "twenty_five": "Twenty-Five", "spoil_five": "Spoil Five"}[game]
        assert f"{label} · {label}" not in page
        assert label in page


def test_a_rule_set_of_its_own_name_is_still_named_beside_the_game(client):
    league = LeagueFactory(game="forty_five", variant="bruff")
    client.force_login(member(league, Role.ADMIN))
    page = client.get(reverse("league", kwargs={"slug": league.slug})).content.decode()
    assert "Forty-Five · Bruff (Limerick): jink wins, robbers of three" in page


# --- deleted hands: their number and their game ---------------------------------------------


@pytest.fixture
def three_hands(db):
    league = LeagueFactory(game="doppelkopf", variant="club")
    meeting = meeting_for(league, NAMES)
    keeper = member(league, Role.SCOREKEEPER)
    add(meeting, keeper, normal(), normal(re=("Anna", "Carl"), eyes=100), normal(re=("Dora", "Emil"), eyes=150))
    second = meeting.hands.get(number=2)
    services.delete_hand(hand=second, by=keeper, version=second.version)
    return meeting, keeper


def test_the_sheet_lists_a_deleted_hand_with_its_number_and_game(client, three_hands):
    meeting, keeper = three_hands
    client.force_login(keeper)
    page = german(client, url("meeting", meeting))
    listed = re.search(r'<details class="deleted-hands">.*?</details>', page, re.S).group(0)
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", listed))
    assert "Spiel 2" in text and "Normalspiel · Anna, Carl · Re 100 : Kontra 140" in text
    assert "gelöscht um" in text


def test_the_history_names_a_deleted_hands_number_and_game(client, three_hands):
    meeting, keeper = three_hands
    client.force_login(keeper)
    page = german(client, url("meeting_history", meeting))
    deletion = re.search(r'<li class="card history-deleted">.*?</li>', page, re.S).group(0)
    assert "Gelöschtes Spiel 2" in deletion and "Re 100 : Kontra 140" in deletion
    assert "Ein gelöschtes Spiel" not in page
    # The hand that is number 2 now is named as it is now.
    assert page.count("Gelöschtes Spiel 2") == 2  # entered, deleted


# --- who entered or changed a hand: the player he plays as -----------------------------------


def test_the_history_names_the_player_not_the_account(client, db):
    league = LeagueFactory(game="doppelkopf", variant="club")
    meeting = meeting_for(league, NAMES)
    # Signed up as "anna-k" without a name for the sheet, then linked to the player Anna.
    anna = UserFactory(username="anna-k", first_name="")
    league.memberships.create(user=anna, role=Role.SCOREKEEPER)
    Player.objects.filter(league=league, name="Anna").update(user=anna)
    # A member without a player of this league is named by his account.
    loose = UserFactory(username="gast-7", first_name="")
    league.memberships.create(user=loose, role=Role.SCOREKEEPER)
    add(meeting, anna, normal())
    add(meeting, loose, normal(re=("Anna", "Carl")))
    client.force_login(anna)
    page = german(client, url("meeting_history", meeting))
    assert "von Anna" in page and "anna-k" not in page
    assert "von gast-7" in page
    why = german(client, url("hand_why", meeting, meeting.hands.get(number=1)))
    assert "Eingetragen von Anna" in why and "anna-k" not in why


# --- the public sheet reads like the members' one -------------------------------------------


def _public(client, meeting):
    league = meeting.league
    league.public_token = "p" * 32
    league.save(update_fields=["public_token"])
    return client.get(reverse("public_meeting", kwargs={"token": "p" * 32, "pk": meeting.pk})).content.decode()


def _heads(page, table_class):
    table = re.search(rf'<table class="{table_class}">.*?</thead>', page, re.S).group(0)
    return re.findall(r'<th scope="col" title="([^"]*)"', table)


def test_the_public_sheet_has_the_members_columns_in_their_order(client):
    teams = {"B": [B, D], "A": [A, C]}
    meeting, user = race_meeting("forty_five", "bruff", names=(A, B, C, D), teams=teams)
    services.enter_hand(meeting=meeting, payload={"tricks": ["A", "B", C, "A", "B"], "top_trump_trick": 1}, by=user)
    client.force_login(user)
    members = _heads(client.get(url("meeting", meeting)).content.decode(), "sheet")
    public = _heads(_public(client, meeting), "sheet-readonly sheet-public")
    assert members == public
    assert len(public) == 2


def test_the_public_cells_read_like_the_members_figure_then_total(client, db):
    league = LeagueFactory(game="doppelkopf", variant="club")
    meeting = meeting_for(league, NAMES)
    add(meeting, member(league, Role.SCOREKEEPER), normal())
    first = re.search(r'<tr id="hand-1".*?</tr>', _public(client, meeting), re.S).group(0)
    cells = re.findall(r"<td[^>]*>(.*?)</td>", first, re.S)[1:]
    # Anna deals and sits out; Ben and Dora win 131 : 109, gewonnen: 1 each.
    figures = [re.findall(r">([^<]+)<", cell) for cell in cells]
    assert [[f.strip() for f in cell if f.strip()] for cell in figures] == [
        ["0"],
        ["+1", "1"],
        ["-1", "-1"],
        ["+1", "1"],
        ["-1", "-1"],
    ]
