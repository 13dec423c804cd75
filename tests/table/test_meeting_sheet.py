"""The evening's sheet on the meeting page, its public sheet and the htmx answer to a hand
entered: every write shows at once, in either language, and the phone that expected the hand
gets only the new hand's row."""

import re
import uuid

import pytest
from django.conf import settings
from django.urls import reverse

from leagues.models import HandResult, Role
from leagues.table import replay, results, services
from tests.factories import LeagueFactory, meeting_for, member

NAMES = ["Anna", "Ben", "Carl", "Dora", "Emil"]


def normal(re_pair, eyes):
    return {"kind": "normal", "re": re_pair, "re_eyes": eyes, "announcements": [], "specials": []}


@pytest.fixture
def evening(db):
    league = LeagueFactory(public_token="f" * 32)
    meeting = meeting_for(league, NAMES)
    # Anna deals and sits out of hand 1; Ben sits out of hand 2 (Doppelkopf at five).
    hand = services.enter_hand(meeting=meeting, payload=normal(["Ben", "Dora"], 131), by=None).hand
    second = services.enter_hand(meeting=meeting, payload=normal(["Carl", "Anna"], 131), by=None).hand
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
    services.change_hand(hand=hand, payload=normal(["Ben", "Dora"], 90), by=None, version=hand.version)
    after = client.get(meeting.get_absolute_url()).content.decode()
    assert totals(after, 1) != totals(before, 1)  # Re won, now lost
    assert totals(after, 1) == stored_totals(meeting, 1) and totals(after, 2) == stored_totals(meeting, 2)


def test_a_deleted_and_restored_hand_shows_at_once(client, evening):
    meeting, _hand, scorekeeper = evening
    hand = meeting.second_hand
    client.force_login(scorekeeper)
    client.get(meeting.get_absolute_url())
    services.delete_hand(hand=hand, by=None, version=hand.version)
    html = client.get(meeting.get_absolute_url()).content.decode()
    assert 'id="hand-2"' not in html
    assert totals(html, 1) == stored_totals(meeting, 1)
    hand.refresh_from_db()
    services.restore_hand(hand=hand, by=None, version=hand.version)
    html = client.get(meeting.get_absolute_url()).content.decode()
    assert totals(html, 1) == stored_totals(meeting, 1) and totals(html, 2) == stored_totals(meeting, 2)


def shown_mark(client, meeting):
    """The sheet mark of the form the meeting page shows now."""
    page = client.get(meeting.get_absolute_url()).content.decode()
    return re.search(r'name="sheet_mark" value="([^"]*)"', page).group(1)


def entry(client, meeting, number, re_pair=None, mark=None):
    """An htmx entry of hand ``number`` (None: a form that names no number), a plain normal
    game won by Re (``re_pair``, else the first two who play it), from the sheet the page
    shows now (or the one ``mark`` names)."""
    if re_pair is None:
        re_pair = replay.calculate_meeting(meeting)["next"]["active"][:2]
    target = reverse("hand_add_hx", kwargs={"slug": meeting.league.slug, "pk": meeting.pk})
    post = {"kind": "normal", "re": re_pair, "eyes": "131", "eyes_for": "re"}
    post["sheet_mark"] = shown_mark(client, meeting) if mark is None else mark
    if number is not None:
        post["expected_hand"] = str(number)
    return client.post(target, post, HTTP_HX_REQUEST="true")


def test_no_row_is_marked_the_latest_the_browser_marks_the_last_hand_row(client, evening):
    # The mark of the latest hand is the style sheet's (the last hand row of the sheet), so
    # that a hand appended to the sheet marks itself and no earlier row changes with it.
    meeting, _hand, scorekeeper = evening
    client.force_login(scorekeeper)
    html = entry(client, meeting, None).content.decode()
    assert "latest" not in sheet(html) and row(html, 3).startswith('<tr id="hand-3" class="round-normal">')
    css = (settings.BASE_DIR / "static" / "css" / "kartenliga.css").read_text()
    assert '.sheet tr[id^="hand-"]:not(:has(~ tr[id^="hand-"]))' in css


def test_an_entry_of_the_expected_hand_gets_only_the_new_row_for_it(client, evening):
    meeting, _hand, scorekeeper = evening
    client.force_login(scorekeeper)
    response = entry(client, meeting, 3)
    html = response.content.decode()
    assert response.status_code == 200
    assert response["HX-Retarget"] == "#at-entry" and response["HX-Reswap"] == "outerHTML"
    assert html.lstrip().startswith('<div id="at-entry">')
    assert '<template><tbody hx-swap-oob="beforeend:#sheet-rows">' in html
    assert html.count('<tr id="hand-') == 1 and 'id="hand-3"' in html
    # The new row is the row the whole sheet shows, and the form is the one for hand 4.
    page = client.get(meeting.get_absolute_url()).content.decode()
    assert row(html, 3) == row(page, 3)
    assert 'name="expected_hand" value="4"' in html
    # The next entry from there is appended again.
    again = entry(client, meeting, 4)
    assert again["HX-Retarget"] == "#at-entry" and again.content.decode().count('<tr id="hand-') == 1


def test_an_entry_after_another_phone_corrected_an_earlier_hand_gets_the_whole_sheet(client, evening):
    # This phone shows hands 1 and 2; another phone turns hand 1 into a loss for Re. The
    # next hand from this phone must not be appended under hand 1's old figures.
    meeting, hand, scorekeeper = evening
    client.force_login(scorekeeper)
    mark = shown_mark(client, meeting)
    services.change_hand(hand=hand, payload=normal(["Ben", "Dora"], 90), by=None, version=hand.version)
    response = entry(client, meeting, 3, mark=mark)
    html = response.content.decode()
    assert response.status_code == 200 and "HX-Retarget" not in response
    assert html.count('<tr id="hand-') == 3
    assert totals(html, 1) == stored_totals(meeting, 1) and totals(html, 3) == stored_totals(meeting, 3)
    # From the whole sheet the next entry is appended again.
    assert entry(client, meeting, 4)["HX-Retarget"] == "#at-entry"


def test_an_entry_without_a_sheet_mark_gets_the_whole_sheet(client, evening):
    meeting, _hand, scorekeeper = evening
    client.force_login(scorekeeper)
    response = entry(client, meeting, 3, mark="")
    assert "HX-Retarget" not in response and response.content.decode().count('<tr id="hand-') == 3


def test_a_form_that_names_no_hand_gets_the_whole_sheet(client, evening):
    meeting, _hand, scorekeeper = evening
    client.force_login(scorekeeper)
    response = entry(client, meeting, None)
    html = response.content.decode()
    assert "HX-Retarget" not in response and html.count('<tr id="hand-') == 3
    assert totals(html, 3) == stored_totals(meeting, 3)


def test_the_first_hand_and_a_hand_that_brings_the_legend_get_the_whole_sheet(client, db):
    league = LeagueFactory()
    meeting = meeting_for(league, ["Anna", "Ben", "Carl", "Dora"])
    client.force_login(member(league, Role.SCOREKEEPER))
    first = entry(client, meeting, 1, ["Anna", "Ben"])
    assert "HX-Retarget" not in first and 'id="sheet-rows"' in first.content.decode()
    # 120 against 120 (club rules, split_120): a Bock round follows; its first game's row
    # brings the legend of the special rounds with it.
    target = reverse("hand_add_hx", kwargs={"slug": league.slug, "pk": meeting.pk})
    post = {"expected_hand": "2", "kind": "normal", "re": ["Anna", "Carl"], "eyes": "120", "eyes_for": "re"}
    post["sheet_mark"] = shown_mark(client, meeting)
    split = client.post(target, post, HTTP_HX_REQUEST="true")
    assert split["HX-Retarget"] == "#at-entry"  # no Bock row yet: appended
    bock = entry(client, meeting, 3, ["Anna", "Ben"])
    html = bock.content.decode()
    assert "HX-Retarget" not in bock and html.count('<tr id="hand-') == 3
    assert '<span class="badge bock">' in html


def test_a_conflict_answer_is_the_whole_table_and_its_notice_goes_with_the_next_entry(client, evening):
    meeting, _hand, scorekeeper = evening
    client.force_login(scorekeeper)
    services.enter_hand(meeting=meeting, payload=normal(["Anna", "Ben"], 131), by=None)  # another phone
    conflict = entry(client, meeting, 3)
    html = conflict.content.decode()
    assert conflict.status_code == 409 and "alert-conflict" in html and html.count('<tr id="hand-') == 3
    assert 'name="expected_hand" value="4"' in html
    # Saved from there, the new row is appended and the notice goes with the entry it swaps.
    saved = entry(client, meeting, 4)
    html = saved.content.decode()
    assert saved["HX-Retarget"] == "#at-entry" and html.count('<tr id="hand-') == 1
    assert html.lstrip().startswith('<div id="at-entry">') and "alert-conflict" not in html


def test_rows_in_either_language(client, evening):
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
    results.replay_meeting(meeting=meeting)
    after = client.get(public).content.decode()
    assert totals(after, 1) != totals(before, 1)
    assert totals(after, 1) == stored_totals(meeting, 1)


def test_the_public_sheet_after_a_correction_shows_the_new_figures(client, evening):
    meeting, hand, _scorekeeper = evening
    public = reverse("public_meeting", kwargs={"token": "f" * 32, "pk": meeting.pk})
    before = client.get(public).content.decode()
    services.change_hand(hand=hand, payload=normal(["Ben", "Dora"], 90), by=None, version=hand.version)
    after = client.get(public).content.decode()
    assert totals(after, 1) != totals(before, 1)
    assert totals(after, 1) == stored_totals(meeting, 1) and totals(after, 2) == stored_totals(meeting, 2)
    german = client.get(public, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert totals(german, 1) == totals(after, 1) and 'lang="de"' in german


def _evening_of(hands):
    """A meeting of ``hands`` plain normal games (Re wins with 131 eyes, nothing announced:
    no special round follows), entered through the writer."""
    league = LeagueFactory(game="doppelkopf", variant="club")
    meeting = meeting_for(league, NAMES)
    result = results.replay_meeting(meeting=meeting)
    for _ in range(hands):
        active = result["next"]["active"]
        services.enter_hand(meeting=meeting, payload=normal(active[:2], 131), by=None)
        result = results.replay_meeting(meeting=meeting)
    return meeting, result


@pytest.mark.parametrize("expected", [True, False], ids=["appended", "whole"])
@pytest.mark.parametrize("hands", [1, 30])
def test_an_htmx_entry_appends_its_row_for_the_phone_that_expected_it(client, db, hands, expected):
    # The phone that expected this hand's number gets its row alone; another gets the whole table.
    meeting, result = _evening_of(hands)
    client.force_login(member(meeting.league, Role.SCOREKEEPER))
    active = result["next"]["active"]
    # With its idempotency key, as every phone sends it: looked up among the hands read anyway.
    post = {"idempotency_key": str(uuid.uuid4()), "kind": "normal", "re": active[:2], "eyes": "131", "eyes_for": "re"}
    if expected:
        post["expected_hand"] = str(hands + 1)
        post["sheet_mark"] = shown_mark(client, meeting)
    target = reverse("hand_add_hx", kwargs={"slug": meeting.league.slug, "pk": meeting.pk})
    response = client.post(target, post, HTTP_HX_REQUEST="true")
    assert response.status_code == 200, response.content.decode()[:500]
    assert response.content.decode().count('<tr id="hand-') == (1 if expected else hands + 1)
