"""At the table: starting a meeting, the sheet, entering, correcting, deleting, restoring
hands, the "why" view and the history. Doppelkopf, club rules, five at the table."""

import datetime
import random

import pytest
from django.urls import reverse
from django.utils import timezone

from leagues.models import Hand, HandResult, Meeting, Player, Role
from leagues.seasons import selectors as seasons_selectors
from leagues.stats import selectors as stats_selectors
from leagues.table import meetings, replay, results, services
from leagues.table import selectors as table_selectors
from scoring.doppelkopf_example import example_request
from tests.factories import LeagueFactory, MembershipFactory, PlayerFactory, meeting_for, member

NAMES = ["Anna", "Ben", "Carl", "Dora", "Emil"]


def normal(re=("Ben", "Dora"), eyes=131, ann=()):
    return {
        "kind": "normal",
        "re": list(re),
        "re_eyes": eyes,
        "announcements": [{"party": p, "call": c} for p, c in ann],
        "specials": [],
    }


def form(expected, *, re=("Ben", "Dora"), eyes="131", ann=(), kind="normal", **extra):
    """What the Doppelkopf form posts for a hand."""
    data = {"expected_hand": str(expected), "kind": kind, "re": list(re), "eyes": eyes, "eyes_for": "re"}
    data["ann"] = [f"{p}:{c}" for p, c in ann]
    data.update(extra)
    return data


@pytest.fixture
def league(db):
    return LeagueFactory(game="doppelkopf", variant="club")


@pytest.fixture
def meeting(league):
    return meeting_for(league, NAMES)


@pytest.fixture
def people(league):
    """One user per role, plus a member of another league."""
    other = LeagueFactory()
    return {
        "member": member(league, Role.MEMBER),
        "scorekeeper": member(league, Role.SCOREKEEPER),
        "admin": member(league, Role.ADMIN),
        "outsider": member(other, Role.ADMIN),
    }


def add(meeting, user, *payloads):
    for payload in payloads:
        services.enter_hand(meeting=meeting, payload=payload, by=user)


def url(name, meeting, hand=None):
    kwargs = {"slug": meeting.league.slug, "pk": meeting.pk}
    if hand is not None:
        kwargs["hand_pk"] = hand.pk
    return reverse(name, kwargs=kwargs)


def sheet_totals(meeting):
    """{hand number: {player: total}} from the cached results."""
    rows = {}
    for r in HandResult.objects.filter(meeting=meeting).select_related("player"):
        rows.setdefault(r.number, {})[r.player.name] = r.total
    return rows


# --- who may do what -------------------------------------------------------------------------

READS = ["meeting", "meeting_history", "hand_why"]


@pytest.mark.parametrize("name", READS)
def test_it_lets_every_member_read_and_no_one_else(client, meeting, people, name):
    hand = services.enter_hand(meeting=meeting, payload=normal(), by=people["scorekeeper"]).hand
    target = url(name, meeting, hand if name == "hand_why" else None)
    response = client.get(target)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    for role in ("member", "scorekeeper", "admin"):
        client.force_login(people[role])
        assert client.get(target).status_code == 200, role
    client.force_login(people["outsider"])
    assert client.get(target).status_code == 404


def test_it_shows_the_start_page_to_scorekeepers_and_admins_only(client, league, people):
    target = reverse("meeting_start", kwargs={"slug": league.slug})
    assert client.get(target).status_code == 302
    expected = {"member": 403, "scorekeeper": 200, "admin": 200, "outsider": 404}
    for role, status in expected.items():
        client.force_login(people[role])
        assert client.get(target).status_code == status, role


def _write_requests(meeting, hand, deleted):
    return [
        ("hand_add_hx", None, form(1)),
        ("hand_edit", hand, form(1, eyes="100")),
        ("hand_delete", hand, {}),
        ("hand_restore", deleted, {}),
    ]


def test_it_rejects_every_write_from_anonymous_members_and_outsiders(client, meeting, people):
    hand = services.enter_hand(meeting=meeting, payload=normal(), by=people["scorekeeper"]).hand
    deleted = services.enter_hand(meeting=meeting, payload=normal(("Anna", "Carl")), by=people["scorekeeper"]).hand
    services.delete_hand(hand=deleted, by=people["scorekeeper"], version=1)
    before = list(Hand.history.order_by("history_id").values_list("history_id", flat=True))
    for name, target_hand, data in _write_requests(meeting, hand, deleted):
        target = url(name, meeting, target_hand)
        client.logout()
        assert client.post(target, data).status_code == 302, name
        client.force_login(people["member"])
        assert client.post(target, data).status_code == 403, name
        client.force_login(people["outsider"])
        assert client.post(target, data).status_code == 404, name
    client.force_login(people["member"])
    assert client.get(url("hand_edit", meeting, hand)).status_code == 403
    assert list(Hand.history.order_by("history_id").values_list("history_id", flat=True)) == before


@pytest.mark.parametrize("role", ["scorekeeper", "admin"])
def test_it_lets_scorekeepers_and_admins_write(client, meeting, people, role):
    client.force_login(people[role])
    response = client.post(url("hand_add_hx", meeting), form(1), HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    hand = meeting.hands.get()
    assert client.get(url("hand_edit", meeting, hand)).status_code == 200
    assert client.post(url("hand_edit", meeting, hand), form(1, eyes="100", version="1")).status_code == 302
    assert client.post(url("hand_delete", meeting, hand), {"version": "2"}).status_code == 302
    assert client.post(url("hand_restore", meeting, hand), {"version": "3"}).status_code == 302
    hand.refresh_from_db()
    assert hand.deleted_at is None and hand.payload["re_eyes"] == 100


def test_it_does_not_find_a_meeting_through_another_league(client, meeting, people):
    other = LeagueFactory()
    admin_elsewhere = member(other, Role.ADMIN)
    client.force_login(admin_elsewhere)
    wrong = reverse("meeting", kwargs={"slug": other.slug, "pk": meeting.pk})
    assert client.get(wrong).status_code == 404
    hand = services.enter_hand(meeting=meeting, payload=normal(), by=people["admin"]).hand
    other_meeting = meeting_for(other, ["W", "X", "Y", "Z"])
    client.force_login(people["admin"])
    # A hand of this meeting asked for under another meeting (of a league he is not in).
    assert (
        client.get(
            reverse("hand_why", kwargs={"slug": other.slug, "pk": other_meeting.pk, "hand_pk": hand.pk})
        ).status_code
        == 404
    )


# --- starting a meeting ----------------------------------------------------------------------


def start_data(league, names, **extra):
    ids = [str(Player.objects.get(league=league, name=n).pk) for n in names]
    return {"players": ids, "date": "2026-11-27", "end_time": "23:30", **extra}


def test_it_starts_a_meeting_with_the_seat_order_tapped(client, league, people):
    for name in NAMES:
        PlayerFactory(league=league, name=name)
    client.force_login(people["scorekeeper"])
    order = ["Dora", "Anna", "Emil", "Ben", "Carl"]
    response = client.post(reverse("meeting_start", kwargs={"slug": league.slug}), start_data(league, order))
    meeting = Meeting.objects.get(league=league)
    assert response.status_code == 302 and response["Location"] == meeting.get_absolute_url()
    assert [s.player.name for s in meeting.seats.order_by("position")] == order
    assert meeting.host.name == "Dora"
    assert meeting.end_time == datetime.time(23, 30)
    assert meeting.created_by == people["scorekeeper"]
    page = client.get(response["Location"])
    assert page.status_code == 200
    assert "Enter hand 1" in page.content.decode()


@pytest.mark.parametrize(
    "change, field, message",
    [
        ({"players": []}, "players", "Tap the players at the table"),
        ({"players": ["999999"]}, "players", "Pick players of this league only"),
        ({"date": "27.13.2026"}, "date", "Enter a valid date"),
        ({"end_time": "late"}, "end_time", "End time: enter a time such as 23:00"),
        ({"pennant_forgotten": "on"}, "pennant_holder", "Say who forgot the pennant"),
    ],
)
def test_it_rejects_a_bad_start_with_a_message_and_saves_nothing(client, league, people, change, field, message):
    for name in NAMES:
        PlayerFactory(league=league, name=name)
    client.force_login(people["admin"])
    data = {**start_data(league, NAMES), **change}
    response = client.post(reverse("meeting_start", kwargs={"slug": league.slug}), data)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Meeting.objects.filter(league=league).exists()


def test_it_rejects_three_at_a_doppelkopf_table(client, league, people):
    for name in NAMES:
        PlayerFactory(league=league, name=name)
    client.force_login(people["admin"])
    response = client.post(reverse("meeting_start", kwargs={"slug": league.slug}), start_data(league, NAMES[:3]))
    assert response.status_code == 400
    assert "Doppelkopf needs 4 to 6 players" in response.content.decode()  # the game by its name
    assert not Meeting.objects.exists()


def test_it_rejects_a_player_seated_twice(client, league, people):
    for name in NAMES:
        PlayerFactory(league=league, name=name)
    client.force_login(people["admin"])
    data = start_data(league, ["Anna", "Ben", "Carl", "Dora", "Anna"])
    response = client.post(reverse("meeting_start", kwargs={"slug": league.slug}), data)
    assert response.status_code == 400
    assert "one seat only" in response.content.decode()


def test_it_suggests_the_host_who_waited_longest(league, people):
    players = {name: PlayerFactory(league=league, name=name) for name in NAMES}
    user = people["admin"]
    # The league's own players (of the role users) host first so that they are out of the way.
    for p in league.players.exclude(name__in=NAMES):
        p.active = False
        p.save()
    day = datetime.date(2026, 1, 1)
    for i, host in enumerate(["Carl", "Anna"]):
        order = [host] + [n for n in NAMES if n != host]
        meetings.start_meeting(
            league=league, date=day + datetime.timedelta(days=7 * i), players=[players[n] for n in order], user=user
        )
    # Ben, Dora, Emil never hosted; ties go by the last meeting's seat order: Anna, Ben, ...
    assert seasons_selectors.suggested_host(league=league).name == "Ben"


def test_it_suggests_last_winner_for_the_pennant(client, league, meeting, people):
    add(meeting, people["admin"], normal(("Ben", "Dora"), 131))
    assert table_selectors.suggested_pennant_holder(league=league) is None  # open: no winner yet
    Meeting.objects.filter(pk=meeting.pk).update(closed_at=timezone.now())
    # Ben and Dora are tied on +1; Ben sits first.
    assert table_selectors.suggested_pennant_holder(league=league).name == "Ben"
    client.force_login(people["admin"])
    page = client.get(reverse("meeting_start", kwargs={"slug": league.slug})).content.decode()
    ben = Player.objects.get(league=league, name="Ben")
    assert f'<option value="{ben.pk}" selected>Ben</option>' in page


def test_it_records_a_forgotten_pennant(client, league, meeting, people):
    client.force_login(people["admin"])
    ben = Player.objects.get(league=league, name="Ben")
    data = start_data(league, NAMES, pennant_holder=str(ben.pk), pennant_forgotten="on")
    response = client.post(reverse("meeting_start", kwargs={"slug": league.slug}), data)
    assert response.status_code == 302
    latest = Meeting.objects.filter(league=league).latest("id")
    assert latest.pennant_holder == ben and latest.pennant_forgotten


# --- entering hands --------------------------------------------------------------------------


def test_it_saves_a_hand_and_returns_the_refreshed_table(client, meeting, people):
    client.force_login(people["scorekeeper"])
    response = client.post(url("hand_add_hx", meeting), form(1), HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="at-table"' in html and "<html" not in html
    assert "Enter hand 2" in html and 'id="hand-1"' in html
    hand = meeting.hands.get()
    assert hand.payload == normal()
    assert hand.entered_by == people["scorekeeper"]
    assert sheet_totals(meeting)[1] == {"Anna": 0, "Ben": 1, "Carl": -1, "Dora": 1, "Emil": -1}


def test_it_saves_a_hand_without_javascript_too(client, meeting, people):
    client.force_login(people["scorekeeper"])
    response = client.post(url("hand_add_hx", meeting), form(1))
    assert response.status_code == 302
    assert response["Location"].startswith(meeting.get_absolute_url())
    assert meeting.hands.count() == 1


@pytest.mark.parametrize(
    "data, field, message",
    [
        (form(1, eyes=""), "re_eyes", "Enter the eyes."),
        (form(1, eyes="viel"), "re_eyes", "is not a whole number"),
        (form(1, eyes="300"), "re_eyes", "from 0 to 240"),
        (form(1, re=("Ben",)), "re", "two Re players"),
        (form(1, re=("Anna", "Ben")), "re", ""),  # Anna deals and sits out
        (form(1, ann=[("kontra", "re")]), "announcements", ""),
        (form(1, kind="solo"), "solo", "Tap which solo"),
        (form(1, kind="revoke"), "revoke_by", "Tap who revoked"),
        (form(1, re_tricks="x"), "re_tricks", "is not a whole number"),
    ],
)
def test_it_rejects_a_bad_hand_with_the_message_on_the_field(client, meeting, people, data, field, message):
    client.force_login(people["scorekeeper"])
    response = client.post(url("hand_add_hx", meeting), data, HTTP_HX_REQUEST="true")
    assert response.status_code == 400
    assert response["HX-Retarget"] == "#hand-form"
    html = response.content.decode()
    assert 'id="hand-form"' in html and 'id="at-table"' not in html
    assert "field-error" in html and 'class="errorlist' in html
    assert message in html
    assert not meeting.hands.exists() and not HandResult.objects.exists()


def test_it_keeps_what_was_typed_when_a_hand_is_rejected(client, meeting, people):
    client.force_login(people["scorekeeper"])
    data = form(1, re=("Ben",), eyes="150", ann=[("re", "re"), ("kontra", "kontra")])
    html = client.post(url("hand_add_hx", meeting), data, HTTP_HX_REQUEST="true").content.decode()
    assert 'value="150"' in html
    assert 'value="re:re"' in html and html.index('value="re:re"') < html.index('value="kontra:kontra"')
    assert 'value="Ben" checked' in html


def test_it_rejects_a_bad_hand_without_javascript_with_the_whole_page(client, meeting, people):
    client.force_login(people["scorekeeper"])
    response = client.post(url("hand_add_hx", meeting), form(1, eyes=""))
    assert response.status_code == 400
    assert "<html" in response.content.decode() and "Enter the eyes." in response.content.decode()


def test_it_marks_bock_rows_after_a_kontra_lost(client, meeting, people):
    """Kontra announced and Re won: a Bock round of five games follows (doppelkopf.md)."""
    client.force_login(people["scorekeeper"])
    client.post(url("hand_add_hx", meeting), form(1, ann=[("kontra", "kontra")]), HTTP_HX_REQUEST="true")
    html = client.post(
        url("hand_add_hx", meeting), form(2, re=("Anna", "Carl"), eyes="100"), HTTP_HX_REQUEST="true"
    ).content.decode()
    assert 'id="hand-1" class="round-normal' in html
    assert 'id="hand-2" class="round-bock' in html
    assert "Bock round" in html and "4 games left" in html


def test_it_shows_who_sits_out_and_who_deals(client, meeting, people):
    client.force_login(people["member"])
    html = client.get(url("meeting", meeting)).content.decode()
    assert "Deals next" in html and "<b>Anna</b>" in html
    assert "Still owe a solo tonight" in html


def test_it_shows_the_games_left_after_the_end_time(client, league, people):
    meeting = meeting_for(league, NAMES, date=datetime.date(2020, 1, 1), end_time=datetime.time(22, 0))
    add(meeting, people["admin"], normal(), normal(("Anna", "Carl"), 100))
    client.force_login(people["member"])
    html = client.get(url("meeting", meeting)).content.decode()
    assert "End time passed" in html and "3 games left in the host round" in html


# --- the fixed number of queries -------------------------------------------------------------


def _meeting_with(league, user, hands):
    meeting = meeting_for(league, NAMES)
    request = example_request(random.Random(7), hands, players=NAMES, compulsory_solos=[])
    Hand.objects.bulk_create(
        Hand(meeting=meeting, position=i, number=i, payload=p, entered_by=user)
        for i, p in enumerate(request["hands"], 1)
    )
    results.replay_meeting(meeting=meeting)
    return meeting


@pytest.mark.parametrize("hands", [1, 30])
def test_the_meeting_page_shows_a_row_a_hand(client, league, people, hands):
    meeting = _meeting_with(league, people["admin"], hands)
    client.force_login(people["scorekeeper"])
    response = client.get(url("meeting", meeting))
    assert response.status_code == 200
    assert response.content.decode().count('<tr id="hand-') == hands


# --- why, correcting, deleting, restoring, history -------------------------------------------


def test_it_explains_a_hand(client, meeting, people):
    add(meeting, people["admin"], normal(ann=[("kontra", "kontra")]))
    hand = meeting.hands.get()
    client.force_login(people["member"])
    html = client.get(url("hand_why", meeting, hand), HTTP_HX_REQUEST="true").content.decode()
    assert "<html" not in html
    assert "Kontra angesagt" in html  # an item of the breakdown
    assert "Kontra lost" in html  # the trigger, in words
    assert "Ben, Dora" in html and "Re 131 : Kontra 109" in html
    assert "Correct" not in html  # members read only
    page = client.get(url("hand_why", meeting, hand)).content.decode()
    assert "<html" in page and "Kontra angesagt" in page


def test_it_corrects_an_earlier_hand_and_later_rows_change(client, meeting, people):
    """Kontra lost makes hands 2..6 Bock; correcting hand 1 (Kontra won) removes the Bock."""
    add(
        meeting,
        people["admin"],
        normal(ann=[("kontra", "kontra")]),
        normal(("Anna", "Carl"), 100),
        normal(("Anna", "Ben"), 140),
    )
    assert HandResult.objects.get(meeting=meeting, number=2, player__name="Anna").delta == -4  # Bock: 2 x 2
    client.force_login(people["scorekeeper"])
    first = meeting.hands.order_by("position").first()
    edit = client.get(url("hand_edit", meeting, first)).content.decode()
    assert 'value="131"' in edit and 'value="kontra:kontra"' in edit and 'value="Ben" checked' in edit
    response = client.post(
        url("hand_edit", meeting, first), form(1, eyes="100", ann=[("kontra", "kontra")], version="1")
    )
    assert response.status_code == 302 and response["Location"].endswith("#hand-1")
    # Kontra won now: no Bock, hand 2 counts single: Kontra (Dora, Emil) win 2 (gewonnen, gegen die Alten).
    assert HandResult.objects.get(meeting=meeting, number=2, player__name="Anna").delta == -2
    html = client.get(url("meeting", meeting)).content.decode()
    assert "round-bock" not in html.split('id="sheet"')[1]


def test_it_rejects_a_bad_correction_and_changes_nothing(client, meeting, people):
    add(meeting, people["admin"], normal())
    hand = meeting.hands.get()
    client.force_login(people["scorekeeper"])
    response = client.post(url("hand_edit", meeting, hand), form(1, eyes="abc", version="1"))
    assert response.status_code == 400
    assert "is not a whole number" in response.content.decode()
    response = client.post(url("hand_edit", meeting, hand), form(1, re=("Ben", "Carl", "Dora"), version="1"))
    assert response.status_code == 400
    hand.refresh_from_db()
    assert hand.payload == normal()
    assert Hand.history.filter(id=hand.id).count() == 1


def test_it_refuses_a_correction_that_breaks_a_later_hand(client, meeting, people):
    """Kontra with 40 eyes and no announcement: the losers get the points (club), and a
    Pflichtsolo round follows, where hand 2 (a normal game) no longer fits: say so, by hand."""
    add(meeting, people["admin"], normal(), normal(("Carl", "Dora"), 100))
    first = meeting.hands.order_by("position").first()
    client.force_login(people["scorekeeper"])
    response = client.post(url("hand_edit", meeting, first), form(1, eyes="200", version="1"))
    assert response.status_code == 400
    html = response.content.decode()
    assert "Hand 2:" in html
    first.refresh_from_db()
    assert first.payload["re_eyes"] == 131


def test_it_deletes_and_restores_a_hand(client, meeting, people):
    """Hand 2 (Carl and Dora lose, 100 eyes) is a Bock game after hand 1's Kontra lost."""
    add(meeting, people["admin"], normal(ann=[("kontra", "kontra")]), normal(("Carl", "Dora"), 100))
    first = meeting.hands.order_by("position").first()
    carl = Player.objects.get(league=meeting.league, name="Carl")
    assert HandResult.objects.get(meeting=meeting, number=2, player=carl).delta == -4
    client.force_login(people["scorekeeper"])
    assert client.post(url("hand_delete", meeting, first), {"version": "1"}).status_code == 302
    first.refresh_from_db()
    assert first.deleted_at is not None
    # Without hand 1 there is no Bock: the old hand 2 is now hand 1, single value.
    assert list(HandResult.objects.filter(meeting=meeting, player=carl).values_list("number", "delta")) == [(1, -2)]
    page = client.get(url("meeting", meeting)).content.decode()
    assert "1 deleted hand" in page and "Restore" in page
    assert client.post(url("hand_restore", meeting, first), {"version": "2"}).status_code == 302
    first.refresh_from_db()
    assert first.deleted_at is None
    assert HandResult.objects.get(meeting=meeting, number=2, player=carl).delta == -4
    # Restoring again from the same page: it is not deleted any more, the page was stale.
    assert client.post(url("hand_restore", meeting, first), {"version": "2"}).status_code == 409


def test_it_refuses_a_delete_that_leaves_the_evening_impossible(client, meeting, people):
    """Hand 2 has Anna in Re; deleting hand 1 makes Anna the dealer of hand 2, sitting out."""
    add(meeting, people["admin"], normal(), normal(("Anna", "Carl"), 100))
    first = meeting.hands.order_by("position").first()
    client.force_login(people["scorekeeper"])
    response = client.post(url("hand_delete", meeting, first), {"version": "1"})
    assert response.status_code == 400
    assert "Not changed" in response.content.decode() and "Hand 1" in response.content.decode()
    first.refresh_from_db()
    assert first.deleted_at is None


def test_it_shows_the_history_with_who_changed_what(client, meeting, people):
    sk = people["scorekeeper"]
    client.force_login(sk)
    client.post(url("hand_add_hx", meeting), form(1), HTTP_HX_REQUEST="true")
    client.post(url("hand_add_hx", meeting), form(2, re=("Anna", "Carl"), eyes="100"), HTTP_HX_REQUEST="true")
    first, second = meeting.hands.order_by("position")
    client.post(url("hand_edit", meeting, second), form(2, re=("Anna", "Carl"), eyes="90", version="1"))
    client.post(url("hand_delete", meeting, second), {"version": "2"})
    client.force_login(people["member"])
    html = client.get(url("meeting_history", meeting)).content.decode()
    assert html.count(">entered<") == 2
    assert ">corrected<" in html and ">deleted<" in html
    assert "Eyes" in html and "Re 100 : Kontra 140" in html and "Re 90 : Kontra 150" in html
    assert f"by {sk.first_name}" in html
    assert "Deleted hand 2" in html  # the number it had, its game beside it
    # newest first
    assert html.index(">deleted<") < html.index(">corrected<") < html.index(">entered<")


def test_the_history_leaves_out_a_save_that_changed_nothing(client, league, people):
    client.force_login(people["member"])
    # Thirty hands, the last one deleted and restored, corrected, deleted and restored again.
    longer = _meeting_with(league, people["admin"], 30)
    last = longer.hands.get(position=30)
    admin = people["admin"]
    for _ in range(2):
        last = services.delete_hand(hand=last, by=admin, version=last.version)
        last = services.restore_hand(hand=last, by=admin, version=last.version)
        last = services.change_hand(hand=last, payload=last.payload, by=admin, version=last.version).hand
    response = client.get(url("meeting_history", longer))
    assert response.status_code == 200
    # Deleted and restored twice; a save that changed nothing is not shown.
    assert response.content.decode().count('class="card history-') == 4


def test_it_explains_a_deleted_hand_and_offers_to_restore_it(client, meeting, people):
    add(meeting, people["admin"], normal())
    hand = meeting.hands.get()
    services.delete_hand(hand=hand, by=people["admin"], version=1)
    client.force_login(people["scorekeeper"])
    html = client.get(url("hand_why", meeting, hand), HTTP_HX_REQUEST="true").content.decode()
    assert "Deleted hand" in html and "Ben, Dora" in html
    assert url("hand_restore", meeting, hand) in html
    assert client.get(url("hand_edit", meeting, hand)).status_code == 404


# --- starting a race game with a game carried over (start_totals) ----------------------------


TWO_TEAMS = {"A": ["Anna", "Carl"], "B": ["Ben", "Dora"]}


def race_league(game, variant, names=NAMES[:4]):
    league = LeagueFactory(game=game, variant=variant)
    for name in names:
        PlayerFactory(league=league, name=name)
    return league


def carried(league, scores):
    """POST fields for scores carried over: {player name or "team:A": score}."""
    data = {}
    for party, score in scores.items():
        if party.startswith("team:"):
            data[f"start_team_{party[5:]}"] = score
        else:
            data[f"start_{Player.objects.get(league=league, name=party).pk}"] = score
    return data


def teams_data(league, teams):
    return {f"team_{Player.objects.get(league=league, name=n).pk}": t for t, names in teams.items() for n in names}


def test_it_offers_scores_carried_over_for_race_games_only(client, league):
    thousand = race_league("thousand", "koenigsberg")
    user = member(thousand, Role.SCOREKEEPER)
    MembershipFactory(league=league, user=user, role=Role.SCOREKEEPER)
    client.force_login(user)
    page = client.get(reverse("meeting_start", kwargs={"slug": thousand.slug})).content.decode()
    assert "Carry over a game in progress" in page
    assert f'name="start_{Player.objects.get(league=thousand, name="Ben").pk}"' in page
    page = client.get(reverse("meeting_start", kwargs={"slug": league.slug})).content.decode()
    assert "Carry over a game in progress" not in page


def test_it_starts_a_1000_evening_with_the_scores_carried_over(client, db):
    league = race_league("thousand", "koenigsberg")
    client.force_login(member(league, Role.SCOREKEEPER))
    data = {**start_data(league, NAMES[:4]), **carried(league, {"Anna": "350", "Ben": "-120", "Carl": ""})}
    response = client.post(reverse("meeting_start", kwargs={"slug": league.slug}), data)
    meeting = Meeting.objects.get(league=league)
    assert response.status_code == 302
    # Carl and Dora typed nothing: they start at 0 (calculate-api.md, start_totals).
    assert meeting.start_totals == {"Anna": 350, "Ben": -120}
    assert replay.calculate_meeting(meeting)["totals"] == {"Anna": 350, "Ben": -120, "Carl": 0, "Dora": 0}


def test_it_starts_a_team_game_with_the_teams_scores_carried_over(client, db):
    league = race_league("forty_five", "bruff")
    client.force_login(member(league, Role.SCOREKEEPER))
    teams = TWO_TEAMS
    data = {
        **start_data(league, NAMES[:4]),
        **teams_data(league, teams),
        **carried(league, {"team:A": "20", "team:B": "35"}),
    }
    response = client.post(reverse("meeting_start", kwargs={"slug": league.slug}), data)
    assert response.status_code == 302
    meeting = Meeting.objects.get(league=league)
    assert meeting.teams == teams
    assert meeting.start_totals == {"A": 20, "B": 35}


@pytest.mark.parametrize(
    "game, variant, teams, scores, message",
    [
        ("thousand", "koenigsberg", None, {"Anna": "3x"}, "whole numbers only"),
        ("thousand", "koenigsberg", None, {"Anna": "12.5"}, "whole numbers only"),
        ("thousand", "koenigsberg", None, {"Emil": "100"}, "Emil is not at the table"),
        ("thousand", "koenigsberg", None, {"Anna": "1200"}, "starts above the target"),
        ("forty_five", "bruff", None, {"Ben": "-5"}, "cannot have less than 0"),
        ("forty_five", "bruff", None, {"team:A": "20"}, "Without teams, enter each player"),
        ("forty_five", "bruff", TWO_TEAMS, {"Anna": "20"}, "Playing in teams"),
        ("forty_five", "bruff", TWO_TEAMS, {"team:C": "5"}, "Team C has no"),
        ("forty_five", "bruff", TWO_TEAMS, {"team:B": "45"}, "already has the target"),
    ],
)
def test_it_rejects_bad_scores_carried_over_and_saves_nothing(client, db, game, variant, teams, scores, message):
    league = race_league(game, variant, NAMES)
    client.force_login(member(league, Role.SCOREKEEPER))
    data = {**start_data(league, NAMES[:4]), **teams_data(league, teams or {}), **carried(league, scores)}
    response = client.post(reverse("meeting_start", kwargs={"slug": league.slug}), data)
    assert response.status_code == 400
    page = response.content.decode()
    assert message in page.replace("&#x27;", "'")
    assert '<details class="card carry" open>' in page  # the problem is not folded away
    assert not Meeting.objects.filter(league=league).exists()
    assert not league.seasons.exists()


# --- who sits out is said once -----------------------------------------------------------------


def next_card(page):
    return page.split('class="card next-card"')[1].split("</section>")[0]


@pytest.mark.parametrize(
    "game, variant, names, dealer_out, others_out",
    [
        # 1000 with four: the dealer sits out (thousand.md).
        ("thousand", "koenigsberg", NAMES[:4], "Anna", []),
        # Doppelkopf with five: the dealer sits out; with six also the second after him.
        ("doppelkopf", "club", NAMES, "Anna", []),
        ("doppelkopf", "club", [*NAMES, "Fritz"], "Anna", ["Carl"]),
    ],
)
def test_it_says_once_who_sits_out(client, db, game, variant, names, dealer_out, others_out):
    league = LeagueFactory(game=game, variant=variant)
    meeting = meeting_for(league, names)
    client.force_login(member(league, Role.SCOREKEEPER))
    card = next_card(client.get(meeting.get_absolute_url()).content.decode())
    assert card.count("sits out") + card.count("Sits out") == 1 + bool(others_out)
    assert f"Deals next and sits out</span><b>{dealer_out}</b>" in card
    if others_out:
        assert f"<span>Sits out</span><b>{', '.join(others_out)}</b>" in card
    else:
        assert "out-box" not in card


def test_correcting_a_hand_after_one_that_no_longer_replays_is_a_400_with_the_problem(client, meeting, people):
    add(meeting, people["admin"], normal(), normal(re=("Carl", "Dora"), eyes=100))
    first, second = meeting.hands.order_by("position")
    Hand.objects.filter(pk=first.pk).update(payload={**normal(), "kind": "nonsense"})
    client.force_login(people["scorekeeper"])
    response = client.get(url("hand_edit", meeting, second))
    assert response.status_code == 400
    assert "no longer add up" in response.content.decode()
    response = client.post(url("hand_edit", meeting, second), form(3))
    assert response.status_code == 400
    second.refresh_from_db()
    assert second.payload == normal(re=("Carl", "Dora"), eyes=100)


def test_a_hand_of_another_meeting_of_the_same_league_is_not_found(client, meeting, people):
    add(meeting, people["admin"], normal())
    hand = meeting.hands.get()
    other = meeting_for(meeting.league, NAMES, date=datetime.date(2026, 11, 27))
    client.force_login(people["admin"])
    for name in ("hand_why", "hand_edit"):
        assert client.get(url(name, other, hand)).status_code == 404, name
    for name in ("hand_edit", "hand_delete"):
        assert client.post(url(name, other, hand), form(2)).status_code == 404, name
    hand.refresh_from_db()
    assert hand.deleted_at is None and hand.payload == normal()


def test_the_start_page_suggests_the_host_the_standings_name(db):
    league = LeagueFactory(game="doppelkopf", variant="club")
    for name in ("Ben", "anna", "Carl", "dora"):
        PlayerFactory(league=league, name=name)
    assert seasons_selectors.suggested_host(league=league).name == "anna"  # by name, whatever the case
    meeting_for(league, ["anna", "Ben", "Carl", "dora"])
    rotation = stats_selectors.standings(league=league).rotation
    assert seasons_selectors.suggested_host(league=league) == rotation.suggested
    assert rotation.suggested.name == "Ben"


def test_the_pennant_goes_to_the_evenings_winner_of_the_standings(db, meeting, people):
    add(meeting, people["admin"], normal(re=("Carl", "Emil")), normal(re=("Carl", "Dora"), eyes=100))
    summary = stats_selectors.standings(league=meeting.league).meetings[0]
    assert table_selectors.meeting_winner(meeting=meeting) == summary.winner
