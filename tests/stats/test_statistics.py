"""Statistics of a small known league, every figure worked out BY HAND from
doppelkopf.md (club preset), and the pages' access.

The league: Anna, Ben, Carl, Dora (seat order; four at the table, everyone active).

Evening 1 (20 Nov):
  H1 normal, Re Anna+Ben 131 eyes, Re said "re", Re caught a fox. Re's target 121 (no absage,
     "re" said): Re wins. Value: won 1 + "re" announced 2 + fox 1 = 4 ("Game value" 1, 3, 8).
     Anna +4, Ben +4, Carl -4, Dora -4.
  H2 normal, Re Anna+Carl 100 eyes, nothing said. Kontra has 140 >= 120: Kontra wins. Value:
     won 1 + Gegen die Alten 1 = 2. Ben +2, Dora +2, Anna -2, Carl -2.
  H3 Dora's queen solo, 125 eyes, nothing said: Re (Dora) reaches 121 and wins. Value: won 1 +
     solo point 1 = 2, the soloist three times: Dora +6, the others -2 each.
  H4 normal, Re Ben+Carl 185 eyes, nothing said: Re wins, Kontra (55 eyes) under 90 and under
     60: value 3. Loser gets the points (a): L < 60 and no announcement: Ben -3, Carl -3,
     Anna +3, Dora +3, and Ben and Carl still won the game. Kontra under 60 is a "keine 60"
     Re could have said: a missed announcement for Ben and Carl.
  Totals: Anna +3, Ben +1, Carl -11, Dora +7 (Dora wins the evening).
Evening 2 (27 Nov):
  H1 Carl's trump solo, 150 eyes, nothing said: Re wins, Kontra has 90 (not under 90): value
     won 1 + solo point 1 = 2: Carl +6, the others -2 each (Carl wins the evening).
"""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone
from hypothesis import given, settings
from hypothesis import strategies as st

from leagues.models import Meeting, Player, Role
from leagues.stats import derived_cache, statistics
from leagues.table import services
from tests.factories import LeagueFactory, meeting_for, member

FOUR = ["Anna", "Ben", "Carl", "Dora"]
EVENING_ONE = [
    {
        "kind": "normal",
        "re": ["Anna", "Ben"],
        "re_eyes": 131,
        "announcements": [{"party": "re", "call": "re"}],
        "specials": [{"kind": "fuchs", "party": "re"}],
    },
    {"kind": "normal", "re": ["Anna", "Carl"], "re_eyes": 100},
    {"kind": "solo", "solo": "damen", "re": ["Dora"], "re_eyes": 125},
    {"kind": "normal", "re": ["Ben", "Carl"], "re_eyes": 185},
]
EVENING_TWO = [{"kind": "solo", "solo": "trumpf", "re": ["Carl"], "re_eyes": 150}]


@pytest.fixture(autouse=True)
def fresh_cache(db):
    derived_cache.clear()
    yield
    derived_cache.clear()


@pytest.fixture
def known_league(db):
    league = LeagueFactory(game="doppelkopf", variant="club", slug="known")
    keeper = member(league, Role.SCOREKEEPER, username="keeper", first_name="Keeper")
    first = meeting_for(league, FOUR, date=datetime.date(2026, 11, 20))
    for payload in EVENING_ONE:
        services.enter_hand(meeting=first, payload=payload, by=keeper)
    second = meeting_for(league, FOUR, date=datetime.date(2026, 11, 27))
    for payload in EVENING_TWO:
        services.enter_hand(meeting=second, payload=payload, by=keeper)
    return league, keeper


def by_name(stats):
    return {p.player.name: p for p in stats.players}


def test_games_wins_and_points_per_game_by_party(known_league):
    league, _keeper = known_league
    s = by_name(statistics.compute_statistics(league=league))
    assert {n: (p.games.games, p.games.wins, p.games.points) for n, p in s.items()} == {
        "Anna": (5, 1, 1),  # +4 -2 -2 +3 -2; won H1 only
        "Ben": (5, 3, -1),  # +4 +2 -2 -3 -2; won H1, H2, H4
        "Carl": (5, 2, -5),  # -4 -2 -2 -3 +6; won H4 and his solo
        "Dora": (5, 2, 5),  # -4 +2 +6 +3 -2; won H2 and her solo
    }
    # As Re / as Kontra: the games with a pair on each side (solos apart).
    assert (s["Anna"].re.games, s["Anna"].re.wins, s["Anna"].re.points) == (2, 1, 2)
    assert s["Anna"].re.per_game == statistics.Decimal("1.00")
    assert (s["Ben"].re.games, s["Ben"].re.wins, s["Ben"].re.points) == (2, 2, 1)
    assert s["Ben"].re.per_game == statistics.Decimal("0.50")
    assert (s["Dora"].kontra.games, s["Dora"].kontra.wins, s["Dora"].kontra.points) == (3, 1, 1)
    assert s["Dora"].kontra.per_game == statistics.Decimal("0.33")
    assert s["Carl"].re.per_game == statistics.Decimal("-2.50")  # -2 and -3
    # Solos by type: Dora's queen solo +6 won, Carl's trump solo +6 won.
    assert (s["Dora"].solo_types["damen"].games, s["Dora"].solo_types["damen"].points) == (1, 6)
    assert (s["Carl"].solo_types["trumpf"].wins, s["Carl"].solo_types["trumpf"].points) == (1, 6)
    assert (s["Anna"].against_solo.games, s["Anna"].against_solo.points) == (2, -4)


def test_announcements_specials_and_missed_announcements(known_league):
    league, _keeper = known_league
    s = by_name(statistics.compute_statistics(league=league))
    # Only H1 had a call: Re's "re", made (Re won). Every hand had parties: 5 each.
    assert (s["Anna"].announced.games, s["Anna"].party_games, s["Anna"].announce_rate) == (1, 5, 20)
    assert s["Ben"].announced.win_rate == 100
    assert (s["Ben"].calls["re"].games, s["Ben"].calls["re"].wins) == (1, 1)
    assert s["Carl"].announced.games == 0
    # The fox of H1 was caught by Re: made by Anna and Ben, conceded by Carl and Dora.
    assert dict(s["Anna"].specials_made) == {"fuchs": 1}
    assert dict(s["Dora"].specials_conceded) == {"fuchs": 1}
    assert s["Dora"].specials_made_total == 0
    # H4: won with Kontra under 60 and nothing said (the loser-gets-points rule (a)).
    assert {n: p.missed for n, p in s.items()} == {"Anna": 0, "Ben": 1, "Carl": 1, "Dora": 0}


def test_partners_and_opponents(known_league):
    league, _keeper = known_league
    stats = statistics.compute_statistics(league=league)
    ids = {p.player.name: p.player.id for p in stats.players}
    anna = by_name(stats)["Anna"]
    # Partners: the same side of a hand (against a solo the three are each other's partners).
    # Ben: H1 (won, +4), against Dora's solo (-2) and against Carl's (-2); Carl: H2 (-2) and
    # against Dora's solo (-2); Dora: H4 (+3, lost) and against Carl's solo (-2, lost).
    partners = {
        n: (anna.partners[i].games, anna.partners[i].wins, anna.partners[i].points)
        for n, i in ids.items()
        if i in anna.partners
    }
    assert partners == {"Ben": (3, 1, 0), "Carl": (2, 0, -4), "Dora": (2, 0, 1)}
    # Opponents: Ben H2 (-2), H4 (+3); Carl H1 (+4, won), H4 (+3), his solo (-2); Dora H1,
    # H2, her solo (+4 -2 -2).
    opponents = {
        n: (anna.opponents[i].games, anna.opponents[i].wins, anna.opponents[i].points)
        for n, i in ids.items()
        if i in anna.opponents
    }
    assert opponents == {"Ben": (2, 0, 1), "Carl": (3, 1, 5), "Dora": (3, 1, 0)}


def test_evenings_streaks_and_pennants(known_league):
    league, _keeper = known_league
    # Only a closed evening has a winner (league.md, the pennant): both are still open.
    s = by_name(statistics.compute_statistics(league=league))
    assert {n: p.pennants for n, p in s.items()} == {"Anna": 0, "Ben": 0, "Carl": 0, "Dora": 0}
    Meeting.objects.filter(league=league).update(closed_at=timezone.now())
    s = by_name(statistics.compute_statistics(league=league))
    assert [e.total for e in s["Carl"].evenings] == [-11, 6]
    assert (s["Carl"].best_evening.total, s["Carl"].worst_evening.total) == (6, -11)
    assert (s["Anna"].best_evening.total, s["Anna"].worst_evening.total) == (3, -2)
    assert {n: p.pennants for n, p in s.items()} == {"Anna": 0, "Ben": 0, "Carl": 1, "Dora": 1}
    # Games won in a row, across evenings: Ben W W L W L; Dora L W W L L; Carl L L L W W.
    assert {n: p.streak for n, p in s.items()} == {"Anna": 1, "Ben": 2, "Carl": 2, "Dora": 2}


def test_a_correction_shows_at_once_although_the_figures_are_cached(known_league):
    league, keeper = known_league
    before = by_name(statistics.league_statistics(league=league))["Carl"].games.points
    hand = league.meetings.order_by("date").last().hands.get()
    # Carl's trump solo lost (110 eyes < 121): value won 1 + solo point 1 = 2, Carl -6.
    services.change_hand(hand=hand, payload={**EVENING_TWO[0], "re_eyes": 110}, by=keeper, version=hand.version)
    after = by_name(statistics.league_statistics(league=league))["Carl"].games.points
    assert (before, after) == (-5, -17)


def test_the_season_filter_counts_only_that_season(known_league):
    league, _keeper = known_league
    season = league.seasons.get(number=1)
    stats = statistics.compute_statistics(league=league, season=season)
    assert stats.hands == 5 and stats.meetings == 2


# --- pages ----------------------------------------------------------------------------------


URLS = ["league_statistics", "league_ratings"]


@pytest.mark.parametrize("name", URLS)
def test_anonymous_visitors_are_sent_to_login(client, known_league, name):
    league, _keeper = known_league
    response = client.get(reverse(name, kwargs={"slug": league.slug}))
    assert response.status_code == 302 and "/login" in response["Location"]


@pytest.mark.parametrize("name", URLS)
def test_a_member_sees_the_page(client, known_league, name):
    league, keeper = known_league
    client.force_login(keeper)
    response = client.get(reverse(name, kwargs={"slug": league.slug}))
    assert response.status_code == 200
    assert "Dora" in response.content.decode()


@pytest.mark.parametrize("name", URLS)
def test_a_member_of_another_league_gets_404(client, known_league, name):
    league, _keeper = known_league
    stranger = member(LeagueFactory(), username="stranger")
    client.force_login(stranger)
    assert client.get(reverse(name, kwargs={"slug": league.slug})).status_code == 404


def test_the_player_page_shows_partners_and_opponents(client, known_league):
    league, keeper = known_league
    client.force_login(keeper)
    anna = Player.objects.get(league=league, name="Anna")
    response = client.get(reverse("player_statistics", kwargs={"slug": league.slug, "pk": anna.pk}))
    assert response.status_code == 200
    page = response.content.decode()
    assert "Partners" in page and "Opponents" in page and 'id="stats-chart-data"' in page


def test_a_player_of_another_league_is_404(client, known_league):
    league, keeper = known_league
    other = Player.objects.create(league=LeagueFactory(), name="Anna")
    client.force_login(keeper)
    assert client.get(reverse("player_statistics", kwargs={"slug": league.slug, "pk": other.pk})).status_code == 404


def test_a_season_that_is_no_number_is_a_400_and_an_unknown_one_a_404(client, known_league):
    league, keeper = known_league
    client.force_login(keeper)
    url = reverse("league_statistics", kwargs={"slug": league.slug})
    assert client.get(url, {"season": "x"}).status_code == 400
    assert client.get(url, {"season": "9"}).status_code == 404
    assert client.get(url, {"season": "1"}).status_code == 200


@settings(max_examples=200, deadline=None)
@given(st.lists(st.booleans(), max_size=30), st.data())
def test_seasons_merged_give_the_streaks_of_one_pass(results, data):
    """The all-time figures are the seasons' parts merged; a winning run that spans seasons
    counts whole (PlayerStats.absorb), as in one pass over every game."""
    cuts = sorted(data.draw(st.lists(st.integers(0, len(results)), max_size=3)))
    whole = statistics.PlayerStats(player=None)
    for won in results:
        whole.count_game(1 if won else -1, won)
    parts = []
    for start, end in zip([0, *cuts], [*cuts, len(results)], strict=True):
        part = statistics.PlayerStats(player=None)
        for won in results[start:end]:
            part.count_game(1 if won else -1, won)
        parts.append(part)
    merged = parts[0]
    for part in parts[1:]:
        merged.absorb(part)
    assert (merged.streak, merged.games, merged.run) == (whole.streak, whole.games, whole.run)


def test_a_race_games_bids_hands_and_points_per_hand(db):
    """1000 (thousand.md, koenigsberg: contract = bid + 100; made: + contract, failed:
    - contract; the others' card points rounded to 5). Three players, all active.
    H1: Anna bids 10 (contract 110), takes 80: failed, -110; Ben +30, Carl +10. Ben and Carl
    won the hand (a failed bid is won by the others, results.py).
    H2: Ben bids 5 (contract 105), takes 110: made, +105; Anna +10, Carl +0. Ben won."""
    league = LeagueFactory(game="thousand", variant="koenigsberg")
    keeper = member(league, Role.SCOREKEEPER, username="keeper1000", first_name="Keeper")
    meeting = meeting_for(league, ["Anna", "Ben", "Carl"], date=datetime.date(2026, 11, 20))
    services.enter_hand(
        meeting=meeting,
        payload={"declarer": "Anna", "bid": 10, "points": {"Anna": 80, "Ben": 30, "Carl": 10}},
        by=keeper,
    )
    services.enter_hand(
        meeting=meeting,
        payload={"declarer": "Ben", "bid": 5, "points": {"Anna": 10, "Ben": 110, "Carl": 0}},
        by=keeper,
    )
    s = by_name(statistics.compute_statistics(league=league))
    assert {n: (p.games.games, p.games.wins) for n, p in s.items()} == {"Anna": (2, 0), "Ben": (2, 2), "Carl": (2, 1)}
    assert s["Anna"].bids_by_size == [(110, 0, 1)]
    assert s["Ben"].bids_by_size == [(105, 1, 0)]
    assert (s["Carl"].bids_made, s["Carl"].bids_failed) == (0, 0)
    # Points per hand: -110 + 10 = -100 over 2; 30 + 105 = 135 over 2; 10 + 0 over 2.
    assert [s[n].race_points_per_hand for n in ("Anna", "Ben", "Carl")] == [
        statistics.Decimal("-50.00"),
        statistics.Decimal("67.50"),
        statistics.Decimal("5.00"),
    ]
