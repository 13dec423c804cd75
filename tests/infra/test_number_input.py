"""Numbers typed by a person are ASCII digits (scoring/numbers.py) within the documented ranges,
on every form and view that reads one: house rules, carried scores, the bill, the season in
the standings' address, the hand-entry forms. "١٢٣" and "１２３" are not 123."""

import datetime

import pytest
from django.urls import reverse

from leagues.models import League, Meeting, Player, Role
from leagues.table.hand_entry import doppelkopf, fifty_six, maw, thousand
from tests.factories import LeagueFactory, PlayerFactory, member
from tests.form_posts import post
from tests.stats.test_standings_queries import two_meetings
from tests.table import test_hand_entry_doppelkopf as dk_entry
from tests.table import test_hand_entry_fifty_six as ff_entry
from tests.table import test_hand_entry_maw as maw_entry
from tests.table import test_hand_entry_thousand as th_entry

UNICODE_DIGITS = ["١٢٣", "１２３", "१२३"]  # Arabic-Indic, full width, Devanagari: 123

pytestmark = pytest.mark.django_db


# --- house rules ---------------------------------------------------------------------------------


def rules_post(league, **changes):
    """The rules form of ``league`` as a browser posts it, with ``changes``."""
    from leagues.clubs.forms import RulesForm
    from scoring.registry import get_game

    form = RulesForm(spec=get_game(league.game), preset=league.variant)
    data = {"variant": league.variant}
    for name, field in form.fields.items():
        value = form.initial.get(name, field.initial)
        if isinstance(value, list):
            data[f"rule-{name}"] = value
        elif isinstance(value, bool):
            if value:
                data[f"rule-{name}"] = "on"
        else:
            data[f"rule-{name}"] = "" if value is None else str(value)
    data.update({f"rule-{k}": v for k, v in changes.items()})
    return data


@pytest.fixture
def spoil_five(client):
    league = LeagueFactory(game="spoil_five", variant="standard")
    client.force_login(member(league, Role.ADMIN))
    return league


def test_the_rules_form_as_posted_unchanged_is_accepted(client, spoil_five):
    response = client.post(reverse("rules_edit", kwargs={"slug": spoil_five.slug}), rules_post(spoil_five))
    assert response.status_code == 302


@pytest.mark.parametrize("value", [*UNICODE_DIGITS, str(2**31), "9" * 4301, "1001", "-1"])
def test_a_stake_that_is_not_an_ascii_number_in_range_is_refused_on_its_field(client, spoil_five, value):
    data = rules_post(spoil_five, stake=value)
    response = client.post(reverse("rules_edit", kwargs={"slug": spoil_five.slug}), data)
    assert response.status_code == 400
    assert response.context["rules_form"].errors["stake"]
    spoil_five.refresh_from_db()
    assert spoil_five.rule_overrides == {}


def test_the_rules_form_shows_each_options_range(client, spoil_five):
    page = client.get(spoil_five.get_absolute_url()).content.decode()
    assert 'name="rule-stake"' in page
    stake = page.split('name="rule-stake"')[0].rsplit("<input", 1)[1] + page.split('name="rule-stake"')[1].split(">")[0]
    assert 'min="0"' in stake and 'max="1000"' in stake
    assert "From 0 to 1000." in page


def test_a_pair_and_a_mapping_take_their_range_too(client):
    league = LeagueFactory(game="auction_45", variant="barker")
    client.force_login(member(league, Role.ADMIN))
    data = rules_post(league, **{"bid_30__0": "１２０", "bid_30__1": "-5000"})
    response = client.post(reverse("rules_edit", kwargs={"slug": league.slug}), data)
    assert response.status_code == 400
    errors = response.context["rules_form"].errors
    assert errors["bid_30__0"] and errors["bid_30__1"]

    league = LeagueFactory(game="thousand", variant="koenigsberg")
    client.force_login(member(league, Role.ADMIN))
    data = rules_post(league, **{"marriage_values__hearts": "1001"})
    response = client.post(reverse("rules_edit", kwargs={"slug": league.slug}), data)
    assert response.status_code == 400
    assert response.context["rules_form"].errors["marriage_values__hearts"]


def test_creating_a_league_refuses_a_rule_beyond_64_bits(client):
    client.force_login(member(LeagueFactory(), Role.ADMIN))
    league = League(game="thousand", variant="koenigsberg")
    data = {"name": "Tausender", "slug": "", "game": "thousand", **rules_post(league, target=str(2**64))}
    response = client.post(reverse("league_create"), data)
    assert response.status_code == 400
    assert not League.objects.filter(name="Tausender").exists()


# --- carried scores when a meeting starts ----------------------------------------------------------


@pytest.fixture
def thousand_league(client):
    league = LeagueFactory(game="thousand", variant="koenigsberg")
    for name in ("Anna", "Ben", "Carl"):
        PlayerFactory(league=league, name=name)
    client.force_login(member(league, Role.SCOREKEEPER))
    return league


def start(client, league, score):
    players = list(league.players.filter(name__in=["Anna", "Ben", "Carl"]).order_by("name"))
    data = {"players": [str(p.pk) for p in players], "date": "2026-11-20", f"start_{players[0].pk}": score}
    return client.post(reverse("meeting_start", kwargs={"slug": league.slug}), data)


@pytest.mark.parametrize("score", [*UNICODE_DIGITS, "9" * 25, "-" + "9" * 4301])
def test_carried_scores_are_ascii_whole_numbers(client, thousand_league, score):
    response = start(client, thousand_league, score)
    assert response.status_code == 400
    assert "whole numbers only" in response.context["errors"]["start_totals"]
    assert not Meeting.objects.exists()


@pytest.mark.parametrize("score", [str(2**70)[:18], "-1000001"])
def test_carried_scores_beyond_a_million_are_refused(client, thousand_league, score):
    # 2**70 used to be stored, and the API's JSON of the meeting then failed with a 500.
    response = start(client, thousand_league, score)
    assert response.status_code == 400
    assert response.context["errors"]["start_totals"]
    assert not Meeting.objects.exists()


def test_a_player_id_in_other_digits_is_not_that_player(client, thousand_league):
    anna = thousand_league.players.get(name="Anna")
    digits = str(anna.pk).translate(str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩"))
    ids = [digits] + [str(p.pk) for p in thousand_league.players.filter(name__in=["Ben", "Carl"])]
    data = {"players": ids, "date": "2026-11-20"}
    response = client.post(reverse("meeting_start", kwargs={"slug": thousand_league.slug}), data)
    assert response.status_code == 400
    assert response.context["errors"]["players"]


# --- the bill page -----------------------------------------------------------------------------------


@pytest.fixture
def closed_season(client):
    league = LeagueFactory()
    two_meetings(league)  # Ben 5, Anna 1, Emil 0, Carl 0, Dora -6
    league.seasons.update(closed_on=datetime.date(2026, 2, 13))
    client.force_login(member(league, Role.SCOREKEEPER))
    return league


def bill_url(league):
    return reverse("season_bill", kwargs={"slug": league.slug, "number": 1})


def test_the_bill_takes_a_german_decimal_comma(client, closed_season):
    response = client.get(bill_url(closed_season), {"total": "187,40", "method": "equal", "tip_percent": "2,5"})
    assert response.status_code == 200
    # 187.40 and 2.5 % (4.685, rounded half up to 4.69) is 192.09
    assert response.context["result"]["total"] == "192.09"


@pytest.mark.parametrize(
    "field, value",
    [
        ("total", "１００"),
        ("total", "١٠٠"),
        ("total", "9" * 4301),
        ("total", "1000000.01"),
        ("total", "1,000"),  # on an English page 1000 or 1.000: refused as ambiguous
        ("tip_percent", "١٠"),
        ("cents_per_point", "١٠"),
        ("cents_per_point", "10000.01"),
    ],
)
def test_the_bill_refuses_other_digits_and_amounts_beyond_the_limits(client, closed_season, field, value):
    data = {"total": "100", "method": "per_point", field: value}
    response = client.post(bill_url(closed_season), data)
    assert response.status_code == 400
    assert response.context["form"].errors[field]


def test_what_one_paid_is_read_the_same_way(client, closed_season):
    anna = Player.objects.get(league=closed_season, name="Anna")
    data = {"total": "100", "method": "equal", "paid_by": "several", f"paid_{anna.pk}": "١٠٠"}
    response = client.post(bill_url(closed_season), data)
    assert response.status_code == 400
    assert response.context["form"].errors[f"paid_{anna.pk}"]


# --- the season in the standings' address -----------------------------------------------------------


@pytest.mark.parametrize("season", ["١", "１", "9" * 5000])
def test_a_season_in_other_digits_is_a_400(client, closed_season, season):
    response = client.get(reverse("standings", kwargs={"slug": closed_season.slug}), {"season": season})
    assert response.status_code == 400


def test_a_season_number_beyond_the_database_is_a_404(client, closed_season):
    response = client.get(reverse("standings", kwargs={"slug": closed_season.slug}), {"season": "9" * 18})
    assert response.status_code == 404


# --- the hand-entry forms ------------------------------------------------------------------------------


@pytest.mark.parametrize("digits", UNICODE_DIGITS)
def test_no_hand_form_reads_other_digits(digits):
    _payload, errors = doppelkopf.payload_from_post(
        post(kind="normal", re=["Ben", "Dora"], eyes=digits, eyes_for="re"),
        players=dk_entry.PLAYERS,
        result=dk_entry.result_for(),
    )
    assert errors.get("re_eyes")

    _payload, errors = thousand.payload_from_post(
        post(declarer="Ben", bid=digits, **{"points:Ben": "60", "points:Carl": "30", "points:Dora": "30"}),
        players=th_entry.PLAYERS,
        result=th_entry.result_for(),
    )
    assert errors.get("bid")
    _payload, errors = thousand.payload_from_post(
        post(declarer="Ben", bid="5", **{"points:Ben": digits, "points:Carl": "30", "points:Dora": "30"}),
        players=th_entry.PLAYERS,
        result=th_entry.result_for(),
    )
    assert errors.get("points")

    for name in ("bid", "bidder_team_points", "double"):
        data = {"bidder": "Anna", "bid": "30", "trump": "clubs", "double": "0", "bidder_team_points": "30"}
        _payload, errors = fifty_six.payload_from_post(
            post(**{**data, name: digits}), players=ff_entry.PLAYERS, result=ff_entry.result_for()
        )
        assert errors.get(name), name

    _payload, errors = maw.payload_from_post(
        post(bidder="Ben", bid=digits, **maw_entry.tricks("Ben", "Ben", "Anna", "Ben", "Carl"), top_trump_trick="2"),
        players=maw_entry.PLAYERS,
        result=maw_entry.result_for("one_ten"),
    )
    assert errors.get("bid")


# --- the hand's number and version, on the API and the hand form -----------------------------------

FIVE = ["Anna", "Ben", "Carl", "Dora", "Emil"]
HAND = {"kind": "normal", "re": ["Ben", "Dora"], "re_eyes": 131}


@pytest.fixture
def meeting(client):
    from tests.factories import meeting_for

    meeting = meeting_for(LeagueFactory(slug="dk"), FIVE)
    client.force_login(member(meeting.league, Role.SCOREKEEPER))
    return meeting


@pytest.mark.parametrize("number", ["١", "１"])
def test_the_api_reads_a_hand_number_in_ascii_digits_only(client, meeting, number):
    path = f"/api/v1/leagues/dk/meetings/{meeting.pk}/hands/"
    response = client.post(path, {"number": number, "payload": HAND}, content_type="application/json")
    assert response.status_code == 400
    assert [e["field"] for e in response.json()["errors"]] == ["number"]
    response = client.post(path, {"number": "1", "payload": HAND}, content_type="application/json")
    assert response.status_code == 201


def test_the_hand_form_reads_the_expected_hand_in_ascii_digits_only(client, meeting):
    url = reverse("hand_add_hx", kwargs={"slug": "dk", "pk": meeting.pk})
    data = {"expected_hand": "١", "kind": "normal", "re": ["Ben", "Dora"], "eyes": "131", "eyes_for": "re"}
    response = client.post(url, data)
    assert response.status_code == 400
    assert not meeting.hands.exists()
