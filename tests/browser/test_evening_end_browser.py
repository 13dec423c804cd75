"""The evening ends, in German on a phone (390x844): four at the table, the end time (22:00
yesterday) passed after hand 2. The panel says how many games the host round still has and
who still owes a solo; hand 3 (Carl deals) and hand 4 (Dora, the last seat, deals the last
game) are entered on the phone; then the evening is over ("Abend vorbei"): no hand form, the
winner and the pennant fixed, and a hand sent anyway is refused. Screenshots evening-de-*.png."""

import datetime

import pytest
from django.utils import timezone, translation
from django.utils.translation import gettext
from playwright.sync_api import expect

from leagues.models import Meeting, Role
from leagues.table import meetings, services
from tests.browser.conftest import PHONE
from tests.factories import LeagueFactory, PlayerFactory, member

FOUR = ["Anna", "Ben", "Carl", "Dora"]
BEN_DORA = {"kind": "normal", "re": ["Ben", "Dora"], "re_eyes": 131}


def german(s):
    """The page's German for an English msgid (the catalogue's, so the test follows it)."""
    with translation.override("de"):
        return gettext(s)


def tap_hand(page, number, re_players, eyes):
    form = page.locator("#hand-form")
    for name in re_players:
        form.locator(".dk-party label.chip", has_text=name).click()
    form.locator("input[name=eyes]").fill(str(eyes))
    form.locator("button[type=submit]").click()
    expect(page.locator(f"#hand-{number}")).to_be_visible()


@pytest.mark.django_db(transaction=True)
def test_an_evening_ends_after_the_last_seat_deals(live_server, browser, login, shot):
    league = LeagueFactory(name="Stammtisch Kreuz-Dame", game="doppelkopf", variant="club")
    user = member(league, Role.SCOREKEEPER, first_name="Anna")
    # The scorekeeper's membership made his player, Anna; the others join her table.
    players = [league.players.get(name="Anna")] + [PlayerFactory(league=league, name=n) for n in FOUR[1:]]
    yesterday = timezone.localdate() - datetime.timedelta(days=1)
    meeting = meetings.start_meeting(
        league=league, date=yesterday, players=players, user=user, end_time=datetime.time(22, 0)
    )
    before_end = datetime.datetime.combine(yesterday, datetime.time(21, 0), tzinfo=timezone.get_current_timezone())
    for _number in range(2):  # Anna and Ben dealt before 22:00; Ben and Dora won both
        services.enter_hand(meeting=meeting, payload=BEN_DORA, by=user, now=before_end)

    context = browser.new_context(viewport=PHONE, locale="de-DE")
    context.set_default_timeout(10_000)
    page = context.new_page()
    try:
        login(page, user)
        page.goto(f"{live_server.url}{meeting.get_absolute_url()}")
        panel = page.locator(".next-card")
        # Carl and Dora still deal: two games left in the host round, and nobody has played
        # a solo tonight, so all four owe one in this last round.
        expect(panel).to_contain_text(german("End time passed"))
        expect(panel.locator(".ending b")).to_contain_text("2")
        expect(panel.locator(".last-round-solos b")).to_have_text("Anna, Ben, Carl, Dora")
        expect(panel.locator(".owed")).to_have_count(0)  # said once, as the last round's
        shot(page, "evening-de-1-last-round")

        tap_hand(page, 3, ["Ben", "Dora"], 131)  # Carl deals
        expect(page.locator(".next-card .ending b")).to_contain_text("1")
        tap_hand(page, 4, ["Anna", "Carl"], 131)  # Dora deals the last game
        expect(page.locator("h2#next-title")).to_have_text("Abend vorbei")
        expect(page.locator("#hand-form")).to_have_count(0)
        # Ben and Dora: +1 +1 +1 -1 = 2 each; Ben sits first: tonight's winner, he brings the pennant.
        expect(page.locator(".evening-over .winner b")).to_have_text("Ben")
        expect(page.locator(".evening-over .pennant-to b")).to_have_text("⚑ Ben")
        # Closed at once by the hand that ended the round: nothing left to end.
        expect(page.locator(".evening-over .closed-by")).to_be_visible()
        expect(page.locator("form[action$='/close/']")).to_have_count(0)
        shot(page, "evening-de-2-over")
        meeting = Meeting.objects.get(pk=meeting.pk)
        assert meeting.closed_by == user and meeting.closed_at is not None
    finally:
        context.close()
