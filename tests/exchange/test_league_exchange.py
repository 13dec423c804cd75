"""A league's data out and in: the export holds everything as entered; importing
it gives identical standings, sheets and bills (round trip on the demo league); bad files are
refused naming where, with nothing stored; who may export and import."""

import copy
import csv
import io
import json
import uuid
from io import StringIO

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.urls import reverse

from leagues.exchange import league_file as exchange
from leagues.management.commands.seed_demo import SLUG
from leagues.models import Hand, HandResult, League, Role
from leagues.seasons import selectors
from leagues.table import services
from tests.exchange.files import exported, imported
from tests.factories import LeagueFactory, UserFactory, member

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo():
    call_command("seed_demo", "--if-empty", stdout=StringIO())
    return League.objects.get(slug=SLUG)


def tables(league):
    """Every season's table, as (name, total, games, wins, solos, solos_won, rank)."""
    return {
        s.number: [
            (r.player.name, r.total, r.games, r.wins, r.solos, r.solos_won, r.rank)
            for r in selectors.season_table(season=s)
        ]
        for s in league.seasons.order_by("number")
    }


def sheets(league):
    """Every cached result: (date, hand, player, delta, total, won, round)."""
    return sorted(
        HandResult.objects.filter(league=league).values_list(
            "meeting__date", "number", "player__name", "delta", "total", "won", "round"
        )
    )


def without_people_and_names(export):
    """An export without what an import cannot keep: accounts, the league's name and address,
    the time of the export and when each meeting row was created."""
    data = copy.deepcopy(export)
    for key in ("exported_at",):
        data.pop(key)
    data["league"].pop("name")
    data["league"].pop("slug")
    for season in data["seasons"]:
        for item in season["reopenings"]:
            item.pop("reopened_by")
        for bill in season["bills"]:
            bill.pop("settled_by")
    for night in data.get("club_nights", []):
        night.pop("created_by")
    for tournament in data.get("tournaments", []):
        tournament.pop("created_by")
    for meeting in data["meetings"]:
        meeting.pop("closed_by")
        meeting.pop("created_at")
        for item in meeting["reopenings"]:
            item.pop("reopened_by")
        for hand in meeting["hands"]:
            hand.pop("entered_by")
            for record in hand["history"]:
                record.pop("by")
    return data


def test_the_demo_league_round_trips(demo):
    export = exported(demo)
    user = UserFactory(username="neu")
    copied = imported(export, user=user, name="Kopie", slug="kopie")
    assert tables(copied) == tables(demo)
    assert sheets(copied) == sheets(demo)
    original_bill = demo.seasons.get(number=1).bills.current().get()
    copied_bill = copied.seasons.get(number=1).bills.current().get()
    assert copied_bill.shares == original_bill.shares and copied_bill.transfers == original_bill.transfers
    assert copied_bill.total_with_tip == original_bill.total_with_tip
    assert copied.seasons.get(number=1).locked_at == demo.seasons.get(number=1).locked_at
    # What was entered is all there: exporting the copy gives the same file.
    again = exported(copied)
    assert without_people_and_names(again) == without_people_and_names(export)
    # The importer is the admin; no account of this instance is linked to the players.
    assert copied.memberships.get().user == user and copied.memberships.get().role == Role.ADMIN
    assert not copied.players.filter(user__isnull=False).exists()


def test_an_offline_hands_conflict_choice_survives_the_round_trip(demo):
    # A hand discarded after a conflict is kept deleted, its history saying why.
    meeting = demo.meetings.order_by("-date").first()
    scorekeeper = demo.memberships.filter(role=Role.ADMIN).first().user
    taken = Hand.objects.filter(meeting=meeting).live().order_by("position").first()
    services.discard_offline_hand(
        meeting=meeting, payload=taken.payload, by=scorekeeper, key=uuid.uuid4(), entered_as=1
    )
    export = exported(demo)
    reasons = [r["reason"] for m in export["meetings"] for h in m["hands"] for r in h["history"] if r["reason"]]
    assert reasons == ["outbox:discard:1"]
    copied = imported(export, user=UserFactory(username="neu"), name="Kopie", slug="kopie")
    kept = Hand.history.filter(meeting__league=copied).exclude(history_change_reason=None)
    assert list(kept.values_list("history_change_reason", flat=True)) == ["outbox:discard:1"]


def test_a_reason_longer_than_its_column_is_refused_naming_where(demo):
    export = exported(demo)
    export["meetings"][0]["hands"][0]["history"][0]["reason"] = "x" * 101
    with pytest.raises(exchange.ImportProblem) as error:
        imported(export, user=UserFactory(), name="X", slug="x")
    assert error.value.errors[0]["message"].startswith("meetings[1].hands[1].history[1].reason")


def test_the_csv_has_a_row_per_live_hand_with_each_players_delta_and_total(demo):
    rows = list(csv.DictReader(io.StringIO("".join(exchange.export_csv(league=demo)))))
    live = Hand.objects.filter(meeting__league=demo).live().count()
    assert len(rows) == live
    first = rows[0]
    # The first hand of the first evening: each player's total equals his delta.
    seated = [k[: -len(" delta")] for k, v in first.items() if k.endswith(" delta") and v != ""]
    assert seated and all(first[f"{n} delta"] == first[f"{n} total"] for n in seated)
    assert sum(int(first[f"{n} delta"]) for n in seated) == 0  # Doppelkopf sums to zero


def test_a_broken_file_is_refused_naming_where_and_nothing_is_stored(demo):
    export = exported(demo)
    broken = copy.deepcopy(export)
    broken["meetings"][2]["hands"][0]["payload"] = {"kind": "normal", "re": ["Nobody", "Else"], "re_eyes": 130}
    before = League.objects.count()
    with pytest.raises(exchange.ImportProblem) as error:
        imported(broken, user=UserFactory(), name="Kaputt", slug="kaputt")
    assert error.value.errors[0]["field"] == "file"
    assert error.value.errors[0]["message"].startswith("meetings[3]")
    assert League.objects.count() == before
    with pytest.raises(exchange.ImportProblem) as error:
        imported({"format": "something else"}, user=UserFactory(), name="X", slug="x")
    assert "format" in error.value.errors[0]["message"]
    missing = copy.deepcopy(export)
    del missing["meetings"][0]["seats"]
    with pytest.raises(exchange.ImportProblem) as error:
        imported(missing, user=UserFactory(), name="X", slug="x")
    assert error.value.errors[0]["message"].startswith("meetings[1].seats")


# --- the pages and the API ----------------------------------------------------------------


def test_who_may_export(client):
    league = LeagueFactory()
    urls = [
        reverse("league_export_json", kwargs={"slug": league.slug}),
        reverse("league_export_csv", kwargs={"slug": league.slug}),
    ]
    api = reverse("api_league_export", kwargs={"slug": league.slug})
    for url in urls:
        assert client.get(url).status_code == 302  # anonymous: to log in
    assert client.get(api).status_code in (401, 403)
    client.force_login(member(LeagueFactory(), Role.ADMIN))
    assert [client.get(u).status_code for u in [*urls, api]] == [404, 404, 404]
    client.force_login(member(league))
    responses = [client.get(u) for u in [*urls, api]]
    assert [r.status_code for r in responses] == [200, 200, 200]
    assert responses[0]["Content-Disposition"].startswith("attachment;")
    assert json.loads(responses[2].getvalue())["format"] == exchange.FORMAT


def upload(data):
    return SimpleUploadedFile("league.json", json.dumps(data).encode(), content_type="application/json")


def test_a_member_imports_an_export_as_a_new_league(client, demo):
    export = exported(demo)
    assert client.get(reverse("league_import")).status_code == 302  # anonymous: to log in
    client.force_login(UserFactory())
    assert client.get(reverse("league_import")).status_code == 200
    response = client.post(reverse("league_import"), {"file": upload(export), "name": "Unser Stammtisch"})
    assert response.status_code == 302
    copied = League.objects.get(name="Unser Stammtisch")
    # Next he says whom he plays as (tests/exchange/test_import_plays_as.py).
    assert response["Location"] == reverse("league_plays_as", kwargs={"slug": copied.slug})
    assert tables(copied) == tables(demo)


def test_an_import_that_does_not_fit_is_a_400_on_the_file(client, demo):
    client.force_login(UserFactory())
    bad = SimpleUploadedFile("league.json", b"not json", content_type="application/json")
    response = client.post(reverse("league_import"), {"file": bad, "name": "X"})
    assert response.status_code == 400 and "file" in response.context["form"].errors
    response = client.post(reverse("league_import"), {"file": upload({"format": "x"}), "name": "X"})
    assert response.status_code == 400 and "file" in response.context["form"].errors
    response = client.post(reverse("league_import"), {"file": upload(exported(demo)), "name": "X", "slug": SLUG})
    assert response.status_code == 400 and "slug" in response.context["form"].errors
    assert not League.objects.filter(name="X").exists()
