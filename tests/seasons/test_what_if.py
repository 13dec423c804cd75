"""What if (issue 10 §4): a season recomputed read-only under other rules, beside the season as
played; nothing stored changes.

Doppelkopf, club rules, four players hosting in turn (as in test_season_closing). Each evening:
three plain wins of Anna and Carl (131 eyes, no calls: gewonnen 1, DDV 7.2.2 (a)), then Ben and
Dora win with "Re" said: gewonnen 1 + Re 2 (club: announcement_points 2) = 3.
As played, per evening: Anna, Carl +3 −3 = 0; Ben, Dora −3 +3 = 0.
With Re and Kontra worth 1: Ben and Dora −3 + 2 = −1, Anna and Carl +1 per evening.
"""

import datetime
import re
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from leagues.models import HandResult, Player, Role
from leagues.seasons import selectors
from leagues.seasons import services as seasons_services
from leagues.seasons.what_if import season_what_if
from leagues.table import services as table_services
from tests.factories import LeagueFactory, meeting_for, member

FOUR = ["Anna", "Ben", "Carl", "Dora"]
HOSTS = [FOUR[i:] + FOUR[:i] for i in range(4)]
DATES = [datetime.date(2026, 1, 9), datetime.date(2026, 2, 13), datetime.date(2026, 3, 13), datetime.date(2026, 4, 10)]
ANNA_CARL = {"kind": "normal", "re": ["Anna", "Carl"], "re_eyes": 131}
BEN_DORA_RE = {
    "kind": "normal",
    "re": ["Ben", "Dora"],
    "re_eyes": 131,
    "announcements": [{"party": "re", "call": "re"}],
}


@pytest.fixture
def league(db):
    return LeagueFactory(game="doppelkopf", variant="club")


@pytest.fixture
def people(league):
    people = {role: member(league, role) for role in (Role.ADMIN, Role.SCOREKEEPER, Role.MEMBER)}
    Player.objects.filter(league=league, user__isnull=False).update(active=False)
    return people


@pytest.fixture
def season(league, people):
    keeper = people[Role.SCOREKEEPER]
    for number in range(4):
        meeting = meeting_for(league, HOSTS[number], date=DATES[number], end_time=datetime.time(22, 0))
        for payload in (ANNA_CARL, ANNA_CARL, ANNA_CARL, BEN_DORA_RE):
            table_services.enter_hand(meeting=meeting, payload=payload, by=keeper)
    return meeting.season


def totals(table):
    return {row.player.name: row.total for row in table}


def test_under_its_own_rules_it_equals_the_stored_standings(season):
    result = season_what_if(season=season, variant="club", overrides={})
    stored = selectors.season_table(season=season)
    assert totals(result.played) == totals(result.what_if) == totals(stored) == dict.fromkeys(FOUR, 0)
    assert [(r.player.name, r.rank, r.wins) for r in result.played] == [(r.player.name, r.rank, r.wins) for r in stored]
    assert all(not e.changes and not e.problem for e in result.evenings)


def test_re_worth_one_point_changes_the_standings_and_nothing_stored(season):
    before = list(HandResult.objects.order_by("id").values_list("id", "delta", "total"))
    with CaptureQueriesContext(connection) as queries:
        result = season_what_if(season=season, variant="club", overrides={"announcement_points": 1})
    # (A statement sent for each of a few rows at once is logged as "5 times: INSERT ...".)
    statements = [re.sub(r"^\d+ times: ", "", q["sql"]) for q in queries]
    writes = [sql for sql in statements if sql.split()[0].upper() in ("INSERT", "UPDATE", "DELETE")]
    # Only the evenings' outcomes are kept, in the table of derived figures.
    assert writes and all('"leagues_derivedfigure"' in sql.split("(")[0] for sql in writes)
    assert list(HandResult.objects.order_by("id").values_list("id", "delta", "total")) == before
    # Four evenings: Anna and Carl +4, Ben and Dora −4; as played all 0.
    assert totals(result.what_if) == {"Anna": 4, "Carl": 4, "Ben": -4, "Dora": -4}
    assert totals(result.played) == dict.fromkeys(FOUR, 0)
    assert [(e.meeting.date, e.changes) for e in result.evenings][0] == (
        DATES[0],
        [("Anna", 0, 1), ("Ben", 0, -1), ("Carl", 0, 1), ("Dora", 0, -1)],
    )


def url(league, number=1):
    return reverse("season_what_if", kwargs={"slug": league.slug, "number": number})


def test_who_may_ask_what_if(client, season, people):
    assert client.get(url(season.league)).status_code == 302  # anonymous: to log in
    client.force_login(member(LeagueFactory(), Role.ADMIN))
    assert client.get(url(season.league)).status_code == 404
    client.force_login(people[Role.MEMBER])
    response = client.get(url(season.league))
    assert response.status_code == 200
    assert 'name="rule-announcement_points"' in response.content.decode()
    assert client.post(url(season.league)).status_code == 405


def test_the_page_shows_both_tables_and_the_stored_bill_split_by_both(client, season, people):
    # 100 € by points at 10 cents: as played everyone 0, so 25.00 each; what if: mean 0,
    # Anna and Carl 25 − 0.40 = 24.60, Ben and Dora 25.40.
    seasons_services.settle_bill(
        season=season, bill={"total": "100.00", "method": "per_point", "cents_per_point": "10"}, user=people[Role.ADMIN]
    )
    client.force_login(people[Role.MEMBER])
    response = client.get(url(season.league), {"variant": "club", "rule-announcement_points": "1"})
    assert response.status_code == 200, response.context["rules_form"].errors
    rows = {
        r["what_if"].player.name: (r["played"].total, r["what_if"].total) for r in response.context["result"].rows()
    }
    assert rows == {"Anna": (0, 4), "Carl": (0, 4), "Ben": (0, -4), "Dora": (0, -4)}
    bill = {name: (Decimal(a), Decimal(b)) for name, a, b in response.context["bill"]}
    assert bill == {
        "Anna": (Decimal("25.00"), Decimal("24.60")),
        "Carl": (Decimal("25.00"), Decimal("24.60")),
        "Ben": (Decimal("25.00"), Decimal("25.40")),
        "Dora": (Decimal("25.00"), Decimal("25.40")),
    }
    # Read-only: the stored bill is what it was.
    assert season.bills.current().get().shares == dict.fromkeys(["Anna", "Ben", "Carl", "Dora"], "25.00")


def test_a_bad_option_is_a_400_naming_the_field(client, season, people):
    client.force_login(people[Role.MEMBER])
    response = client.get(url(season.league), {"variant": "club", "rule-announcement_points": "lots"})
    assert response.status_code == 400
    assert "announcement_points" in response.context["rules_form"].errors


def test_a_season_without_an_evening_is_a_404(client, league, people):
    league.seasons.create(number=1, started_on=DATES[0])
    client.force_login(people[Role.MEMBER])
    assert client.get(url(league)).status_code == 404


@pytest.fixture
def two_sizes(db):
    """Two leagues of random valid Doppelkopf evenings carrying special rounds (the bench's
    builder): season 2 of two evenings and of six."""
    from tests.bench.build import build_league
    from tests.factories import UserFactory

    user = UserFactory(username="what-if-sizes")
    built = {}
    for label, evenings in (("small", 2), ("big", 6)):
        for seed in range(40):  # the first seed whose evenings all replay
            try:
                ids = build_league(
                    slug=f"wi-{label}-{seed}", seasons=2, meetings=evenings, hands=8, carry=True, user=user, seed=seed
                )
                break
            except RuntimeError:
                continue
        built[label] = ids["slug"]
    return user, built


# --- each evening's outcome, kept (leagues.seasons.what_if, module docstring) ----------------


def figures(result):
    """Everything the page shows of a what-if, in plain values."""

    def table(rows):
        return [
            (r.player.name, r.rank, r.total, r.games, r.wins, r.solos, r.solos_won, r.games_won, r.points) for r in rows
        ]

    evenings = [
        (e.meeting.pk, list(e.played.items()), e.what_if and list(e.what_if.items()), e.problem)
        for e in result.evenings
    ]
    return table(result.played), table(result.what_if), evenings


def fresh(season, **asked):
    """The what-if worked out afresh, with nothing kept."""
    from leagues.stats import derived_cache

    derived_cache.clear()
    return season_what_if(season=season, **asked)


def kept_keys():
    from leagues.models import DerivedFigure

    return sorted(DerivedFigure.objects.filter(key__startswith="kl-what-if-").values_list("key", flat=True))


@pytest.fixture
def replays(monkeypatch):
    """The meetings the what-if replays, in order (by id)."""
    from leagues.table import replay

    seen = []
    real = replay.calculate_meeting

    def counted(meeting, **kwargs):
        seen.append(meeting.pk)
        return real(meeting, **kwargs)

    monkeypatch.setattr(replay, "calculate_meeting", counted)
    return seen


ASKED = {"variant": "club", "overrides": {"announcement_points": 1}}


def test_each_evening_is_kept_and_read_back_as_a_fresh_replay_gives_it(season, replays):
    first = season_what_if(season=season, **ASKED)
    assert len(replays) == 4 and len(kept_keys()) == 4
    again = season_what_if(season=season, **ASKED)
    assert len(replays) == 4  # nothing replayed: every evening read back
    assert figures(again) == figures(first) == figures(fresh(season, **ASKED))
    assert totals(again.what_if) == {"Anna": 4, "Carl": 4, "Ben": -4, "Dora": -4}


def open_evenings(season, admin):
    from leagues.table.meetings import reopen_meeting

    meetings = list(season.meetings.order_by("date", "id"))
    for meeting in meetings:
        if meeting.closed_at is not None:
            reopen_meeting(meeting=meeting, user=admin, reason="a hand was written down wrong")
    return meetings


def correct(meeting, number, payload, by):
    hand = meeting.hands.live().get(number=number)
    table_services.change_hand(hand=hand, payload=payload, by=by, version=hand.version)


def test_a_correction_in_an_earlier_evening_changes_that_evening_and_every_later_one(season, people, replays):
    # Evening 1's Re game corrected to a fourth plain win of Anna and Carl: that evening Anna
    # and Carl +4, Ben and Dora −4, under either rules; the other three as before (what if:
    # Anna and Carl +1 each). What if: Anna 4 + 3 = 7; as played: Anna 4.
    meetings = open_evenings(season, people[Role.ADMIN])
    season_what_if(season=season, **ASKED)
    replays.clear()
    correct(meetings[0], 4, ANNA_CARL, people[Role.SCOREKEEPER])
    replays.clear()  # the writer's own replays
    result = season_what_if(season=season, **ASKED)
    assert replays == [m.pk for m in meetings]  # the marks chain: evenings 2 to 4 too
    assert totals(result.what_if) == {"Anna": 7, "Carl": 7, "Ben": -7, "Dora": -7}
    assert totals(result.played) == {"Anna": 4, "Carl": 4, "Ben": -4, "Dora": -4}
    assert figures(result) == figures(fresh(season, **ASKED))
    # A correction in evening 3 replays evenings 3 and 4 alone.
    correct(meetings[2], 4, ANNA_CARL, people[Role.SCOREKEEPER])
    season_what_if(season=season, **ASKED)
    replays.clear()
    correct(meetings[2], 4, BEN_DORA_RE, people[Role.SCOREKEEPER])
    replays.clear()
    result = season_what_if(season=season, **ASKED)
    assert replays == [meetings[2].pk, meetings[3].pk]
    assert totals(result.what_if) == {"Anna": 7, "Carl": 7, "Ben": -7, "Dora": -7}


def test_two_rule_sets_are_kept_apart(season):
    other = {"variant": "club", "overrides": {}}
    for _round in range(2):
        assert totals(season_what_if(season=season, **ASKED).what_if) == {"Anna": 4, "Carl": 4, "Ben": -4, "Dora": -4}
        assert totals(season_what_if(season=season, **other).what_if) == dict.fromkeys(FOUR, 0)
    assert len(kept_keys()) == 8


def test_verify_replays_rebuild_and_clearing_the_table_forget_the_kept_outcomes(season):
    from django.core.management import call_command

    from leagues.stats import derived_cache

    before = figures(season_what_if(season=season, **ASKED))
    assert kept_keys()
    call_command("verify_replays", "--rebuild", stdout=None)  # nothing to mend: forgets them all the same
    assert kept_keys() == []
    season_what_if(season=season, **ASKED)
    assert kept_keys()
    derived_cache.clear()
    assert kept_keys() == []
    assert figures(season_what_if(season=season, **ASKED)) == before


def test_the_kept_page_reads_no_hand(client, two_sizes):
    """Its queries are counted in tests/test_query_counts.py."""
    user, built = two_sizes
    client.force_login(user)
    for slug in built.values():
        page = reverse("season_what_if", kwargs={"slug": slug, "number": 2})
        client.get(page, {"variant": "ddv"})  # keeps every evening
        with CaptureQueriesContext(connection) as queries:
            response = client.get(page, {"variant": "ddv"})
        assert response.status_code == 200 and len(response.context["result"].evenings) in (2, 6)
        assert not [q for q in queries if '"leagues_hand"' in q["sql"] or '"leagues_handresult"' in q["sql"]]


def test_kept_outcomes_equal_a_fresh_replay_after_random_changes(two_sizes):
    """The carrying league of six evenings a season: the last hand of a random evening of
    season 2 deleted, time after time (the rounds carried on may change with it), under DDV
    and under club rules with Re worth 1; after each, what is read back equals a fresh
    replay."""
    import random

    from leagues import exceptions
    from leagues.models import League

    user, built = two_sizes
    league = League.objects.get(slug=built["big"])
    season = league.seasons.get(number=2)
    meetings = open_evenings(season, user)
    rng = random.Random(7)
    asked = [{"variant": "ddv", "overrides": {}}, ASKED]
    deleted = 0
    for _step in range(6):
        kept = [figures(season_what_if(season=season, **a)) for a in asked]
        meeting = rng.choice(meetings)
        hand = list(meeting.hands.live())[-1]  # the seats the games after it are dealt to stay
        try:
            table_services.delete_hand(hand=hand, by=user, version=hand.version)
        except exceptions.InvalidInput:
            continue  # a later evening would no longer add up: refused, nothing changed
        deleted += 1
        read_back = [figures(season_what_if(season=season, **a)) for a in asked]
        assert read_back == [figures(fresh(season, **a)) for a in asked]
        assert read_back != kept
    assert deleted >= 3


def test_an_evening_whose_hands_change_while_it_is_read_is_shown_not_kept(season, people, monkeypatch):
    from leagues.seasons import what_if

    meetings = open_evenings(season, people[Role.ADMIN])
    real = what_if._read_evenings

    def with_a_correction_meanwhile(ids, players):
        correct(meetings[3], 4, ANNA_CARL, people[Role.SCOREKEEPER])
        return real(ids, players)

    monkeypatch.setattr(what_if, "_read_evenings", with_a_correction_meanwhile)
    shown = season_what_if(season=season, **ASKED)
    # Evening 4 replayed with the corrected hand, but kept under the mark of the hands before:
    # not kept. The evenings before it are.
    assert totals(shown.what_if) == {"Anna": 7, "Carl": 7, "Ben": -7, "Dora": -7}
    assert len(kept_keys()) == 3
    monkeypatch.setattr(what_if, "_read_evenings", real)
    assert figures(season_what_if(season=season, **ASKED)) == figures(fresh(season, **ASKED))
