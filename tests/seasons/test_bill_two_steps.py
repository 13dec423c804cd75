"""The bill in two steps (league.md, "End of a season"): "See the split" shows it without
storing anything and says what saving closes (the season and each evening still open, with
its state); "Save" stores exactly the split that was shown. While an evening of the season is
in the middle of a round, the bill is not saved: saving would end that evening mid-round.

Doppelkopf, club rules, four players who host in turn (Anna, Ben, Carl, Dora): the fourth
evening completes the season. The first three have an end time long past, so their fourth hand
(dealt by the last seat) ends each; the fourth has no end time and stays open. Every hand is
a plain Re win of Ben and Dora (131 eyes, no calls): gewonnen 1, so +1 each for Ben and Dora,
−1 for Anna and Carl (DDV 7.2.2 (a)).
"""

import datetime
import re
from decimal import Decimal

import pytest
from django.urls import reverse

from leagues import exceptions
from leagues.models import Player, Role, SeasonBill
from leagues.seasons import services as seasons_services
from leagues.table import services as table_services
from scoring.bill import split_bill
from tests.factories import LeagueFactory, meeting_for, member

pytestmark = pytest.mark.django_db

FOUR = ["Anna", "Ben", "Carl", "Dora"]
BEN_DORA = {"kind": "normal", "re": ["Ben", "Dora"], "re_eyes": 131}
HOSTS = [FOUR[i:] + FOUR[:i] for i in range(4)]
DATES = [datetime.date(2026, 1, 9), datetime.date(2026, 2, 13), datetime.date(2026, 3, 13), datetime.date(2026, 4, 10)]
# 100 € by points at 10 cents; the mean score is 0, so share = 25 − 0.10 × score.
BILL = {"total": "100.00", "method": "per_point", "cents_per_point": "10"}


@pytest.fixture
def league():
    return LeagueFactory(game="doppelkopf", variant="club")


@pytest.fixture
def people(league):
    people = {role: member(league, role) for role in (Role.ADMIN, Role.SCOREKEEPER, Role.MEMBER)}
    # Their own players do not play: the season is complete when the four above have hosted.
    Player.objects.filter(league=league, user__isnull=False).update(active=False)
    return people


def season_with_last_evening(league, keeper, last_hands, capture):
    """Three evenings of four hands (each ends itself) and the fourth, still open, with
    ``last_hands`` hands: the season is complete and not closed."""
    with capture(execute=True):
        for number in range(3):
            meeting = meeting_for(league, HOSTS[number], date=DATES[number], end_time=datetime.time(22, 0))
            for _ in range(4):
                table_services.enter_hand(meeting=meeting, payload=BEN_DORA, by=keeper)
        last = meeting_for(league, HOSTS[3], date=DATES[3])
        for _ in range(last_hands):
            table_services.enter_hand(meeting=last, payload=BEN_DORA, by=keeper)
    last.refresh_from_db()
    last.season.refresh_from_db()
    assert last.season.closed_on == DATES[3] and last.season.locked_at is None and last.closed_at is None
    return last


@pytest.fixture
def at_round_end(league, people, django_capture_on_commit_callbacks):
    """The last evening has played one full round (4 hands): Ben and Dora +16, Anna and Carl −16."""
    return season_with_last_evening(league, people[Role.SCOREKEEPER], 4, django_capture_on_commit_callbacks)


@pytest.fixture
def mid_round(league, people, django_capture_on_commit_callbacks):
    """The last evening is two games into its round: Ben and Dora +14, Anna and Carl −14."""
    return season_with_last_evening(league, people[Role.SCOREKEEPER], 2, django_capture_on_commit_callbacks)


def url(league):
    return reverse("season_bill", kwargs={"slug": league.slug, "number": 1})


def shares(response):
    return {r["name"]: r["share"] for r in response.context["result"]["rows"]}


@pytest.mark.parametrize("role", [Role.SCOREKEEPER, Role.ADMIN])
def test_seeing_the_split_stores_nothing_and_says_what_saving_closes(client, league, people, at_round_end, role):
    client.force_login(people[role])
    response = client.get(url(league), BILL)
    assert response.status_code == 200
    # Ben and Dora +16 pay 25 − 1.60 = 23.40; Anna and Carl −16 pay 26.60.
    assert shares(response) == {"Ben": "23.40", "Dora": "23.40", "Anna": "26.60", "Carl": "26.60"}
    assert not SeasonBill.objects.exists()
    (evening,) = response.context["closes"]
    assert (evening.meeting.pk, evening.hands, evening.mid_round) == (at_round_end.pk, 4, False)
    page = response.content.decode()
    assert "Saving closes Season 1 and its evening still open:" in page
    assert "10 Apr 2026" in page and "4 hands, the round is finished" in page
    save = dict(response.context["save_inputs"])
    assert save["seen"] and f'name="seen" value="{save["seen"]}"' in page
    at_round_end.refresh_from_db()
    at_round_end.season.refresh_from_db()
    assert at_round_end.closed_at is None and at_round_end.season.locked_at is None


def test_saving_the_split_seen_stores_it_and_closes_the_open_evening(client, league, people, at_round_end):
    client.force_login(people[Role.SCOREKEEPER])
    seen = client.get(url(league), BILL).context["save_inputs"]
    response = client.post(url(league), dict(seen))
    assert response.status_code == 303 and response["Location"] == url(league)
    bill = SeasonBill.objects.get()
    assert bill.shares == {"Ben": "23.40", "Dora": "23.40", "Anna": "26.60", "Carl": "26.60"}
    assert bill.total == Decimal("100.00") and bill.settled_by == people[Role.SCOREKEEPER]
    at_round_end.refresh_from_db()
    at_round_end.season.refresh_from_db()
    assert at_round_end.closed_at == bill.settled_at == at_round_end.season.locked_at


def test_a_bill_posted_without_being_seen_is_shown_not_stored(client, league, people, at_round_end):
    client.force_login(people[Role.SCOREKEEPER])
    response = client.post(url(league), BILL)
    assert response.status_code == 409
    assert not SeasonBill.objects.exists()
    assert shares(response) == {"Ben": "23.40", "Dora": "23.40", "Anna": "26.60", "Carl": "26.60"}
    assert "Look at the split below, then save it." in response.content.decode()
    # Saved from there, it is stored.
    assert client.post(url(league), dict(response.context["save_inputs"])).status_code == 303
    assert SeasonBill.objects.count() == 1


def test_a_split_that_changed_since_it_was_seen_is_shown_again_not_stored(client, league, people, at_round_end):
    client.force_login(people[Role.SCOREKEEPER])
    seen = client.get(url(league), BILL).context["save_inputs"]
    # Meanwhile one more round at the table (Ben and Dora win all four): +20 and −20 now.
    for _ in range(4):
        table_services.enter_hand(meeting=at_round_end, payload=BEN_DORA, by=people[Role.SCOREKEEPER])
    response = client.post(url(league), dict(seen))
    assert response.status_code == 409
    assert not SeasonBill.objects.exists()
    # 25 ∓ 2.00: the split by today's standings, to look at and save.
    assert shares(response) == {"Ben": "23.00", "Dora": "23.00", "Anna": "27.00", "Carl": "27.00"}
    assert "The standings have changed since you looked" in response.content.decode()
    assert dict(response.context["save_inputs"])["seen"] != dict(seen)["seen"]


def test_while_an_evening_is_mid_round_the_bill_is_shown_but_not_saved(client, league, people, mid_round):
    client.force_login(people[Role.SCOREKEEPER])
    response = client.get(url(league), BILL)
    assert response.status_code == 200
    # Ben and Dora +14: 25 − 1.40 = 23.60; Anna and Carl 26.40.
    assert shares(response) == {"Ben": "23.60", "Dora": "23.60", "Anna": "26.40", "Carl": "26.40"}
    (evening,) = response.context["closes"]
    assert evening.mid_round and evening.games_left == 2
    page = response.content.decode()
    assert "2 hands, 2 games left in the round" in page
    assert "in the middle of a round" in page and 'name="seen"' not in page
    # A save sent all the same (an old page, a second phone) is refused, and nothing closes.
    scores = {"Ben": 14, "Dora": 14, "Anna": -14, "Carl": -14}
    split = split_bill({**BILL, "scores": scores})
    response = client.post(url(league), {**BILL, "seen": seasons_services.bill_digest(scores, split)})
    assert response.status_code == 409
    assert "in the middle of a round" in response.content.decode() and not response.context.get("save_inputs")
    assert not SeasonBill.objects.exists()
    mid_round.refresh_from_db()
    assert mid_round.closed_at is None


def test_the_service_refuses_a_bill_while_an_evening_is_mid_round(league, people, mid_round):
    with pytest.raises(exceptions.MidRound) as error:
        seasons_services.settle_bill(season=mid_round.season, bill=BILL, user=people[Role.ADMIN])
    assert error.value.errors[0]["field"] == "season"
    assert re.search(r"April 10, 2026.*2 games left", error.value.errors[0]["message"])
    # The round finished, the bill is stored and ends the evening.
    for _ in range(2):
        table_services.enter_hand(meeting=mid_round, payload=BEN_DORA, by=people[Role.SCOREKEEPER])
    bill = seasons_services.settle_bill(season=mid_round.season, bill=BILL, user=people[Role.ADMIN])
    mid_round.refresh_from_db()
    assert bill.shares == {"Ben": "23.40", "Dora": "23.40", "Anna": "26.60", "Carl": "26.60"}
    assert mid_round.closed_at == bill.settled_at


def test_an_evening_an_admin_closed_mid_round_is_no_obstacle(client, league, people, mid_round):
    # "Close the season now" ends the evening unfinished, on purpose; the bill is saved then.
    client.force_login(people[Role.ADMIN])
    client.post(reverse("season_close", kwargs={"slug": league.slug, "number": 1}))
    response = client.get(url(league), BILL)
    assert response.context["closes"] == []
    assert client.post(url(league), dict(response.context["save_inputs"])).status_code == 303
    assert SeasonBill.objects.count() == 1


def test_a_member_sees_a_shared_split_but_cannot_save_it(client, league, people, at_round_end):
    client.force_login(people[Role.SCOREKEEPER])
    seen = dict(client.get(url(league), BILL).context["save_inputs"])
    client.force_login(people[Role.MEMBER])
    response = client.get(url(league), BILL)
    assert response.status_code == 200 and shares(response)
    assert 'name="seen"' not in response.content.decode()
    assert client.post(url(league), seen).status_code == 403
    assert not SeasonBill.objects.exists()


def test_outsiders_neither_see_nor_save_a_split(client, league, people, at_round_end):
    client.force_login(people[Role.SCOREKEEPER])
    seen = dict(client.get(url(league), BILL).context["save_inputs"])
    client.logout()
    response = client.get(url(league), BILL)
    assert response.status_code == 302 and reverse("login") in response["Location"]
    assert client.post(url(league), seen).status_code == 302
    client.force_login(member(LeagueFactory(), Role.ADMIN))
    assert client.get(url(league), BILL).status_code == 404
    assert client.post(url(league), seen).status_code == 404
    assert not SeasonBill.objects.exists()
