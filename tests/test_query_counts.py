"""The queries of every page and every write, at two league sizes.

Each page kind and each write runs a fixed number of queries, the same in a small league as in
a bigger one (more seasons, more evenings, more hands an evening): what a request costs never
grows with the league's history. This module is the one place that counts them; the other
tests check what the pages show and the writes store.

Both leagues are built as `make bench-league` builds them (``tests/bench/build.py``: random
valid Doppelkopf evenings among five, club rules carrying the special rounds from one evening
to the next, with the cached results the real replay gives; every season but the last is
over, tonight's evening is ready for its next hand), once small and once bigger. They are
built once for the module; every test's own writes are rolled back after it.

``QUERIES`` holds each count, one line a page or write.
"""

import datetime
import re
import uuid

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from leagues.cashbox import services as cashbox_services
from leagues.cashbox import settlement
from leagues.clubs import services as clubs_services
from leagues.models import (
    CashboxEntry,
    ClubNight,
    Hand,
    League,
    Meeting,
    MeetingCarry,
    MeetingResult,
    Payment,
    Player,
    ScorerLink,
    Season,
)
from leagues.seasons import services as seasons_services
from leagues.stats import activity, derived_cache
from leagues.table import chain, nights, scorer_links, services
from leagues.table import meetings as table_meetings
from leagues.tournaments import services as tournament_services
from scoring.money_rules import resolve_money_rules
from tests.bench.build import NAMES, build_league
from tests.bench.league import normal_hand_form
from tests.factories import UserFactory, night_for

pytestmark = pytest.mark.django_db

# (seasons, evenings a season, hands an evening); the closed season has one before it at both
# sizes (its bill names the pennant's holder of the season before).
SIZES = {"small": (3, 2, 6), "big": (5, 4, 16)}
SEED = 3  # both leagues' tonight: the next hand changes what the evening leaves open

QUERIES = {
    # pages (every one: the session and its user first, but the public ones)
    "league page": 8,
    "meeting page": 8,
    "standings": 8,
    "public standings": 6,
    "public sheet": 3,
    "live page, unchanged poll": {"member": 3, "public": 1},  # a 304: the mark alone, nothing drawn
    # a club night of two tables: its members' page, its big screen (each table's board)
    "night page": 9,
    "a night's table's sheet": 6,  # no rounds carried in: the evening before is not read
    "night live page": {"member": 18, "public": 15},  # five a table
    "night, unchanged poll": {"page": 3, "screen": 3, "public screen": 1},  # one mark for every table
    "statistics": {"first ever": 16, "read again": 12, "after a hand tonight": 12},
    # the evenings played for money: their settlements, once, when they are first counted
    "statistics with money": {"first ever": 19, "read again": 12, "after a hand tonight": 12},
    "season statistics": {"first ever": 16, "read again": 12, "after a hand tonight": 12},
    "player statistics": {"first ever": 17, "read again": 13, "after a hand tonight": 13},
    "ratings": {"first ever": 13, "read again": 9, "after a hand tonight": 9},
    "activity": {"newest": 19, "older": 19},
    "season report": 12,  # with the season's evenings played for money (none here)
    "season report with money": 16,  # their settlements and the cashbox's sums
    "meeting history": 8,
    "bill page": {"page": 9, "split": 13},  # with what the cashbox can pay
    "what-if": {"first ever": 17, "read again": 10, "after a hand tonight": 16},
    "rule book": 3,
    "guest scorer's page": 6,  # no session: the link with its meeting and league, then the sheet
    "closed evening with money": 14,  # its settlement, and what earlier evenings leave open
    "club night start": {"proposal": 13, "start": 21},  # nine players at two tables
    "tournament page": 9,  # a round played, the next in play
    # writes
    "htmx hand entry": 19,
    "correction": 20,
    "later evenings a correction reaches": 10,  # their part of the correction
    "deletion": 21,
    "restore": 21,
    "API hand entry": 19,
    "guest scorer's hand entry": 17,  # the link, then as the htmx entry, whose answer is the table
    "API club night": {"read": 7, "opening": 24},  # a night of two tables; the opening answers with it
    "tick paid": 17,  # into the cashbox: the settlement re-derived under the lock, the entry
    "closing a club night's last table": 17,  # and with it the night: its winner marked
    "tournament draw": 36,  # three tables of four after a round played
}


@pytest.fixture(scope="module")
def leagues(django_db_setup, django_db_blocker):
    """{"small": ids, "big": ids} (the builder's ids) and their admin, who founded both."""
    with django_db_blocker.unblock():
        user = UserFactory(username="query-counts")
        built = {label: _built(label, size, user) for label, size in SIZES.items()}
        yield user, built
        League.objects.filter(slug__in=[ids["slug"] for ids in built.values()]).delete()
        user.delete()


def _built(label, size, user):
    seasons, evenings, hands = size
    return build_league(
        slug=f"qc-{label}", seasons=seasons, meetings=evenings, hands=hands, carry=True, user=user, seed=SEED
    )


@pytest.fixture(params=list(SIZES))
def league(request, leagues, client):
    """One of the two leagues, its admin logged in."""
    user, built = leagues
    client.force_login(user)
    return built[request.param]


def path(name, ids, **kwargs):
    return reverse(name, kwargs={"slug": ids["slug"], **kwargs})


def get(client, address, django_assert_num_queries, count, **params):
    with django_assert_num_queries(count):
        response = client.get(address, params)
    assert response.status_code == 200
    return response


def evenings_a_season(ids):
    return SIZES[ids["slug"].removeprefix("qc-")][1]


def next_hand(ids):
    return Hand.objects.filter(meeting_id=ids["entry_meeting"], deleted_at=None).count() + 1


def last_hand(ids):
    return Hand.objects.filter(meeting_id=ids["entry_meeting"], deleted_at=None).order_by("-position").first()


def corrected_tonight(ids, user):
    """Tonight's last hand deleted and restored, and a hand of the latest evening that has one
    won by the other party (its evening replays alike but for the scores)."""
    hand = last_hand(ids)
    hand = services.delete_hand(hand=hand, by=user, version=hand.version)
    services.restore_hand(hand=hand, by=user, version=hand.version)
    flip = ids["live_flip"]
    hand = Hand.objects.get(pk=flip["hand"])
    services.change_hand(hand=hand, payload=flip["payloads"][1], by=user, version=hand.version)


# --- pages -----------------------------------------------------------------------------------


def test_the_league_page_reads_the_same_queries_at_two_league_sizes(client, league, django_assert_num_queries):
    get(client, path("league", league), django_assert_num_queries, QUERIES["league page"])


def test_tonights_sheet_reads_the_same_queries_at_two_league_sizes(client, league, django_assert_num_queries):
    response = get(
        client, path("meeting", league, pk=league["entry_meeting"]), django_assert_num_queries, QUERIES["meeting page"]
    )
    assert response.content.decode().count('<tr id="hand-') == next_hand(league) - 1


def test_the_standings_read_the_same_queries_at_two_league_sizes(client, league, django_assert_num_queries):
    response = get(client, path("standings", league), django_assert_num_queries, QUERIES["standings"])
    assert len(response.context["s"].chart["labels"]) == evenings_a_season(league)


def test_the_public_standings_read_the_same_queries_at_two_league_sizes(client, league, django_assert_num_queries):
    client.logout()
    address = reverse("public_standings", kwargs={"token": league["token"]})
    get(client, address, django_assert_num_queries, QUERIES["public standings"])


def test_the_public_sheet_reads_the_same_queries_at_two_league_sizes(client, league, django_assert_num_queries):
    client.logout()
    address = reverse("public_meeting", kwargs={"token": league["token"], "pk": league["entry_meeting"]})
    response = get(client, address, django_assert_num_queries, QUERIES["public sheet"])
    assert len(response.context["rows"]) == next_hand(league) - 1


def test_an_unchanged_poll_of_the_live_page_reads_the_same_queries_at_two_league_sizes(
    client, league, django_assert_num_queries
):
    counts = QUERIES["live page, unchanged poll"]
    member_part = path("meeting_live_hx", league, pk=league["entry_meeting"])
    public_part = reverse("public_live_hx", kwargs={"token": league["token"], "pk": league["entry_meeting"]})
    for kind, address in (("member", member_part), ("public", public_part)):
        if kind == "public":
            client.logout()
        etag = client.get(address)["ETag"]
        with django_assert_num_queries(counts[kind]):
            response = client.get(address, HTTP_IF_NONE_MATCH=etag)
        assert response.status_code == 304, kind


def night_tonight(ids):
    """A club night after tonight's evening at two tables of four (the league's first four,
    and the fifth with three newcomers), each with as many hands as an evening of the league
    has (Re, the first two at the table, wins every hand)."""
    league = League.objects.get(slug=ids["slug"])
    seated = [NAMES[:4], [NAMES[4], "Fritz", "Gabi", "Hans"]]
    night = night_for(league, seated, date=timezone.localdate())
    hands = SIZES[ids["slug"].removeprefix("qc-")][2]
    for table, names in zip(night.tables.order_by("table_number"), seated, strict=True):
        for _ in range(hands):
            payload = {"kind": "normal", "re": names[:2], "re_eyes": 131, "announcements": [], "specials": []}
            services.enter_hand(meeting=table, payload=payload, by=None)
    return night


def test_a_club_nights_page_and_a_tables_sheet_read_the_same_queries_at_two_league_sizes(
    client, league, django_assert_num_queries
):
    night = night_tonight(league)
    response = get(client, path("club_night", league, pk=night.pk), django_assert_num_queries, QUERIES["night page"])
    assert [line["hands"] for line in response.context["table_lines"]] == [SIZES[league["slug"][3:]][2]] * 2
    table = night.tables.get(table_number=2)
    address = path("meeting", league, pk=table.pk)
    html = get(client, address, django_assert_num_queries, QUERIES["a night's table's sheet"]).content.decode()
    assert "Table 2 of the evening</a>" in html


def test_a_club_nights_big_screen_reads_the_same_queries_at_two_league_sizes(client, league, django_assert_num_queries):
    night = night_tonight(league)
    counts = QUERIES["night live page"]
    get(client, path("club_night_live", league, pk=night.pk), django_assert_num_queries, counts["member"])
    client.logout()
    address = reverse("public_night_live", kwargs={"token": league["token"], "pk": night.pk})
    get(client, address, django_assert_num_queries, counts["public"])


def test_an_unchanged_poll_of_a_club_night_reads_the_same_queries_at_two_league_sizes(
    client, league, django_assert_num_queries
):
    night = night_tonight(league)
    counts = QUERIES["night, unchanged poll"]
    parts = {
        "page": path("club_night_hx", league, pk=night.pk),
        "screen": path("club_night_live_hx", league, pk=night.pk),
        "public screen": reverse("public_night_live_hx", kwargs={"token": league["token"], "pk": night.pk}),
    }
    for kind, address in parts.items():
        if kind == "public screen":
            client.logout()
        etag = client.get(address)["ETag"]
        with django_assert_num_queries(counts[kind]):
            response = client.get(address, HTTP_IF_NONE_MATCH=etag)
        assert response.status_code == 304, kind


def statistics_page(ids):
    return path("league_statistics", ids), {}


def season_statistics(ids):
    return path("league_statistics", ids), {"season": ids["current_season"]}


def player_statistics(ids):
    player = Player.objects.get(league__slug=ids["slug"], name="Anna")
    return path("player_statistics", ids, pk=player.pk), {}


def ratings_page(ids):
    return path("league_ratings", ids), {}


def statistics_read(client, league, django_assert_num_queries, *, page, counts):
    """A statistics page as a club lives it (every evening closed but tonight's): the first
    read ever (nothing kept yet), read again, and read after a hand entered tonight."""
    address, params = page(league)
    user = Meeting.objects.get(pk=league["entry_meeting"]).created_by
    Meeting.objects.filter(league__slug=league["slug"]).exclude(pk=league["entry_meeting"]).update(
        closed_at=timezone.now()
    )
    derived_cache.clear()
    get(client, address, django_assert_num_queries, counts["first ever"], **params)
    get(client, address, django_assert_num_queries, counts["read again"], **params)
    payload = {"kind": "normal", "re": list(league["entry_active"][:2]), "re_eyes": 131}
    services.enter_hand(meeting=Meeting.objects.get(pk=league["entry_meeting"]), payload=payload, by=user)
    get(client, address, django_assert_num_queries, counts["after a hand tonight"], **params)


def test_the_statistics_read_the_same_queries_at_two_league_sizes(client, league, django_assert_num_queries):
    statistics_read(client, league, django_assert_num_queries, page=statistics_page, counts=QUERIES["statistics"])


def test_the_statistics_with_money_read_the_same_queries_at_two_league_sizes(client, league, django_assert_num_queries):
    played_for_money(league)
    counts = QUERIES["statistics with money"]
    statistics_read(client, league, django_assert_num_queries, page=statistics_page, counts=counts)


def test_a_seasons_statistics_read_the_same_queries_at_two_league_sizes(client, league, django_assert_num_queries):
    counts = QUERIES["season statistics"]
    statistics_read(client, league, django_assert_num_queries, page=season_statistics, counts=counts)


def test_a_players_statistics_read_the_same_queries_at_two_league_sizes(client, league, django_assert_num_queries):
    counts = QUERIES["player statistics"]
    statistics_read(client, league, django_assert_num_queries, page=player_statistics, counts=counts)


def test_the_ratings_read_the_same_queries_at_two_league_sizes(client, league, django_assert_num_queries):
    statistics_read(client, league, django_assert_num_queries, page=ratings_page, counts=QUERIES["ratings"])


def test_the_activity_reads_the_same_queries_at_two_league_sizes(
    client, league, monkeypatch, django_assert_num_queries
):
    """Every kind of event (evenings closed, a season closed and reopened, an evening
    reopened, hands corrected, deleted and restored, house rules changed, money in and out of
    the cashbox, an entry undone, a count, a payment ticked), a page of five and the page
    before it."""
    monkeypatch.setattr(activity, "PAGE_SIZE", 5)
    user = Meeting.objects.get(pk=league["entry_meeting"]).created_by
    over = Season.objects.get(league__slug=league["slug"], number=league["closed_season"])
    now = timezone.now()
    over.meetings.update(closed_at=now, closed_by=user)
    Season.objects.filter(pk=over.pk).update(locked_at=now, locked_by=user)
    over.refresh_from_db()
    seasons_services.reopen_season(season=over, user=user, reason="Hand 2 was Kontra's")
    table_meetings.reopen_meeting(meeting=over.meetings.order_by("date").first(), user=user, reason="Re was Anna")
    corrected_tonight(league, user)
    the_league = League.objects.get(slug=league["slug"])
    clubs_services.change_rules(
        league=the_league, variant="club", rule_overrides={**the_league.rule_overrides, "solo_point": False}
    )
    deposit = cashbox_services.record_entry(league=the_league, kind="deposit", cents=5000, note="Start", user=user)
    cashbox_services.record_entry(league=the_league, kind="purchase", cents=800, note="Karten", user=user)
    cashbox_services.counter_entry(league=the_league, entry_id=deposit.pk, note="doppelt", user=user)
    cashbox_services.record_count(league=the_league, cents=0, counted_on=timezone.localdate(), note="", user=user)
    evening = over.meetings.order_by("date").last()
    Payment.objects.create(
        league=the_league, meeting=evening, payer=evening.seats.first().player, cents=50, paid_at=now, paid_how="cash"
    )
    address = path("league_activity", league)
    first = get(client, address, django_assert_num_queries, QUERIES["activity"]["newest"])
    older = first.context["page"].older
    get(client, address, django_assert_num_queries, QUERIES["activity"]["older"], before=older)


def test_the_season_report_reads_the_same_queries_at_two_league_sizes(client, league, django_assert_num_queries):
    address = path("season_report", league, number=league["current_season"])
    get(client, address, django_assert_num_queries, QUERIES["season report"])


def test_the_evenings_history_reads_the_same_queries_at_two_league_sizes(client, league, django_assert_num_queries):
    user = Meeting.objects.get(pk=league["entry_meeting"]).created_by
    corrected_tonight(league, user)
    address = path("meeting_history", league, pk=league["entry_meeting"])
    html = get(client, address, django_assert_num_queries, QUERIES["meeting history"]).content.decode()
    assert ">deleted<" in html and ">restored<" in html


def test_the_bill_page_and_its_split_read_the_same_queries_at_two_league_sizes(
    client, league, django_assert_num_queries
):
    """The last season over, its evenings still open: the split replays each for its round."""
    address = path("season_bill", league, number=league["closed_season"])
    get(client, address, django_assert_num_queries, QUERIES["bill page"]["page"])
    shown = get(client, address, django_assert_num_queries, QUERIES["bill page"]["split"], total="80", method="by_rank")
    assert len(shown.context["closes"]) == evenings_a_season(league)


def what_if_page(ids):
    return path("season_what_if", ids, number=ids["current_season"]), {"variant": "ddv"}


def test_the_what_if_page_reads_the_same_queries_at_two_league_sizes(client, league, django_assert_num_queries):
    """The first read keeps every evening's outcome, read again none is replayed, after a hand
    tonight that evening alone."""
    statistics_read(client, league, django_assert_num_queries, page=what_if_page, counts=QUERIES["what-if"])
    address, params = what_if_page(league)
    assert len(client.get(address, params).context["result"].evenings) == evenings_a_season(league)


def test_the_rule_book_reads_the_same_queries_at_two_league_sizes(client, league, django_assert_num_queries):
    get(client, path("league_rules", league), django_assert_num_queries, QUERIES["rule book"])


def played_for_money(ids):
    """Every evening but tonight's closed and played at 5 cents a point with a fee of 0,50 €
    an evening into the cashbox (as if the money rules had been on from the start)."""
    rules = {"per_point": "between_players", "rate": "5", "per_evening": 50}
    League.objects.filter(slug=ids["slug"]).update(money_rules=rules)
    meetings = Meeting.objects.filter(league__slug=ids["slug"]).exclude(pk=ids["entry_meeting"])
    meetings.update(closed_at=timezone.now(), money_rules=resolve_money_rules(rules))
    # The latest that does not open its season (an evening that does asks for the pennant's
    # penalty soli once more), with earlier evenings before it at both sizes.
    return meetings.with_season_start().filter(opens_season=False).order_by("-date", "-id").first()


def test_a_closed_evening_with_money_reads_the_same_queries_at_two_league_sizes(
    client, league, django_assert_num_queries
):
    meeting = played_for_money(league)
    address = path("meeting", league, pk=meeting.pk)
    html = get(client, address, django_assert_num_queries, QUERIES["closed evening with money"]).content.decode()
    assert 'id="settling"' in html and "Still open from earlier evenings" in html


def test_the_season_report_with_money_reads_the_same_queries_at_two_league_sizes(
    client, league, django_assert_num_queries
):
    played_for_money(league)
    address = path("season_report", league, number=league["current_season"])
    html = get(client, address, django_assert_num_queries, QUERIES["season report with money"]).content.decode()
    assert 'id="season-money"' in html


def nine_here(ids):
    """The league's players and four more: nine Doppelkopf players, two tables tonight."""
    league = League.objects.get(slug=ids["slug"])
    for name in ("Nina", "Otto", "Paul", "Quirin"):
        Player.objects.create(league=league, name=name)
    return [str(pk) for pk in league.players.filter(active=True).values_list("pk", flat=True)]


def test_a_club_nights_start_runs_the_same_queries_at_two_league_sizes(client, league, django_assert_num_queries):
    """The proposed tables for nine (last evening's table-mates read, drawn apart), then the
    night opened as proposed: a meeting per table, each replayed empty."""
    players = nine_here(league)
    address = path("club_night_start", league)
    with django_assert_num_queries(QUERIES["club night start"]["proposal"]):
        page = client.get(address, {"players": players})
    assert page.status_code == 200
    initial = page.context["form"].initial
    form = {key: initial[key] for key in ("players", "table_count", "host")}
    form.update({key: value for key, value in initial.items() if key.startswith("table_")})
    form["date"] = str(initial["date"])
    with django_assert_num_queries(QUERIES["club night start"]["start"]):
        response = client.post(address, form)
    assert response.status_code == 302 and "/n/" in response["Location"]


def tournament_in(ids, *, played, in_play=False):
    """A DDV tournament of twelve new players in the league: ``played`` rounds played out (four
    games a player), and one more drawn when ``in_play``."""
    league = League.objects.get(slug=ids["slug"])
    day = Meeting.objects.get(pk=ids["entry_meeting"]).date
    players = [Player.objects.create(league=league, name=f"Turnier {n:02}") for n in range(12)]
    tournament = tournament_services.create_tournament(
        league=league, name="Pokal", format="ddv", rounds_planned=3, games_per_player=4
    )
    tournament_services.register_players(tournament=tournament, players=players)
    for _round in range(played):
        night = tournament_services.draw_round(tournament=tournament, date=day, host=players[0])
        for table in night.tables.all():
            seats = [seat.player.name for seat in table.seats.order_by("position")]
            for _game in range(4):
                payload = {"kind": "points", "re": seats[:2], "winner": "re", "value": 1}
                services.enter_hand(meeting=table, payload=payload, by=None)
    if in_play:
        tournament_services.draw_round(tournament=tournament, date=day, host=players[0])
    return tournament, players


def test_a_tournaments_page_reads_the_same_queries_at_two_league_sizes(client, league, django_assert_num_queries):
    tournament, _players = tournament_in(league, played=1, in_play=True)
    response = get(
        client, path("tournament", league, pk=tournament.pk), django_assert_num_queries, QUERIES["tournament page"]
    )
    assert response.context["ranking"].rounds == 1 and response.context["current"]


# --- writes ----------------------------------------------------------------------------------


def test_ticking_a_payment_into_the_cashbox_runs_the_same_queries_at_two_league_sizes(
    client, league, django_assert_num_queries
):
    meeting = played_for_money(league)
    line = next(o for o in settlement.evening_settlement(meeting=meeting).open if o.payee is None)
    address = path("settle_tick", league, pk=meeting.pk)
    with django_assert_num_queries(QUERIES["tick paid"]):
        response = client.post(address, {"payment": line.key, "paid_how": "cash"})
    assert response.status_code == 302
    assert CashboxEntry.objects.get(meeting=meeting).cents == 50


def test_a_hand_entered_by_htmx_runs_the_same_queries_at_two_league_sizes(client, league, django_assert_num_queries):
    """Tonight's next hand, as the phone that expected its number posts it: the answer
    appends its row (the form carries the mark of the sheet it was sent from). At both sizes the hand changes what the evening leaves open, so the
    write looks for later evenings to hand it on to."""
    left_open = MeetingCarry.objects.get(meeting_id=league["entry_meeting"]).queue_after
    page = client.get(path("meeting", league, pk=league["entry_meeting"])).content.decode()
    form = {
        "expected_hand": str(next_hand(league)),
        "idempotency_key": str(uuid.uuid4()),
        "sheet_mark": re.search(r'name="sheet_mark" value="([^"]*)"', page).group(1),
        **normal_hand_form(league["entry_active"], eyes=131),
    }
    with django_assert_num_queries(QUERIES["htmx hand entry"]):
        response = client.post(path("hand_add_hx", league, pk=league["entry_meeting"]), form, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert response.content.decode().count('<tr id="hand-') == 1
    assert MeetingCarry.objects.get(meeting_id=league["entry_meeting"]).queue_after != left_open


def test_a_correction_of_the_first_evening_runs_the_same_queries_at_two_league_sizes(
    client, league, django_assert_num_queries
):
    """Hand 1 of the first evening won by the other party: what the evening leaves open stays,
    so no later evening is replayed but the next, to see it given the same rounds."""
    hand = Hand.objects.get(pk=league["first_hand"])
    eyes = 150 if hand.payload.get("re_eyes") != 150 else 151
    form = {"version": str(hand.version), **normal_hand_form(league["first_hand_active"], eyes=eyes)}
    address = path("hand_edit", league, pk=league["first_meeting"], hand_pk=hand.pk)
    with django_assert_num_queries(QUERIES["correction"]):
        assert client.post(address, form).status_code == 302
    assert Hand.objects.get(pk=hand.pk).version == hand.version + 1


def test_the_later_evenings_a_correction_reaches_cost_the_same_queries_at_two_league_sizes(client, league, monkeypatch):
    """A hand of an early evening corrected to 120 against 120 through the API (the builder's
    ``chain_flip``): every later evening is given other rounds, two in the small league and
    seven in the bigger one, each replayed and its carried rounds rewritten. Counted is their
    part of the write (the corrected evening's own part is the correction's above)."""
    counted = []

    def later_evenings(meeting, result):
        with CaptureQueriesContext(connection) as queries:
            chain.replay_later_meetings(meeting, result)
        counted.append(len(queries))

    monkeypatch.setattr(services, "replay_later_meetings", later_evenings)
    flip = league["chain_flip"]
    hand = Hand.objects.get(pk=flip["hand"])
    later = MeetingCarry.objects.filter(meeting__league__slug=league["slug"], meeting__date__gt=hand.meeting.date)
    given = dict(later.values_list("meeting_id", "carried_in"))
    body = {"payload": flip["payloads"][1], "version": hand.version}
    address = reverse("api_hand", kwargs={"slug": league["slug"], "pk": flip["meeting"], "hand_pk": hand.pk})
    response = client.put(address, data=body, content_type="application/json")
    assert response.status_code == 200, response.content.decode()[:300]
    assert counted == [QUERIES["later evenings a correction reaches"]]
    now = dict(later.values_list("meeting_id", "carried_in"))
    assert sum(now[pk] != given[pk] for pk in given) == flip["later"] > 0


def test_a_deletion_and_a_restore_run_the_same_queries_at_two_league_sizes(client, league, django_assert_num_queries):
    hand = last_hand(league)
    address = path("hand_delete", league, pk=league["entry_meeting"], hand_pk=hand.pk)
    with django_assert_num_queries(QUERIES["deletion"]):
        assert client.post(address, {"version": str(hand.version)}).status_code == 302
    hand.refresh_from_db()
    assert hand.deleted_at is not None
    address = path("hand_restore", league, pk=league["entry_meeting"], hand_pk=hand.pk)
    with django_assert_num_queries(QUERIES["restore"]):
        assert client.post(address, {"version": str(hand.version)}).status_code == 302
    hand.refresh_from_db()
    assert hand.deleted_at is None


def test_a_hand_entered_through_the_api_runs_the_same_queries_at_two_league_sizes(
    client, league, django_assert_num_queries
):
    payload = {"kind": "normal", "re": list(league["entry_active"][:2]), "re_eyes": 131}
    body = {"number": next_hand(league), "idempotency_key": str(uuid.uuid4()), "payload": payload}
    address = reverse("api_hands", kwargs={"slug": league["slug"], "pk": league["entry_meeting"]})
    with django_assert_num_queries(QUERIES["API hand entry"]):
        response = client.post(address, data=body, content_type="application/json")
    assert response.status_code == 201, response.content.decode()[:300]


def guest_link(ids):
    """A guest's scorer link for tonight's table, working for an hour (made as the page makes
    it but for the evening's date, which lies in the past here)."""
    meeting = Meeting.objects.get(pk=ids["entry_meeting"])
    link = ScorerLink.objects.create(
        meeting=meeting, name="Jonas", expires_at=timezone.now() + timezone.timedelta(hours=1)
    )
    return scorer_links.token_of(link)


def test_the_guest_scorers_page_reads_the_same_queries_at_two_league_sizes(client, league, django_assert_num_queries):
    client.logout()
    address = reverse("guest_table", kwargs={"token": guest_link(league), "pk": league["entry_meeting"]})
    response = get(client, address, django_assert_num_queries, QUERIES["guest scorer's page"])
    assert response.content.decode().count('<tr id="hand-') == next_hand(league) - 1


def test_a_hand_entered_by_a_guest_runs_the_same_queries_at_two_league_sizes(client, league, django_assert_num_queries):
    client.logout()
    form = {
        "expected_hand": str(next_hand(league)),
        "idempotency_key": str(uuid.uuid4()),
        **normal_hand_form(league["entry_active"], eyes=131),
    }
    address = reverse("guest_hand", kwargs={"token": guest_link(league), "pk": league["entry_meeting"]})
    with django_assert_num_queries(QUERIES["guest scorer's hand entry"]):
        response = client.post(address, form, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert response.content.decode().count('<tr id="hand-') == next_hand(league) - 1
    assert Hand.objects.filter(meeting_id=league["entry_meeting"]).last().history.get().history_user_name == "Jonas"


# --- a club night ----------------------------------------------------------------------------


def with_a_night(ids):
    """A club night of two tables of four the day before tonight, in the current season, each
    table a round of four games played and the first table closed; returns its tables."""
    tonight = Meeting.objects.select_related("league", "season").get(pk=ids["entry_meeting"])
    league = tonight.league
    players = list(Player.objects.filter(league=league).order_by("name"))
    players += [Player.objects.create(league=league, name=f"Gast {n}") for n in range(8 - len(players))]
    night = nights.open_club_night(
        league=league,
        date=tonight.date - datetime.timedelta(days=1),
        host=players[0],
        tables=[players[:4], players[4:8]],
        after=tonight.season,
    )
    tables = list(night.tables.order_by("table_number"))
    for table, seated in zip(tables, (players[:4], players[4:8]), strict=True):
        for _ in range(4):
            payload = {"kind": "normal", "re": [seated[0].name, seated[1].name], "re_eyes": 131}
            services.enter_hand(meeting=table, payload=payload, by=tonight.created_by)
    table_meetings.close_meeting(meeting=tables[0], user=tonight.created_by)
    return tables


def test_closing_a_club_nights_last_table_runs_the_same_queries_at_two_league_sizes(
    client, league, django_assert_num_queries
):
    """Decision 1 (docs/decisions.md, "Club nights"): the night's winner is marked in a fixed
    number of queries."""
    first, last = with_a_night(league)
    address = path("meeting_close", league, pk=last.pk)
    with django_assert_num_queries(QUERIES["closing a club night's last table"]):
        assert client.post(address, {"confirm": "1"}).status_code == 302
    marked = MeetingResult.objects.filter(meeting__in=[first, last], won_evening=True)
    assert marked.count() == 1


def test_the_pages_listing_evenings_read_the_same_queries_with_a_club_night(client, league, django_assert_num_queries):
    """Decision 4: a club night's tables listed as one evening cost no query more."""
    first, last = with_a_night(league)
    table_meetings.close_meeting(meeting=last, user=first.created_by)
    html = get(client, path("league", league), django_assert_num_queries, QUERIES["league page"]).content.decode()
    assert "Table 2" in html
    response = get(client, path("standings", league), django_assert_num_queries, QUERIES["standings"])
    assert len(response.context["s"].chart["labels"]) == evenings_a_season(league) + 1
    address = path("season_report", league, number=league["current_season"])
    assert "Table 1" in get(client, address, django_assert_num_queries, QUERIES["season report"]).content.decode()
    client.logout()
    address = reverse("public_standings", kwargs={"token": league["token"]})
    get(client, address, django_assert_num_queries, QUERIES["public standings"])


def test_the_statistics_read_the_same_queries_with_a_club_night(client, league, django_assert_num_queries):
    """Decision 4: the statistics count a club night as one evening, at no query more."""
    first, last = with_a_night(league)
    table_meetings.close_meeting(meeting=last, user=first.created_by)
    statistics_read(client, league, django_assert_num_queries, page=statistics_page, counts=QUERIES["statistics"])


def test_drawing_a_tournaments_round_runs_the_same_queries_at_two_league_sizes(
    client, league, django_assert_num_queries
):
    tournament, players = tournament_in(league, played=1)
    form = {"draw-date": str(Meeting.objects.get(pk=league["entry_meeting"]).date), "draw-host": players[0].pk}
    with django_assert_num_queries(QUERIES["tournament draw"]):
        response = client.post(path("tournament_draw", league, pk=tournament.pk), form)
    assert response.status_code == 302
    assert ClubNight.objects.get(tournament=tournament, round_number=2).tables.count() == 3


def night_tables(ids):
    """Two tables of four for a club night: the league's five and three guests (who have not
    hosted, so the night never completes the season and closes it at one size alone)."""
    league = League.objects.get(slug=ids["slug"])
    guests = [Player.objects.create(league=league, name=name) for name in ("Fiete", "Greta", "Ole")]
    players = [*league.players.exclude(pk__in=[g.pk for g in guests]).order_by("name")[:5], *guests]
    return league, [players[:4], players[4:]]


def test_a_club_night_opened_through_the_api_runs_the_same_queries_at_two_league_sizes(
    client, league, django_assert_num_queries
):
    the_league, tables = night_tables(league)
    body = {
        "date": timezone.localdate().isoformat(),
        "host": tables[1][1].pk,
        "tables": [[player.pk for player in table] for table in tables],
    }
    address = reverse("api_club_nights", kwargs={"slug": league["slug"]})
    with django_assert_num_queries(QUERIES["API club night"]["opening"]):
        response = client.post(address, body, "application/json")
    assert response.status_code == 201, response.content.decode()[:300]
    assert the_league.club_nights.get().tables.count() == 2


def test_a_club_night_read_through_the_api_runs_the_same_queries_at_two_league_sizes(
    client, league, django_assert_num_queries
):
    night = night_tonight(league)
    address = reverse("api_club_night", kwargs={"slug": league["slug"], "pk": night.pk})
    response = get(client, address, django_assert_num_queries, QUERIES["API club night"]["read"])
    hands = SIZES[league["slug"].removeprefix("qc-")][2]
    assert sorted(row["games"] for row in response.json()["standings"]) == [hands] * 8
