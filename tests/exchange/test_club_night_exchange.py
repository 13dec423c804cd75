"""Club nights in the league's data out and in: the JSON export carries each night (date, host,
how its tables are combined, who opened it) and each table's night and number, and the
league's choice of how to combine; an import makes them again, all or nothing, and refuses a
night that the app could not have opened, naming the place in the file. The CSV names each
hand's table."""

import copy
import csv
import datetime
import io

import pytest
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import pgettext

from leagues.exchange import league_file as exchange
from leagues.models import ClubNight, Combine, League, Meeting, MeetingResult, Player, Role
from leagues.table import night_selectors, night_winner
from leagues.table import services as table_services
from leagues.tournaments import services as tournaments
from tests.exchange.files import exported, imported
from tests.exchange.test_league_exchange import sheets, tables, upload, without_people_and_names
from tests.factories import LeagueFactory, UserFactory, meeting_for, member, night_for

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 11, 20)
FIRST = ["Anna", "Ben", "Carl", "Dora"]
SECOND = ["Emil", "Fritz", "Gabi", "Hans"]


def won_by(*re):
    return {"kind": "normal", "re": list(re), "re_eyes": 131}


@pytest.fixture
def league():
    """An evening at one table, then a club night of two tables hosted by Hans (at table 2),
    its tables combined by placings, a hand at each and table 1 closed; the league has since
    chosen points per game for the nights to come."""
    league = LeagueFactory(slug="club", game="doppelkopf", variant="club", combine_tables=Combine.PLACINGS)
    keeper = member(league, Role.SCOREKEEPER, first_name="Kurt")
    before = meeting_for(league, FIRST + ["Emil"], date=DAY - datetime.timedelta(days=7))
    table_services.enter_hand(meeting=before, payload=won_by("Ben", "Dora"), by=keeper)
    closed(before, keeper)
    night = night_for(league, [FIRST, SECOND], date=DAY, host="Hans", user=keeper)
    first, second = night.tables.order_by("table_number")
    table_services.enter_hand(meeting=first, payload=won_by("Ben", "Dora"), by=keeper)
    table_services.enter_hand(meeting=second, payload=won_by("Emil", "Gabi"), by=keeper)
    closed(first, keeper)
    League.objects.filter(pk=league.pk).update(combine_tables=Combine.PER_GAME)
    league.refresh_from_db()
    return league


def closed(meeting, user):
    """The evening closed (a round of Doppelkopf would take four hands)."""
    Meeting.objects.filter(pk=meeting.pk).update(closed_at=timezone.now(), closed_by=user)


def copy_of(data, slug="kopie"):
    return imported(data, user=UserFactory(username=f"neu-{slug}"), name="Kopie", slug=slug)


def standings(night):
    return [
        (r.place, r.name, r.table, r.score, r.points, r.games) for r in night_selectors.night_standings(night=night)
    ]


# --- out and in -------------------------------------------------------------------------------


def test_the_export_carries_the_night_and_each_tables_place_in_it(league):
    export = exported(league)
    assert export["league"]["combine_tables"] == "per_game"
    assert export["club_nights"] == [
        {
            "date": "2026-11-20",
            "host": "Hans",
            "combine": "placings",
            "created_by": "Kurt",
            # a club's own night: no tournament's round
            "tournament": None,
            "round_number": None,
        }
    ]
    assert [(m["date"], m["club_night"], m["table_number"]) for m in export["meetings"]] == [
        ("2026-11-13", None, None),
        ("2026-11-20", 1, 1),
        ("2026-11-20", 1, 2),
    ]


def test_an_import_makes_the_night_again_with_its_tables_host_and_standings(league):
    copied = copy_of(exported(league))
    night = ClubNight.objects.get(league=copied)
    original = ClubNight.objects.get(league=league)
    assert (night.date, night.host.name, night.combine) == (DAY, "Hans", Combine.PLACINGS)
    assert copied.combine_tables == Combine.PER_GAME
    first, second = night.tables.order_by("table_number")
    # Every table is hosted by the night's host, Hans, who sits at table 2 only: the host
    # rotation counts the night once.
    assert [(t.table_number, t.host.name, t.season_id) for t in (first, second)] == [
        (1, "Hans", night.season_id),
        (2, "Hans", night.season_id),
    ]
    assert first.closed_at is not None and second.closed_at is None
    assert standings(night) == standings(original)
    assert tables(copied) == tables(league) and sheets(copied) == sheets(league)
    # The night's creator is named in the file, but no account of this site is his.
    assert night.created_by is None


def test_the_nights_winner_comes_back_once_every_table_is_closed(league):
    night = ClubNight.objects.get(league=league)
    closed(night.tables.get(table_number=2), None)
    night_winner.keep_night_winners(night_ids=[night.pk])  # as closing its last table does
    # Placings: Ben and Dora (Re, +1) have two behind and one level at table 1: 5/2; Emil and
    # Gabi the same at table 2, who come after table 1 on a tie; the first wins the evening.
    winners = MeetingResult.objects.filter(won_evening=True, meeting__club_night__isnull=False)
    assert list(winners.filter(league=league).values_list("player__name", flat=True)) == ["Ben"]
    copied = copy_of(exported(league))
    assert list(winners.filter(league=copied).values_list("player__name", flat=True)) == ["Ben"]


def test_the_night_round_trips(league):
    export = exported(league)
    again = exported(copy_of(export))
    assert without_people_and_names(again) == without_people_and_names(export)
    assert again["club_nights"][0]["created_by"] is None  # who opened it: see the test above


def test_an_export_without_nights_has_empty_fields_only():
    league = LeagueFactory(slug="one-table")
    meeting_for(league, FIRST)
    export = exported(league)
    assert export["club_nights"] == [] and export["league"]["combine_tables"] == "points"
    assert (export["meetings"][0]["club_night"], export["meetings"][0]["table_number"]) == (None, None)


def test_an_older_file_without_nights_imports_as_before():
    league = LeagueFactory(slug="old", combine_tables=Combine.PLACINGS)
    meeting_for(league, FIRST)
    export = exported(league)
    del export["club_nights"], export["league"]["combine_tables"]
    for meeting in export["meetings"]:
        del meeting["club_night"], meeting["table_number"]
    copied = copy_of(export)
    assert not ClubNight.objects.filter(league=copied).exists()
    assert copied.combine_tables == Combine.POINTS  # the default, as for a league founded today
    assert copied.meetings.get().club_night is None


# --- what an import refuses --------------------------------------------------------------------


def changed(export, change):
    broken = copy.deepcopy(export)
    change(broken)
    return broken


def _second_season(data):
    data["seasons"].append({"number": 2, "started_on": "2026-11-20", "reopenings": [], "bills": []})
    data["meetings"][2]["season"] = 2


def _without_night(data):
    for key in ("club_night", "table_number"):
        del data["meetings"][2][key]


REFUSED = [
    (
        "meetings[1].table_number",
        "a table number without a club night",
        lambda d: d["meetings"][0].update(table_number=1),
    ),
    ("meetings[2].club_night", "not the place of a club night", lambda d: d["meetings"][1].update(club_night=2)),
    ("meetings[2].club_night", "not the place of a club night", lambda d: d["meetings"][1].update(club_night=0)),
    ("meetings[2].club_night", "not the expected kind", lambda d: d["meetings"][1].update(club_night="1")),
    ("meetings[2].table_number", "missing", lambda d: d["meetings"][1].update(table_number=None)),
    ("meetings[2].table_number", "from 1 to", lambda d: d["meetings"][1].update(table_number=0)),
    ("meetings[3].table_number", "has a table 1 already", lambda d: d["meetings"][2].update(table_number=1)),
    ("meetings[3].date", "not the date of its club night", lambda d: d["meetings"][2].update(date="2026-11-21")),
    ("meetings[3].season", "in one season", _second_season),
    ("meetings[3].seats", "Ben sits at another table", lambda d: d["meetings"][2]["seats"].__setitem__(0, "Ben")),
    ("club_nights[1]", "two tables or more", _without_night),
    ("club_nights[1]", "two tables or more", lambda d: d["meetings"][2].update(table_number=3)),
    ("club_nights[2]", "two tables or more", lambda d: d["club_nights"].append(dict(d["club_nights"][0]))),
    ("club_nights[1].combine", "one of points, per_game, placings", lambda d: d["club_nights"][0].update(combine="x")),
    ("club_nights[1].combine", "missing", lambda d: d["club_nights"][0].pop("combine")),
    ("club_nights[1].host", "is not one of the players", lambda d: d["club_nights"][0].update(host="Nobody")),
    ("club_nights[1].date", "a date from", lambda d: d["club_nights"][0].update(date="1899-12-31")),
    ("club_nights[1].created_by", "not the expected kind", lambda d: d["club_nights"][0].update(created_by=7)),
    ("club_nights[1]", "an object was expected", lambda d: d["club_nights"].__setitem__(0, [])),
    ("club_nights", "not the expected kind", lambda d: d.update(club_nights={})),
    ("league.combine_tables", "one of points", lambda d: d["league"].update(combine_tables="by_luck")),
]


@pytest.mark.parametrize(("where", "message", "change"), REFUSED, ids=[f"{w} {m}" for w, m, _c in REFUSED])
def test_it_refuses_a_night_the_app_could_not_have_opened_naming_the_place(league, where, message, change):
    before = (League.objects.count(), ClubNight.objects.count(), Meeting.objects.count())
    with pytest.raises(exchange.ImportProblem) as error:
        copy_of(changed(exported(league), change))
    text = error.value.errors[0]["message"]
    assert text.startswith(f"{where}: ") and message in text, text
    assert (League.objects.count(), ClubNight.objects.count(), Meeting.objects.count()) == before


def test_the_import_page_answers_a_bad_night_with_a_400_naming_it(client, league):
    client.force_login(UserFactory())
    bad = changed(exported(league), lambda d: d["meetings"][2].update(table_number=1))
    response = client.post(reverse("league_import"), {"file": upload(bad), "name": "X"})
    assert response.status_code == 400
    assert "meetings[3].table_number" in " ".join(response.context["form"].errors["file"])
    assert not League.objects.filter(name="X").exists()


# --- the CSV --------------------------------------------------------------------------------


@pytest.mark.parametrize(("language", "delimiter"), [("en", ","), ("de", ";")])
def test_the_csv_names_each_hands_table_and_leaves_it_empty_for_one_table(league, language, delimiter):
    text = "".join(exchange.export_csv(league=league, language=language)).lstrip("\ufeff")
    rows = list(csv.reader(io.StringIO(text), delimiter=delimiter))
    with translation.override(language):  # the catalogue's word: "Tisch" in German
        host, table = pgettext("a CSV column", "host"), pgettext("a CSV column", "table")
    assert rows[0][2:4] == [host, table]
    assert [row[2:4] for row in rows[1:]] == [["Anna", ""], ["Hans", "1"], ["Hans", "2"]]


def test_a_tournaments_round_travels_as_a_club_night_hosted_by_someone_who_does_not_play():
    league = LeagueFactory(slug="pokal", game="doppelkopf", variant="ddv")
    players = [Player.objects.create(league=league, name=name) for name in FIRST + SECOND]
    landlord = Player.objects.create(league=league, name="Wirt")
    tournament = tournaments.create_tournament(league=league, name="Pokal", format="ddv", rounds_planned=2)
    tournaments.register_players(tournament=tournament, players=players)
    night = tournaments.draw_round(tournament=tournament, date=DAY, host=landlord)
    first = night.tables.get(table_number=1)
    re = list(first.seats.order_by("position").values_list("player__name", flat=True))[:2]
    table_services.enter_hand(meeting=first, payload=won_by(*re), by=None)
    export = exported(league)
    assert export["club_nights"][0]["host"] == "Wirt"
    copied = copy_of(export)
    assert without_people_and_names(exported(copied)) == without_people_and_names(export)
    copied_night = ClubNight.objects.get(league=copied)
    # The round is round 1 of the tournament again (tests/exchange/test_tournament_exchange.py).
    assert (copied_night.tournament.name, copied_night.round_number) == ("Pokal", 1)
    assert standings(copied_night) == standings(night)
