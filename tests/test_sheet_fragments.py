"""The sheet's rows are kept rendered by what they show (leagues/fragments.py, issue 12): a kept
row is never stale after any write, is kept per language, and a page with kept rows is the
same page as one rendered afresh."""

import re
import uuid

import pytest
from django.urls import reverse

from leagues import fragments, selectors, services
from leagues.models import HandResult, Role
from tests.factories import LeagueFactory, meeting_for, member

NAMES = ["Anna", "Ben", "Carl", "Dora", "Emil"]


def normal(re_pair, eyes):
    return {"kind": "normal", "re": re_pair, "re_eyes": eyes, "announcements": [], "specials": []}


@pytest.fixture(autouse=True)
def empty_cache():
    fragments.clear()
    yield
    fragments.clear()


@pytest.fixture
def evening(db):
    league = LeagueFactory(public_token="f" * 32)
    meeting = meeting_for(league, NAMES)
    # Anna deals and sits out of hand 1; Ben sits out of hand 2 (Doppelkopf at five).
    hand = services.add_hand(meeting=meeting, payload=normal(["Ben", "Dora"], 131), user=None)
    second = services.add_hand(meeting=meeting, payload=normal(["Carl", "Anna"], 131), user=None)
    meeting.second_hand = second
    return meeting, hand, member(league, Role.SCOREKEEPER)


def row(html, number):
    return re.search(rf'<tr id="hand-{number}".*?</tr>', html, re.S).group(0)


def sheet(html):
    return re.search(r"<table.*?</table>", html, re.S).group(0)


def totals(html, number):
    return re.findall(r'<span class="total">([^<]*)</span>', row(html, number))


def stored_totals(meeting, number):
    """The running totals of hand ``number`` as the writer stored them, in seat order."""
    by_player = dict(HandResult.objects.filter(meeting=meeting, number=number).values_list("player__name", "total"))
    return [str(by_player[name]) for name in NAMES]


def test_a_corrected_hand_shows_its_new_figures_on_every_row_after_it(client, evening):
    meeting, hand, scorekeeper = evening
    client.force_login(scorekeeper)
    before = client.get(meeting.get_absolute_url()).content.decode()
    assert totals(before, 1) == stored_totals(meeting, 1)
    services.change_hand(hand=hand, payload=normal(["Ben", "Dora"], 90), user=None, version=hand.version)
    after = client.get(meeting.get_absolute_url()).content.decode()
    assert totals(after, 1) != totals(before, 1)  # Re won, now lost
    assert totals(after, 1) == stored_totals(meeting, 1) and totals(after, 2) == stored_totals(meeting, 2)
    fresh = _fresh(client, meeting.get_absolute_url())
    assert row(after, 1) == row(fresh, 1) and row(after, 2) == row(fresh, 2)


def test_a_deleted_and_restored_hand_leaves_no_kept_row_behind(client, evening):
    meeting, _hand, scorekeeper = evening
    hand = meeting.second_hand
    client.force_login(scorekeeper)
    client.get(meeting.get_absolute_url())
    services.delete_hand(hand=hand, user=None, version=hand.version)
    html = client.get(meeting.get_absolute_url()).content.decode()
    assert 'id="hand-2"' not in html
    assert 'class="round-normal latest"' in row(html, 1)  # hand 1 is the latest again
    assert row(html, 1) == row(_fresh(client, meeting.get_absolute_url()), 1)
    hand.refresh_from_db()
    services.restore_hand(hand=hand, user=None, version=hand.version)
    html = client.get(meeting.get_absolute_url()).content.decode()
    assert "latest" not in row(html, 1) and totals(html, 2) == stored_totals(meeting, 2)
    fresh = _fresh(client, meeting.get_absolute_url())
    assert row(html, 1) == row(fresh, 1) and row(html, 2) == row(fresh, 2)


def test_the_latest_row_moves_to_the_hand_just_entered(client, evening):
    meeting, _hand, scorekeeper = evening
    client.force_login(scorekeeper)
    client.get(meeting.get_absolute_url())
    target = reverse("hand_add_hx", kwargs={"slug": meeting.league.slug, "pk": meeting.pk})
    post = {"expected_hand": "3", "kind": "normal", "re": ["Anna", "Ben"], "eyes": "131", "eyes_for": "re"}
    html = client.post(target, post, HTTP_HX_REQUEST="true").content.decode()
    assert 'class="round-normal latest"' in row(html, 3)
    assert "latest" not in row(html, 2)


def test_an_htmx_entry_renders_only_the_rows_that_changed(client, evening, monkeypatch):
    meeting, _hand, scorekeeper = evening
    client.force_login(scorekeeper)
    client.get(meeting.get_absolute_url())
    rendered = []
    original = fragments.get_template

    def counting(name):
        template = original(name)

        class Counting:
            def render(self, context):
                if "r" in context:  # a sheet row (the next hand's empty form is kept too)
                    rendered.append(context["r"]["number"])
                return template.render(context)

        return Counting()

    monkeypatch.setattr(fragments, "get_template", counting)
    target = reverse("hand_add_hx", kwargs={"slug": meeting.league.slug, "pk": meeting.pk})
    post = {"expected_hand": "3", "kind": "normal", "re": ["Anna", "Ben"], "eyes": "131", "eyes_for": "re"}
    assert client.post(target, post, HTTP_HX_REQUEST="true").status_code == 200
    assert sorted(rendered) == [2, 3]  # the new hand, and hand 2 that is no longer the latest


def test_rows_are_kept_per_language(client, evening):
    meeting, _hand, scorekeeper = evening
    client.force_login(scorekeeper)
    english = client.get(meeting.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    german = client.get(meeting.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert 'title="sat out"' in row(english, 1)
    assert 'title="setzt aus"' in row(german, 1) and "sat out" not in row(german, 1)
    assert 'title="sat out"' in row(client.get(meeting.get_absolute_url()).content.decode(), 1)


def test_hands_changed_outside_the_writer_show_once_replayed(client, evening):
    meeting, hand, _scorekeeper = evening
    public = reverse("public_meeting", kwargs={"token": "f" * 32, "pk": meeting.pk})
    before = client.get(public).content.decode()
    meeting.hands.filter(pk=hand.pk).update(payload=normal(["Ben", "Dora"], 90))
    services.replay_meeting(meeting=meeting)
    after = client.get(public).content.decode()
    assert totals(after, 1) != totals(before, 1)
    assert totals(after, 1) == stored_totals(meeting, 1)
    assert sheet(after) == sheet(_fresh(client, public))


def test_the_public_sheet_after_a_correction_shows_the_new_figures(client, evening):
    meeting, hand, _scorekeeper = evening
    public = reverse("public_meeting", kwargs={"token": "f" * 32, "pk": meeting.pk})
    before = client.get(public).content.decode()
    services.change_hand(hand=hand, payload=normal(["Ben", "Dora"], 90), user=None, version=hand.version)
    after = client.get(public).content.decode()
    assert totals(after, 1) != totals(before, 1)
    assert sheet(after) == sheet(_fresh(client, public))
    german = client.get(public, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert sheet(german) == sheet(_fresh(client, public, HTTP_ACCEPT_LANGUAGE="de"))


def _fresh(client, url, **headers):
    """The page rendered with nothing kept."""
    fragments.clear()
    return client.get(url, **headers).content.decode()


def _evening_of(hands):
    """A meeting of ``hands`` plain normal games (Re wins with 131 eyes, nothing announced:
    no special round follows), entered through the writer."""
    league = LeagueFactory(game="doppelkopf", variant="club")
    meeting = meeting_for(league, NAMES)
    result = services.replay_meeting(meeting=meeting)
    for _ in range(hands):
        active = result["next"]["active"]
        services.add_hand(meeting=meeting, payload=normal(active[:2], 131), user=None)
        result = services.replay_meeting(meeting=meeting)
    return meeting, result


@pytest.mark.parametrize("hands", [1, 30])
def test_an_htmx_entry_runs_a_fixed_number_of_queries(client, db, django_assert_num_queries, hands):
    # 33 before: the table is now rendered from the write's own replay (the replay's seats
    # and season queries are gone), at any number of hands. 31 -> 25: the write reads the
    # seats once (not three times), its season with the meeting's lock, the hands once, and
    # writes its MeetingCarry without reading it first. 25 -> 23: the view reads the seats
    # once for its form, its replay and the table. 23 -> 20: the league with the membership in
    # one query, whether the meeting opens its season with the meeting, and the evening's
    # closed state from the write instead of read again. 20 -> 16: the meeting, its hands and
    # its seats read once, under the meeting's lock, for the form, the write and the table.
    # 16 -> 14: the form's replay of the hands before is what the cached rows hold, so the
    # write inserts the new hand's rows and upserts the sums without reading either first.
    # 14 -> 13: the seats come with the meeting, in its locked read. 13 -> 12: the rounds
    # the evening leaves open are those it left before, so no later evening is looked at.
    meeting, result = _evening_of(hands)
    client.force_login(member(meeting.league, Role.SCOREKEEPER))
    active = result["next"]["active"]
    # With its idempotency key, as every phone sends it: looked up among the hands read anyway.
    post = {"expected_hand": str(hands + 1), "idempotency_key": str(uuid.uuid4())}
    post.update({"kind": "normal", "re": active[:2], "eyes": "131", "eyes_for": "re"})
    target = reverse("hand_add_hx", kwargs={"slug": meeting.league.slug, "pk": meeting.pk})
    with django_assert_num_queries(12):
        response = client.post(target, post, HTTP_HX_REQUEST="true")
    assert response.status_code == 200, response.content.decode()[:500]
    assert response.content.decode().count('<tr id="hand-') == hands + 1


def test_the_sheet_reads_the_hands_as_the_model_does(evening):
    # selectors.meeting_hands(entered_by=False) is a raw query of the Hand model: its values
    # (a deleted hand's time with its time zone among them) are the ORM's.
    meeting, _hand, _scorekeeper = evening
    second = meeting.second_hand
    services.delete_hand(hand=second, user=None, version=second.version)
    raw = selectors.meeting_hands(meeting=meeting, entered_by=False)
    orm = list(meeting.hands.order_by("position"))
    fields = ("pk", "meeting_id", "position", "number", "version", "payload", "deleted_at", "idempotency_key")
    assert [[getattr(h, f) for f in fields] for h in raw] == [[getattr(h, f) for f in fields] for h in orm]
    assert raw[1].deleted_at is not None and raw[1].deleted_at.tzinfo is not None


def test_a_pieces_key_is_its_content_in_any_order_of_building_and_language():
    row = {"hand": 7, "cells": [{"delta": 1, "total": 3}], "letters": [("B", "Bock")]}
    same = {"hand": 7, "cells": [{"delta": 1, "total": 3}], "letters": [("B", "Bock")]}
    assert fragments._key("meetings/sheet_row.html", row, "de") == fragments._key("meetings/sheet_row.html", same, "de")
    assert fragments._key("meetings/sheet_row.html", row, "de") != fragments._key("meetings/sheet_row.html", row, "en")
    assert fragments._key("meetings/sheet_row.html", row, "de") != fragments._key(
        "meetings/sheet_row.html", {**row, "hand": 8}, "de"
    )
    # What JSON cannot hold (a dict keyed by numbers) still gets a key of its own.
    assert fragments._key("x.html", {1: "a"}, "de") != fragments._key("x.html", {2: "a"}, "de")
