"""A solo rated as one match of the soloist against the three ("1 against 3 in a
solo"), the three as a team whose skill is the mean of theirs (leagues/stats/ratings.py says why).
Every figure is openskill's Plackett-Luce called directly: with the model's own teams (skill
the sum of the players') to show what goes wrong, and with the three scaled to their mean
(mu / 3, sigma / 3, tau added first as openskill adds it) for what the app does."""

import datetime
import math

import pytest
from openskill.models import PlackettLuce

from leagues.models import Role
from leagues.stats import derived_cache, ratings
from leagues.table import services
from tests.factories import LeagueFactory, meeting_for, member

MODEL = PlackettLuce()
FOUR = ["Anna", "Ben", "Carl", "Dora"]


def one_against_three(one, three, *, ranks):
    """openskill's update of the soloist against the mean of the three, worked out here from
    openskill's documented parameters: tau widens each sigma first (as rate() does), the three
    enter at a third of their mu and sigma, the model runs without tau, the three's new
    ratings are scaled back by three."""
    still = PlackettLuce(tau=0)

    def entered(rating, n):
        return still.rating(mu=rating.mu / n, sigma=math.sqrt(rating.sigma**2 + MODEL.tau**2) / n)

    [[new_one], new_three] = still.rate([[entered(one, 1)], [entered(r, 3) for r in three]], ranks=ranks)
    return (
        MODEL.rating(mu=new_one.mu, sigma=new_one.sigma),
        [MODEL.rating(mu=r.mu * 3, sigma=r.sigma * 3) for r in new_three],
    )


def test_openskills_own_one_against_three_expects_the_three_to_win_and_lets_the_ratings_sink():
    """Why a solo is not rated with openskill's own teams: at 25 each the three count 75
    against the soloist's 25; a solo won moves the soloist up by only what each of the three
    loses, so the four lose twice his gain between them."""
    assert MODEL.predict_win([[MODEL.rating()], [MODEL.rating() for _ in range(3)]])[0] < 0.1
    [[soloist], three] = MODEL.rate([[MODEL.rating()], [MODEL.rating() for _ in range(3)]], ranks=[1, 2])
    gain = soloist.mu - 25
    assert [r.mu - 25 for r in three] == pytest.approx([-gain] * 3)
    assert soloist.mu + sum(r.mu for r in three) == pytest.approx(100 - 2 * gain)


def test_a_solo_won_gains_the_soloist_three_times_what_each_opponent_loses():
    even = [MODEL.rating() for _ in range(4)]
    [[soloist], three] = ratings.rate_match([[even[0]], even[1:]], ranks=[1, 2])
    expected_one, expected_three = one_against_three(even[0], even[1:], ranks=[1, 2])
    assert soloist.mu == pytest.approx(expected_one.mu, abs=1e-12)
    assert soloist.sigma == pytest.approx(expected_one.sigma, abs=1e-12)
    for got, expected in zip(three, expected_three, strict=True):
        assert got.mu == pytest.approx(expected.mu, abs=1e-12)
        assert got.sigma == pytest.approx(expected.sigma, abs=1e-12)
    gain = soloist.mu - 25
    assert gain > 3  # a real step: an even solo is no longer a surprise
    # Each of the three loses a third of it (as the sheet: the soloist 3 points, each 1).
    assert [25 - r.mu for r in three] == pytest.approx([gain / 3] * 3, abs=1e-12)
    assert soloist.mu + sum(r.mu for r in three) == pytest.approx(100, abs=1e-12)


def test_an_even_solo_is_an_even_match_winning_gains_what_losing_costs():
    even = [MODEL.rating() for _ in range(4)]
    [[won], _three] = ratings.rate_match([[even[0]], even[1:]], ranks=[1, 2])
    [[lost], _three] = ratings.rate_match([[even[0]], even[1:]], ranks=[2, 1])
    assert won.mu - 25 == pytest.approx(25 - lost.mu, abs=1e-12)
    # openskill's own teams: a solo won is a surprise worth many times a solo lost.
    [[won_sum], _three] = MODEL.rate([[even[0]], even[1:]], ranks=[1, 2])
    [[lost_sum], _three] = MODEL.rate([[even[0]], even[1:]], ranks=[2, 1])
    assert won_sum.mu - 25 > 10 * (25 - lost_sum.mu)


def test_re_against_kontra_is_openskills_update_unchanged():
    four = [MODEL.rating(mu=mu) for mu in (24, 26, 25, 27)]
    got = ratings.rate_match([four[:2], four[2:]], ranks=[2, 1])
    expected = MODEL.rate([four[:2], four[2:]], ranks=[2, 1])
    assert [[r.mu for r in team] for team in got] == [[r.mu for r in team] for team in expected]


# Eight trump solos at a table of four, each player soloist twice, one won (Re 121+ eyes, the
# soloist reaches 121: doppelkopf.md "Who wins") and one lost (120 eyes: Kontra wins).
SOLOS = [(name, eyes) for eyes in (150, 100) for name in FOUR]


@pytest.fixture
def solo_league(db):
    derived_cache.clear()
    league = LeagueFactory(game="doppelkopf", variant="club")
    keeper = member(league, Role.SCOREKEEPER, username="keeper", first_name="Keeper")
    meeting = meeting_for(league, FOUR, date=datetime.date(2026, 11, 20))
    for soloist, eyes in SOLOS:
        services.enter_hand(
            meeting=meeting, payload={"kind": "solo", "solo": "trumpf", "re": [soloist], "re_eyes": eyes}, by=keeper
        )
    yield league
    derived_cache.clear()


def test_a_balanced_set_of_solos_leaves_the_sum_of_the_ratings_where_it_was(solo_league):
    r = {name: MODEL.rating() for name in FOUR}
    plain = dict(r)
    for soloist, eyes in SOLOS:
        others = [n for n in FOUR if n != soloist]
        ranks = [1, 2] if eyes >= 121 else [2, 1]
        one, three = one_against_three(r[soloist], [r[n] for n in others], ranks=ranks)
        r[soloist] = one
        r.update(zip(others, three, strict=True))
        [[one], three] = MODEL.rate([[plain[soloist]], [plain[n] for n in others]], ranks=ranks)
        plain[soloist] = one
        plain.update(zip(others, three, strict=True))
    got = {row.player.name: row for row in ratings.compute_ratings(league=solo_league).rows}
    for name in FOUR:
        assert got[name].mu == pytest.approx(r[name].mu, abs=1e-9)
        assert got[name].sigma == pytest.approx(r[name].sigma, abs=1e-9)
    total = sum(row.mu for row in got.values())
    # Each won and lost a solo: the four keep their 100 between them (the sigmas drift apart
    # a little as the hands go by, so not to the last digit: 100.08) ...
    assert total == pytest.approx(100, abs=0.2)
    # ... where openskill's own teams lose a quarter of it in eight hands (74 left).
    assert sum(rating.mu for rating in plain.values()) < 75
    # Anna won her own solo and the three solos the others lost.
    assert got["Anna"].games == 8 and got["Anna"].wins == 1 + 3


def test_a_revoke_is_rated_as_a_solo_lost_by_the_revoker():
    names = {"Anna": 1, "Ben": 2, "Carl": 3, "Dora": 4}
    rows = [(1, True, 3, True), (2, True, -9, False), (3, True, 3, True), (4, True, 3, True)]
    matches = ratings.matches_of_hand({"kind": "revoke", "revoke_by": "Ben"}, rows, doppelkopf=True, names=names)
    assert matches == [([[2], [1, 3, 4]], [2, 1])]


def test_a_revoke_by_a_name_not_at_the_table_rates_nobody():
    names = {"Anna": 1, "Ben": 2, "Carl": 3, "Dora": 4}
    rows = [(1, True, 3, True), (2, True, 3, True), (3, True, 3, True), (4, True, -9, False)]
    assert ratings.matches_of_hand({"kind": "revoke", "revoke_by": "Emil"}, rows, doppelkopf=True, names=names) == []


def test_a_solo_is_one_match_of_the_soloist_against_the_three():
    names = {"Anna": 1, "Ben": 2, "Carl": 3, "Dora": 4}
    rows = [(1, True, -2, False), (2, True, 6, True), (3, True, -2, False), (4, True, -2, False)]
    matches = ratings.matches_of_hand({"kind": "solo", "re": ["Ben"]}, rows, doppelkopf=True, names=names)
    assert matches == [([[2], [1, 3, 4]], [1, 2])]
