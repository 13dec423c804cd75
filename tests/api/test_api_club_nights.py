"""Club nights in the API: every member reads a night (its tables and its combined standings,
scores as exact fractions), scorekeepers and admins open one through the service the pages
use; bad input is a 400 naming its field, and nothing is stored."""

import datetime
import json

import pytest
from django.urls import reverse

from leagues.models import ClubNight, Combine, Meeting, Player, Role
from leagues.table import services as table_services
from tests.factories import LeagueFactory, meeting_for, member, night_for

pytestmark = pytest.mark.django_db

FIVE = ["Anna", "Ben", "Carl", "Dora", "Emil"]
FOUR = ["Fritz", "Gabi", "Hans", "Ida"]
DAY = datetime.date(2026, 11, 20)


def won_by(*re):
    return {"kind": "normal", "re": list(re), "re_eyes": 131}


@pytest.fixture
def league():
    league = LeagueFactory(slug="dk", game="doppelkopf", variant="club", combine_tables=Combine.PLACINGS)
    for name in FIVE + FOUR:
        Player.objects.create(league=league, name=name)
    return league


@pytest.fixture
def night(league):
    """A night of two tables combined by placings, a hand at each: at table 1 (Anna deals and
    sits out) Re Ben and Dora win with 131 eyes, at table 2 Re Fritz and Gabi: 1 point each
    way (doppelkopf.md, "Game value": gewonnen 1)."""
    night = night_for(league, [FIVE, FOUR], date=DAY, host="Hans")
    first, second = night.tables.order_by("table_number")
    table_services.enter_hand(meeting=first, payload=won_by("Ben", "Dora"), by=None)
    table_services.enter_hand(meeting=second, payload=won_by("Fritz", "Gabi"), by=None)
    return night


def url(league, pk=None):
    if pk is None:
        return reverse("api_club_nights", kwargs={"slug": league.slug})
    return reverse("api_club_night", kwargs={"slug": league.slug, "pk": pk})


def post(client, league, body):
    return client.post(url(league), data=json.dumps(body), content_type="application/json")


def ids(league, *names):
    found = dict(Player.objects.filter(league=league).values_list("name", "pk"))
    return [found[name] for name in names]


def opening(league, **changes):
    """A valid body: Anna's five and Fritz's four, Hans hosting."""
    body = {"date": "2026-11-27", "host": ids(league, "Hans")[0], "tables": [ids(league, *FIVE), ids(league, *FOUR)]}
    return {**body, **changes}


def fields(response):
    return {e["field"] for e in response.json()["errors"]}


# --- reading ------------------------------------------------------------------------------------


def test_a_member_reads_the_tables_and_the_standings_combined_by_placings(client, league, night):
    client.force_login(member(league, Role.MEMBER))
    response = client.get(url(league, night.pk))
    assert response.status_code == 200
    body = response.json()
    first, second = night.tables.order_by("table_number")
    assert (body["date"], body["season"], body["host"]["name"], body["combine"]) == (
        "2026-11-20",
        1,
        "Hans",
        "placings",
    )
    assert body["tables"] == [
        {"number": 1, "meeting": first.pk, "players": FIVE, "closed_at": None},
        {"number": 2, "meeting": second.pk, "players": FOUR, "closed_at": None},
    ]
    # Placings (scoring/club_night.py): a point for each player at one's table who finished
    # behind, half a point for each one level. Table 1: Ben and Dora (+1) have Anna (0), Carl
    # and Emil (−1) behind and each other level: 3 + 1/2 = 7/2; Anna has Carl and Emil
    # behind: 2; Carl and Emil are level with each other: 1/2. Table 2: Fritz and Gabi have
    # two behind and one level: 5/2; Hans and Ida 1/2. Level scores and points share a place;
    # among them the lower table and seat come first.
    assert [(r["place"], r["player"]["name"], r["table"], r["score"], r["points"]) for r in body["standings"]] == [
        (1, "Ben", 1, "7/2", 1),
        (1, "Dora", 1, "7/2", 1),
        (3, "Fritz", 2, "5/2", 1),
        (3, "Gabi", 2, "5/2", 1),
        (5, "Anna", 1, "2", 0),
        (6, "Carl", 1, "1/2", -1),
        (6, "Emil", 1, "1/2", -1),
        (6, "Hans", 2, "1/2", -1),
        (6, "Ida", 2, "1/2", -1),
    ]
    assert body["standings"][0]["player"]["id"] == ids(league, "Ben")[0]


def test_a_tables_meeting_names_its_night_and_number_and_an_evening_at_one_table_none(client, league, night):
    client.force_login(member(league, Role.MEMBER))
    second = night.tables.get(table_number=2)
    body = client.get(reverse("api_meeting", kwargs={"slug": league.slug, "pk": second.pk})).json()
    assert (body["club_night"], body["table_number"], body["players"]) == (night.pk, 2, FOUR)
    alone = meeting_for(league, FOUR, date=DAY + datetime.timedelta(days=7))
    body = client.get(reverse("api_meeting", kwargs={"slug": league.slug, "pk": alone.pk})).json()
    assert (body["club_night"], body["table_number"]) == (None, None)


def test_who_may_not_read_a_night(client, league, night):
    assert client.get(url(league, night.pk)).status_code == 403  # not logged in
    client.force_login(member(LeagueFactory(), Role.ADMIN))
    assert client.get(url(league, night.pk)).status_code == 404  # another league's admin
    other = night_for(LeagueFactory(slug="other"), [FIVE, FOUR])
    client.force_login(member(league, Role.MEMBER))
    assert client.get(url(league, other.pk)).status_code == 404  # a night of another league
    assert client.get(url(league, 10**6)).status_code == 404


# --- opening ------------------------------------------------------------------------------------


@pytest.mark.parametrize("role", [Role.SCOREKEEPER, Role.ADMIN])
def test_a_scorekeeper_opens_a_night_through_the_service(client, league, role):
    user = member(league, role)
    client.force_login(user)
    response = post(client, league, opening(league, end_time="23:30", pennant_holder=ids(league, "Ida")[0]))
    assert response.status_code == 201, response.content
    night = ClubNight.objects.get(league=league)
    assert response["Location"] == url(league, night.pk)
    body = response.json()
    # Hans hosts: he deals first at his table, its seat order turned to start with him.
    assert [(t["number"], t["players"]) for t in body["tables"]] == [(1, FIVE), (2, ["Hans", "Ida", "Fritz", "Gabi"])]
    # Placings before the first hand: everyone level with each other at his table, half a
    # point for each: 4/2 at the table of five, 3/2 at the table of four.
    assert {(r["table"], r["score"]) for r in body["standings"]} == {(1, "2"), (2, "3/2")}
    assert (night.date, night.host.name, night.combine, night.created_by) == (
        datetime.date(2026, 11, 27),
        "Hans",
        Combine.PLACINGS,
        user,
    )
    first, second = night.tables.order_by("table_number")
    assert {first.host.name, second.host.name} == {"Hans"} and first.end_time == datetime.time(23, 30)
    assert (first.pennant_holder, second.pennant_holder.name) == (None, "Ida")  # kept at his table


def test_a_member_may_not_open_a_night_nor_an_outsider(client, league):
    body = opening(league)
    assert post(client, league, body).status_code == 403
    client.force_login(member(LeagueFactory(), Role.ADMIN))
    assert post(client, league, body).status_code == 404
    client.force_login(member(league, Role.MEMBER))
    assert post(client, league, body).status_code == 403
    assert not ClubNight.objects.exists() and not Meeting.objects.exists()


def _tables(p, last=None, *, second=None):
    """Anna's five and Fritz's four by id (``p``: name to id), Ida's seat taken by ``last``
    or the second table replaced by ``second``."""
    four = [p[name] for name in FOUR[:3]] + [p["Ida"] if last is None else last]
    return [[p[name] for name in FIVE], four if second is None else second]


# What is wrong: (the body's changes, given the players' ids by name; the field named).
BAD = {
    "no tables": (lambda p: {"tables": None}, "tables"),
    "one table": (lambda p: {"tables": _tables(p)[:1]}, "tables"),
    "a table of one": (lambda p: {"tables": _tables(p, second=[p["Fritz"]])}, "tables"),
    "a table of three": (lambda p: {"tables": _tables(p, second=[p["Fritz"], p["Gabi"], p["Hans"]])}, "tables"),
    "a table that is no list": (lambda p: {"tables": _tables(p, second=7)}, "tables"),
    "an id as text": (lambda p: {"tables": _tables(p, str(p["Ida"]))}, "tables"),
    "an id of nobody": (lambda p: {"tables": _tables(p, 10**6)}, "tables"),
    "a player of another league": (lambda p: {"tables": _tables(p, p["outsider"])}, "tables"),
    "a player at two tables": (lambda p: {"tables": _tables(p, p["Anna"])}, "tables"),
    "a host of nobody": (lambda p: {"host": 10**6}, "host"),
    "a host at no table": (lambda p: {"host": p["outsider_here"]}, "host"),
    "a host as true": (lambda p: {"host": True}, "host"),
    "30 February": (lambda p: {"date": "2026-02-30"}, "date"),
    "two years ahead": (lambda p: {"date": "2028-11-27"}, "date"),
    "25:61": (lambda p: {"end_time": "25:61"}, "end_time"),
    "a pennant of nobody": (lambda p: {"pennant_holder": 10**6}, "pennant_holder"),
    '"yes" for forgotten': (lambda p: {"pennant_forgotten": "yes"}, "pennant_forgotten"),
}


@pytest.mark.parametrize("what", list(BAD))
def test_bad_input_is_a_400_naming_the_field_and_stores_nothing(client, league, what):
    p = dict(Player.objects.filter(league=league).values_list("name", "pk"))
    p["outsider"] = Player.objects.create(league=LeagueFactory(), name="Zoe").pk
    p["outsider_here"] = Player.objects.create(league=league, name="Jan").pk  # at no table
    change, field = BAD[what]
    body = {key: value for key, value in opening(league, **change(p)).items() if value is not None}
    client.force_login(member(league, Role.SCOREKEEPER))
    response = post(client, league, body)
    assert response.status_code == 400, what
    assert field in fields(response), response.json()
    assert not ClubNight.objects.exists() and not Meeting.objects.exists()


def test_an_inactive_player_is_refused_at_a_table(client, league):
    Player.objects.filter(league=league, name="Ida").update(active=False)
    client.force_login(member(league, Role.SCOREKEEPER))
    response = post(client, league, opening(league))
    assert response.status_code == 400 and fields(response) == {"tables"}


def test_a_body_that_is_no_json_is_a_400(client, league):
    client.force_login(member(league, Role.SCOREKEEPER))
    response = client.post(url(league), data="{", content_type="application/json")
    assert response.status_code == 400 and response.json()["errors"][0]["message"]


def test_a_pennant_in_a_game_without_one_is_refused_naming_it(client):
    league = LeagueFactory(slug="tausend", game="thousand", variant="koenigsberg")
    for name in ("Anna", "Ben", "Carl", "Dora", "Emil", "Fritz"):
        Player.objects.create(league=league, name=name)
    client.force_login(member(league, Role.SCOREKEEPER))
    body = {"date": "2026-11-27", "host": ids(league, "Anna")[0], "tables": [ids(league, "Anna", "Ben", "Carl")]}
    body["tables"].append(ids(league, "Dora", "Emil", "Fritz"))
    response = post(client, league, {**body, "pennant_holder": ids(league, "Anna")[0]})
    assert response.status_code == 400 and fields(response) == {"pennant_holder"}
    assert post(client, league, body).status_code == 201  # the same night without the pennant


# --- a retry: the Idempotency-Key ---------------------------------------------------------------
# As the hand API's (leagues/api/headers.py): the same key and body answer the night opened
# first (200, as it is now); the same key with another body is a 409 naming the header.

KEY = "0b6f3f4e-9a3c-4c1e-8f7a-2d5e6b7c8d90"


def post_with_key(client, league, body, key=KEY):
    return client.post(url(league), data=json.dumps(body), content_type="application/json", HTTP_IDEMPOTENCY_KEY=key)


def test_a_retry_with_the_same_key_opens_one_night_and_answers_it_again(client, league):
    client.force_login(member(league, Role.SCOREKEEPER))
    first = post_with_key(client, league, opening(league))
    assert first.status_code == 201, first.content
    night = ClubNight.objects.get(league=league)
    # The answer was lost; the phone sends the same again, the key in another spelling, and
    # "pennant_forgotten": false, which the first body left to its default.
    again = post_with_key(client, league, opening(league, pennant_forgotten=False), key=KEY.upper())
    assert again.status_code == 200 and again["Location"] == first["Location"] == url(league, night.pk)
    assert again.json() == first.json()
    assert ClubNight.objects.count() == 1 and Meeting.objects.count() == 2


def test_a_retry_answers_the_night_as_it_is_now(client, league):
    client.force_login(member(league, Role.SCOREKEEPER))
    first = post_with_key(client, league, opening(league)).json()
    table = Meeting.objects.get(pk=first["tables"][1]["meeting"])
    # At table 2 (Hans, Ida, Fritz, Gabi; Hans deals and the four play) Re Ida and Fritz win: 1 point.
    table_services.enter_hand(meeting=table, payload=won_by("Ida", "Fritz"), by=None)
    again = post_with_key(client, league, opening(league))
    assert again.status_code == 200 and again.json()["id"] == first["id"]
    # Placings: Ida and Fritz share the top of table 2, 2½ each (2 behind, 1 level), Hans and
    # Gabi ½; table 1 unplayed, everyone level, 2 each.
    scores = {row["player"]["name"]: row["score"] for row in again.json()["standings"]}
    assert [scores[name] for name in ("Ida", "Fritz", "Hans", "Gabi", "Anna")] == ["5/2", "5/2", "1/2", "1/2", "2"]
    assert ClubNight.objects.count() == 1


@pytest.mark.parametrize(
    "change",
    [{"date": "2026-11-28"}, {"end_time": "23:30"}, {"pennant_forgotten": True}],
    ids=["another date", "an end time", "the pennant forgotten"],
)
def test_the_same_key_with_another_body_is_refused_naming_the_header(client, league, change):
    client.force_login(member(league, Role.SCOREKEEPER))
    assert post_with_key(client, league, opening(league)).status_code == 201
    response = post_with_key(client, league, opening(league, **change))
    assert response.status_code == 409 and fields(response) == {"Idempotency-Key"}
    assert "Idempotency-Key" in response.json()["errors"][0]["message"]
    assert ClubNight.objects.count() == 1


def test_the_same_key_with_other_tables_is_refused(client, league):
    client.force_login(member(league, Role.SCOREKEEPER))
    assert post_with_key(client, league, opening(league)).status_code == 201
    swapped = [ids(league, *FIVE), ids(league, "Hans", "Gabi", "Fritz", "Ida")]
    assert post_with_key(client, league, opening(league, tables=swapped)).status_code == 409
    assert ClubNight.objects.count() == 1


def test_a_key_of_another_league_is_another_night(client, league):
    """A key names one night of its league: the same UUID in another league opens its own."""
    other = LeagueFactory(slug="dk2", game="doppelkopf", variant="club")
    for name in FIVE + FOUR:
        Player.objects.create(league=other, name=name)
    user = member(league, Role.SCOREKEEPER)
    client.force_login(user)
    assert post_with_key(client, league, opening(league)).status_code == 201
    client.force_login(member(other, Role.SCOREKEEPER))
    assert post_with_key(client, other, opening(other)).status_code == 201
    assert ClubNight.objects.filter(idempotency_key=KEY).count() == 2


def test_without_a_key_each_opening_opens_a_night(client, league):
    client.force_login(member(league, Role.SCOREKEEPER))
    assert post(client, league, opening(league)).status_code == 201
    assert post(client, league, opening(league, date="2026-11-28")).status_code == 201
    assert ClubNight.objects.count() == 2 and ClubNight.objects.filter(idempotency_key=None).count() == 2


@pytest.mark.parametrize("key", ["not-a-uuid", "", "12345"])
def test_a_key_that_is_no_uuid_is_a_400_naming_the_header(client, league, key):
    client.force_login(member(league, Role.SCOREKEEPER))
    response = post_with_key(client, league, opening(league), key=key)
    assert response.status_code == 400 and fields(response) == {"Idempotency-Key"}
    assert not ClubNight.objects.exists()


def test_a_refused_opening_keeps_no_key(client, league):
    """A body refused (400) opens nothing and keeps nothing: the key stays free for the
    opening that works."""
    client.force_login(member(league, Role.SCOREKEEPER))
    assert post_with_key(client, league, opening(league, host=10**6)).status_code == 400
    assert post_with_key(client, league, opening(league)).status_code == 201
