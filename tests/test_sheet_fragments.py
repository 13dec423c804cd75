"""The sheet's rows are kept rendered by what they show (leagues/fragments.py, issue 12): a kept
row is never stale after any write, is kept per language, and a page with kept rows is the
same page as one rendered afresh."""

import re
import uuid

import pytest
from django.conf import settings
from django.urls import reverse

from leagues import fragments, pages, services
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
    assert row(html, 1) == row(_fresh(client, meeting.get_absolute_url()), 1)
    hand.refresh_from_db()
    services.restore_hand(hand=hand, user=None, version=hand.version)
    html = client.get(meeting.get_absolute_url()).content.decode()
    assert totals(html, 2) == stored_totals(meeting, 2)
    fresh = _fresh(client, meeting.get_absolute_url())
    assert row(html, 1) == row(fresh, 1) and row(html, 2) == row(fresh, 2)


def sheet_version(html):
    return re.search(r'name="sheet" value="([^"]*)"', html).group(1)


def entry(client, meeting, number, re_pair=None, *, sheet=None):
    """An htmx entry of hand ``number``, a plain normal game won by Re (``re_pair``, else the
    first two who play it); ``sheet``: the sheet's version the phone sends."""
    if re_pair is None:
        re_pair = services.calculate_meeting(meeting)["next"]["active"][:2]
    target = reverse("hand_add_hx", kwargs={"slug": meeting.league.slug, "pk": meeting.pk})
    post = {"expected_hand": str(number), "kind": "normal", "re": re_pair, "eyes": "131", "eyes_for": "re"}
    if sheet is not None:
        post["sheet"] = sheet
    return client.post(target, post, HTTP_HX_REQUEST="true")


def test_no_row_is_marked_the_latest_the_browser_marks_the_last_hand_row(client, evening):
    # The mark of the latest hand is the style sheet's (the last hand row of the sheet), so
    # that a hand appended to the sheet marks itself and no earlier row changes with it.
    meeting, _hand, scorekeeper = evening
    client.force_login(scorekeeper)
    html = entry(client, meeting, 3).content.decode()
    assert "latest" not in sheet(html) and row(html, 3).startswith('<tr id="hand-3" class="round-normal">')
    css = (settings.BASE_DIR / "static" / "css" / "kartenliga.css").read_text()
    assert '.sheet tr[id^="hand-"]:not(:has(~ tr[id^="hand-"]))' in css


def test_an_entry_from_the_sheet_as_it_stood_gets_only_the_new_row_for_it(client, evening):
    meeting, _hand, scorekeeper = evening
    client.force_login(scorekeeper)
    page = client.get(meeting.get_absolute_url()).content.decode()
    response = entry(client, meeting, 3, sheet=sheet_version(page))
    html = response.content.decode()
    assert response.status_code == 200
    assert response["HX-Retarget"] == "#at-entry" and response["HX-Reswap"] == "outerHTML"
    assert html.lstrip().startswith('<div id="at-entry">')
    assert '<template><tbody hx-swap-oob="beforeend:#sheet-rows">' in html
    assert html.count('<tr id="hand-') == 1 and 'id="hand-3"' in html
    # The new row is the row the whole sheet shows, and the form is the one for hand 4.
    fresh = _fresh(client, meeting.get_absolute_url())
    assert row(html, 3) == row(fresh, 3)
    assert 'name="expected_hand" value="4"' in html
    assert sheet_version(html) == sheet_version(fresh)  # what the phone now shows
    # The next entry from there is appended again.
    again = entry(client, meeting, 4, sheet=sheet_version(html))
    assert again["HX-Retarget"] == "#at-entry" and again.content.decode().count('<tr id="hand-') == 1


def test_a_phone_whose_sheet_is_out_of_date_gets_the_whole_sheet(client, evening):
    meeting, hand, scorekeeper = evening
    client.force_login(scorekeeper)
    page = client.get(meeting.get_absolute_url()).content.decode()
    # Another phone corrects hand 1: the number of hands, hence the form's, stays the same.
    services.change_hand(hand=hand, payload=normal(["Ben", "Dora"], 90), user=None, version=hand.version)
    response = entry(client, meeting, 3, sheet=sheet_version(page))
    html = response.content.decode()
    assert "HX-Retarget" not in response and html.count('<tr id="hand-') == 3
    assert totals(html, 1) == stored_totals(meeting, 1)  # the correction shows
    # No version, or a made-up one: the whole sheet too.
    assert entry(client, meeting, 4).content.decode().count('<tr id="hand-') == 4
    assert entry(client, meeting, 5, sheet="0" * 32).content.decode().count('<tr id="hand-') == 5


def test_the_first_hand_and_a_hand_that_brings_the_legend_get_the_whole_sheet(client, db):
    league = LeagueFactory()
    meeting = meeting_for(league, ["Anna", "Ben", "Carl", "Dora"])
    client.force_login(member(league, Role.SCOREKEEPER))
    page = client.get(meeting.get_absolute_url()).content.decode()
    first = entry(client, meeting, 1, ["Anna", "Ben"], sheet=sheet_version(page))
    assert "HX-Retarget" not in first and 'id="sheet-rows"' in first.content.decode()
    # 120 against 120 (club rules, split_120): a Bock round follows; its first game's row
    # brings the legend of the special rounds with it.
    target = reverse("hand_add_hx", kwargs={"slug": league.slug, "pk": meeting.pk})
    post = {"expected_hand": "2", "kind": "normal", "re": ["Anna", "Carl"], "eyes": "120", "eyes_for": "re"}
    post["sheet"] = sheet_version(first.content.decode())
    split = client.post(target, post, HTTP_HX_REQUEST="true")
    assert split["HX-Retarget"] == "#at-entry"  # no Bock row yet: appended
    bock = entry(client, meeting, 3, ["Anna", "Ben"], sheet=sheet_version(split.content.decode()))
    html = bock.content.decode()
    assert "HX-Retarget" not in bock and html.count('<tr id="hand-') == 3
    assert '<span class="badge bock">' in html


def test_a_conflict_answer_is_never_appended_to(client, evening):
    meeting, _hand, scorekeeper = evening
    client.force_login(scorekeeper)
    page = client.get(meeting.get_absolute_url()).content.decode()
    services.add_hand(meeting=meeting, payload=normal(["Anna", "Ben"], 131), user=None)  # another phone
    conflict = entry(client, meeting, 3, sheet=sheet_version(page))
    assert conflict.status_code == 409 and sheet_version(conflict.content.decode()) == ""
    # Saved from there, the whole table comes back, without the notice.
    html = entry(client, meeting, 4, sheet="").content.decode()
    assert html.count('<tr id="hand-') == 4 and "alert-conflict" not in html


def test_an_htmx_entry_renders_only_the_rows_that_changed(client, evening, monkeypatch):
    meeting, _hand, scorekeeper = evening
    client.force_login(scorekeeper)
    client.get(meeting.get_absolute_url())
    rendered = []
    original = fragments.get_template

    def counting(name, using=None):
        template = original(name, using=using)

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
    assert sorted(rendered) == [3]  # the new hand's row only


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
    # The session and its user; then, inside a savepoint, the membership with its league, the
    # meeting under its lock, its hands and seats; the writes: the hand, its history row; the
    # evening's result rows, its sums and what it leaves open, each read and then written.
    meeting, result = _evening_of(hands)
    client.force_login(member(meeting.league, Role.SCOREKEEPER))
    active = result["next"]["active"]
    # With its idempotency key, as every phone sends it: looked up among the hands read anyway.
    post = {"expected_hand": str(hands + 1), "idempotency_key": str(uuid.uuid4())}
    post.update({"kind": "normal", "re": active[:2], "eyes": "131", "eyes_for": "re"})
    target = reverse("hand_add_hx", kwargs={"slug": meeting.league.slug, "pk": meeting.pk})
    with django_assert_num_queries(16):
        response = client.post(target, post, HTTP_HX_REQUEST="true")
    assert response.status_code == 200, response.content.decode()[:500]
    assert response.content.decode().count('<tr id="hand-') == hands + 1


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


def test_the_sheet_read_after_a_new_hand_takes_the_list_before_it_and_the_new_row(client, evening, monkeypatch):
    # The sheet shown after hand 3 was entered elsewhere (an API entry, another phone): the
    # kept list of hands 1-2 and hand 3's row; no kept row of hands 1-2 is looked up again.
    meeting, _hand, scorekeeper = evening
    client.force_login(scorekeeper)
    client.get(meeting.get_absolute_url())
    services.add_hand(meeting=meeting, payload=normal(["Anna", "Ben"], 131), user=None)
    looked_up = []
    original = fragments._rendered_each

    def counting(template_name, rows, keys, using=None):
        looked_up.extend(r["number"] for r in rows)
        return original(template_name, rows, keys, using)

    monkeypatch.setattr(fragments, "_rendered_each", counting)
    page = client.get(meeting.get_absolute_url()).content.decode()
    assert looked_up == [3]
    # The same sheet as one rendered afresh, every row from scratch.
    fragments.clear()
    pages.clear()
    assert sheet(client.get(meeting.get_absolute_url()).content.decode()) == sheet(page)
