"""A league's activity page: who may read it, what it says of a small season's
changes (written through leagues.services as the pages do), and its pages.

The season is tests/seasons/test_season_report.py's (four evenings of Doppelkopf, club rules, the
bill saved). Then the admin reopens the season and its second evening, the scorekeeper corrects
that evening's second hand (Re was Anna and Carl, not Ben and Dora), deletes its fourth hand and
restores it, and the admin turns the Solopunkt off on the league page.
"""

import re
from html import unescape

import pytest
from django.urls import reverse

from leagues.models import Player, Role
from leagues.seasons import services as seasons_services
from leagues.stats import activity
from leagues.table import meetings
from leagues.table import services as table_services
from tests.factories import LeagueFactory, member
from tests.seasons.test_season_report import BILL, build_season

ANNA_CARL = {"kind": "normal", "re": ["Anna", "Carl"], "re_eyes": 131}


def changes(league, *, keeper, admin, client, season_number=1):
    season = league.seasons.get(number=season_number)
    seasons_services.reopen_season(season=season, user=admin, reason="Hand 2 on 13 Feb was Kontra's")
    second = season.meetings.order_by("date")[1]
    meetings.reopen_meeting(meeting=second, user=admin, reason="Re was Anna and Carl")
    hand = second.hands.get(number=2)
    table_services.change_hand(hand=hand, payload=ANNA_CARL, by=keeper, version=hand.version)
    fourth = second.hands.get(number=4)
    fourth = table_services.delete_hand(hand=fourth, by=keeper, version=fourth.version)
    table_services.restore_hand(hand=fourth, by=keeper, version=fourth.version)
    # The house rules through the league page, as an admin changes them.
    client.force_login(admin)
    page = client.get(reverse("league", kwargs={"slug": league.slug})).content.decode()
    assert "Solopunkt" in page
    response = client.post(reverse("rules_edit", kwargs={"slug": league.slug}), rules_post(page, solo_point=False))
    assert response.status_code == 302, response.content.decode()[:2000]


def rules_post(html, **change):
    """The house-rules form as a browser posts it, with ``change`` applied."""
    form = re.search(r'<form method="post" action="[^"]*/rules/".*?</form>', html, flags=re.S).group(0)
    data = {}
    for tag in re.findall(r"<input[^>]*>", form):
        name = re.search(r'name="([^"]*)"', tag)
        if not name:
            continue
        value = re.search(r'value="([^"]*)"', tag)
        kind = re.search(r'type="([^"]*)"', tag)
        if kind and kind.group(1) in {"radio", "checkbox"} and " checked" not in tag:
            continue
        data.setdefault(name.group(1), []).append(value.group(1) if value else "")
    for select in re.findall(r'<select name="([^"]*)"[^>]*>(.*?)</select>', form, flags=re.S):
        chosen = re.findall(r'<option value="([^"]*)"[^>]*selected', select[1])
        data[select[0]] = chosen[:1] or re.findall(r'<option value="([^"]*)"', select[1])[:1]
    for name, value in change.items():
        if value is False:
            data.pop(name, None)
        else:
            data[name] = [value]
    return data


@pytest.fixture
def league(db):
    return LeagueFactory(game="doppelkopf", variant="club", public_token="t" * 32)


@pytest.fixture
def people(league):
    people = {role: member(league, role, first_name=role.label.title()) for role in Role}
    Player.objects.filter(league=league, user__isnull=False).update(active=False)
    return people


@pytest.fixture
def played(league, people, client, django_capture_on_commit_callbacks):
    keeper, admin = people[Role.SCOREKEEPER], people[Role.ADMIN]
    with django_capture_on_commit_callbacks(execute=True):
        season = build_season(league, keeper)
    season.refresh_from_db()
    seasons_services.settle_bill(season=season, bill=BILL, user=keeper)
    changes(league, keeper=keeper, admin=admin, client=client)
    client.logout()
    return league


def url(league):
    return reverse("league_activity", kwargs={"slug": league.slug})


def cards(response):
    """Each event's card as plain words, newest first."""
    html = response.content.decode()
    items = re.findall(r'<li class="card (history-\S+?)( activity-late)?">(.*?)</li>', html, flags=re.S)
    return [
        (kind, bool(late), unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body)).strip()))
        for kind, late, body in items
    ]


# --- access -----------------------------------------------------------------------------------


def test_anonymous_is_sent_to_log_in(client, played):
    response = client.get(url(played))
    assert response.status_code == 302 and "/login/" in response["Location"]


@pytest.mark.parametrize("role", [Role.MEMBER, Role.SCOREKEEPER, Role.ADMIN])
def test_every_member_reads_it(client, played, people, role):
    client.force_login(people[role])
    assert client.get(url(played)).status_code == 200


def test_a_member_of_another_league_gets_404(client, played):
    other = LeagueFactory()
    client.force_login(member(other, Role.ADMIN))
    assert client.get(url(played)).status_code == 404


def test_there_is_no_public_activity(client, played):
    assert client.get(f"/p/{played.public_token}/activity/").status_code == 404


def test_a_page_that_is_not_one_is_a_400_naming_it(client, played, people):
    client.force_login(people[Role.MEMBER])
    for bad in ("yesterday", "1-12-1", "-1-0-1", "1" * 40):
        response = client.get(url(played), {"before": bad})
        assert response.status_code == 400
        assert "not a page of the activity" in response.content.decode()


def test_the_league_page_links_to_it(client, played, people):
    client.force_login(people[Role.MEMBER])
    assert url(played) in client.get(reverse("league", kwargs={"slug": played.slug})).content.decode()


# --- what it says -----------------------------------------------------------------------------


@pytest.fixture
def page(client, played, people):
    client.force_login(people[Role.MEMBER])
    return cards(client.get(url(played)))


def test_the_newest_changes_come_first_with_who_and_what(page):
    newest = page[:8]
    kinds = [kind for kind, _late, _text in newest]
    assert kinds == [
        "history-rules_changed",
        "history-restored",
        "history-deleted",
        "history-corrected",
        "history-evening_reopened",
        "history-season_reopened",
        "history-bill_saved",
        "history-evening_closed",
    ]
    rules, restored, deleted, corrected, evening, season, bill, closed = (text for _k, _l, text in newest)
    assert "House rules" in rules and "by Admin" in rules
    assert "Solopunkt on off" in rules  # field, before, after
    assert "Hand 4" in restored and "by Scorekeeper" in restored
    assert "Hand 4" in deleted and "evening of 13 Feb 2026" in deleted
    assert "Hand 2" in corrected and "by Scorekeeper" in corrected
    # Before → after in the game's words: the Re party changed, nothing else.
    assert "Re Ben, Dora Anna, Carl" in corrected
    assert "Eyes" not in corrected
    assert "Evening of 13 Feb 2026" in evening and "Reason: Re was Anna and Carl" in evening and "by Admin" in evening
    assert "Season 1" in season and "Reason: Hand 2 on 13 Feb was Kontra's" in season
    assert "bill saved" in bill and "100.00 €" in bill and "by Scorekeeper" in bill
    assert "Evening of 10 Apr 2026" in closed and "by Scorekeeper" in closed
    # The season's closing that its reopening undid: who closed it then is not kept.
    season_closed = next(text for kind, _l, text in page if kind == "history-season_closed")
    assert "Season 1" in season_closed and "who closed it then is not recorded" in season_closed


def test_changes_after_the_evening_was_closed_are_highlighted(page):
    late = {kind for kind, is_late, _text in page if is_late}
    assert late == {"history-corrected", "history-deleted", "history-restored"}
    # The hands entered while the evenings were open are not.
    assert all(not is_late for kind, is_late, _text in page if kind == "history-entered")


def test_every_hand_entered_and_every_evening_closed_is_there(page):
    # Sixteen hands entered; four evenings closed, each by its fourth hand (the second
    # evening's closing is the one its reopening keeps).
    assert sum(kind == "history-entered" for kind, _l, _t in page) == 16
    assert sum(kind == "history-evening_closed" for kind, _l, _t in page) == 4
    # The season closed once (by its last evening); it is open again since its reopening.
    assert sum(kind == "history-season_closed" for kind, _l, _t in page) == 1


def test_a_changed_bill_shows_its_shares_before_and_after(played, people):
    season = played.seasons.get(number=1)
    seasons_services.settle_bill(season=season, bill={**BILL, "total": "120.00"}, user=people[Role.ADMIN])
    events = activity.activity_page(league=played).events
    changed = next(e for e in events if e.kind == "bill_changed")
    figures = {c["field"]: (c["old"], c["new"]) for c in changed.changes}
    # Split by today's standings: the corrected hand 2 of 13 Feb moved 2 points from Ben and
    # Dora to Anna and Carl each (Dora +19, Ben +11, Anna and Carl −15). 120 € at 10 cents a
    # point, mean 0: share = 30 − 0.10 × score.
    assert figures["Total"] == ("100.00 €", "120.00 €")
    assert figures["Dora"] == ("22.90 €", "28.10 €")
    assert figures["Ben"] == ("23.70 €", "28.90 €")
    assert figures["Anna"] == ("26.70 €", "31.50 €")
    assert figures["Carl"] == ("26.70 €", "31.50 €")


# --- pages and queries ------------------------------------------------------------------------


def test_pages_follow_each_other_without_gaps_or_repeats(played):
    every = activity.activity_page(league=played, size=1000).events
    seen, cursor = [], None
    while True:
        page = activity.activity_page(league=played, cursor=cursor, size=7)
        seen += page.events
        if page.older is None:
            break
        cursor = activity.parse_cursor(page.older)
    assert [(e.source, e.id) for e in seen] == [(e.source, e.id) for e in every]
    assert len(every) > 7 * 3


def test_the_older_link_leads_to_the_next_page(client, played, people, monkeypatch):
    monkeypatch.setattr(activity, "PAGE_SIZE", 10)
    client.force_login(people[Role.MEMBER])
    first = client.get(url(played)).content.decode()
    older = re.search(r'href="\?before=([^"]+)" rel="next"', first).group(1)
    second = client.get(url(played), {"before": older})
    assert second.status_code == 200
    assert len(cards(second)) == 10 and cards(second) != cards(client.get(url(played)))
    assert "Newest" in second.content.decode()
