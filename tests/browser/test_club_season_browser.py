"""A Doppelkopf club's season, told as one story on a phone (390x844): create the league
with club rules, start the last host's five-player meeting, enter hands with a Kontra lost
(Bock follows), correct an earlier hand and see the later rows change, then the season is
complete: the standings, who chooses the restaurant, and the bill split. Desktop screenshots
of the sheet and the bill too.

Every figure asserted here is worked out by hand from the specs (doppelkopf.md, league.md),
not read back from the engine.
"""

import datetime
import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from leagues.clubs import services as clubs_services
from leagues.models import League, Meeting
from leagues.table import meetings
from leagues.table import services as table_services
from tests.browser.conftest import SHOTS
from tests.browser.doppelkopf_steps import enter_hand
from tests.factories import UserFactory

OTHERS = ["Ben", "Carl", "Dora", "Emil"]


def top(page):
    """Scroll to the top first: a full-page shot of a scrolled page draws the sticky top bar
    in the middle of it."""
    page.evaluate("window.scrollTo(0, 0)")
    return page


def cells(page, number):
    """The running totals of hand ``number``'s row, in seat order."""
    return [int(t) for t in page.locator(f"#hand-{number} td .total").all_inner_texts()]


def deltas(page, number):
    return [t.strip() for t in page.locator(f"#hand-{number} td .delta").all_inner_texts()]


def earlier_meetings(league, user):
    """The season so far: Ben, Carl, Dora and Emil have hosted, one hand each evening.

    Five at the table, the host deals first and sits out (doppelkopf.md). Figures (club):
    1. Ben hosts: Re Carl+Dora 130 eyes, no calls: won 1.            Carl, Dora +1; Emil, Anna -1
    2. Carl hosts: Re Anna+Ben 95, Kontra Dora+Emil win with 145:
       won 1 + Gegen die Alten 1 = 2.                                Dora, Emil +2; Anna, Ben -2
    3. Dora hosts: Re Emil+Ben 160, "Re" said: won 1 + Kontra under 90 1 + Re 2 = 4.
                                                                     Emil, Ben +4; Anna, Carl -4
    4. Emil hosts: Re Ben+Carl 121: won 1.                           Ben, Carl +1; Anna, Dora -1
    So far: Anna -8, Ben +3, Carl -2, Dora +2, Emil +5.
    """
    players = {p.name: p for p in league.players.all()}
    order = ["Anna", *OTHERS]
    hands = {
        "Ben": {"kind": "normal", "re": ["Carl", "Dora"], "re_eyes": 130},
        "Carl": {"kind": "normal", "re": ["Anna", "Ben"], "re_eyes": 95},
        "Dora": {
            "kind": "normal",
            "re": ["Emil", "Ben"],
            "re_eyes": 160,
            "announcements": [{"party": "re", "call": "re"}],
        },
        "Emil": {"kind": "normal", "re": ["Ben", "Carl"], "re_eyes": 121},
    }
    today = timezone.localdate()
    for weeks_ago, host in zip((16, 12, 8, 4), OTHERS, strict=True):
        start = order.index(host)
        seated = [players[name] for name in order[start:] + order[:start]]
        meeting = meetings.start_meeting(
            league=league, date=today - datetime.timedelta(weeks=weeks_ago), players=seated, user=user
        )
        table_services.enter_hand(meeting=meeting, payload=hands[host], by=user)


@pytest.mark.django_db(transaction=True)
def test_a_club_season_from_the_first_page_to_the_bill(live_server, phone, desktop, login, shot):
    user = UserFactory(username="anna", first_name="Anna")
    page = phone
    login(page, user)

    # --- Anna creates the league: Doppelkopf, the club's house rules ---------------------------
    page.goto(f"{live_server.url}/leagues/new/")
    page.fill("#id_name", "Doppelkopf im Grünen Baum")
    expect(page.locator("#id_slug")).to_have_value("doppelkopf-im-grunen-baum")
    page.select_option("#id_game", "doppelkopf")
    expect(page.locator("#id_variant")).to_have_value("club")
    expect(page.locator("fieldset.options")).to_contain_text("Bock")
    shot(top(page), "club-01-create-league")
    page.locator("button[type=submit]", has_text="Create the league").click()
    expect(page.locator("h1")).to_have_text("Doppelkopf im Grünen Baum")
    league = League.objects.get(slug="doppelkopf-im-grunen-baum")
    assert (league.game, league.variant) == ("doppelkopf", "club")

    # Four more players; the other four have hosted already this season.
    for name in OTHERS:
        clubs_services.add_player(league=league, name=name)
    earlier_meetings(league, user)

    # --- the last host's evening: Anna is due ------------------------------------------------
    page.goto(f"{live_server.url}/l/{league.slug}/")
    shot(top(page), "club-02-league-page")
    page.locator("a.button", has_text="Start a meeting").click()
    expect(page.locator(".suggest")).to_contain_text("Anna")
    expect(page.locator("#seats .seat-name")).to_have_text(["Anna"])
    for name in OTHERS:
        page.locator("#bench label.chip", has_text=name).click()
    expect(page.locator("#seats .seat-name")).to_have_text(["Anna", *OTHERS])
    page.fill("input[name=end_time]", "03:30")  # the next morning: never past while the test runs
    shot(top(page), "club-03-start-meeting")
    page.locator("button[type=submit]", has_text="Start the meeting").click()
    expect(page.locator("h2#next-title")).to_have_text("Next: hand 1")
    meeting = Meeting.objects.filter(league=league).latest("date")
    assert meeting.host.name == "Anna"
    # Everyone has hosted now: the season closes with this meeting (league.md, host rotation).
    assert meeting.season.closed_on == meeting.date
    shot(top(page), "club-04-meeting-empty")

    # --- hands -----------------------------------------------------------------------------
    # Seats Anna, Ben, Carl, Dora, Emil; the dealer sits out.
    # Hand 1 (Anna deals): Re Ben+Dora win with 131 although Kontra was said: Kontra lost.
    # Value: won 1 + "Kontra" 2 = 3 (Kontra has 109, not under 90). It triggers a Bock round
    # of five games (doppelkopf.md, special rounds: kontra_lost).
    enter_hand(page, 1, ["Ben", "Dora"], 131, [("kontra", "kontra")])
    expect(page.locator("#hand-1")).to_have_class(re.compile("round-normal"))
    expect(page.locator(".next-card .dk-round")).to_contain_text("Bock round")
    expect(page.locator(".next-card .dk-round")).to_contain_text("5 games left")
    assert cells(page, 1) == [0, 3, -3, 3, -3]
    # Hand 2 (Ben deals), Bock: Re Carl+Dora 100, Kontra Anna+Emil win with 140: won 1 +
    # Gegen die Alten 1 = 2, doubled in Bock = 4.
    enter_hand(page, 2, ["Carl", "Dora"], 100)
    # Hand 3 (Carl deals), Bock: Re Anna+Ben 151 with "Re": won 1 + Kontra under 90 1 + Re 2
    # = 4, doubled = 8.
    enter_hand(page, 3, ["Anna", "Ben"], 151, [("re", "re")])
    for number in (2, 3):
        expect(page.locator(f"#hand-{number}")).to_have_class(re.compile("round-bock"))
        expect(page.locator(f"#hand-{number} .badge.bock")).to_have_text("Bock")
    assert deltas(page, 2) == ["+4", "·", "-4", "-4", "+4"]
    assert cells(page, 2) == [4, 3, -7, -1, 1]
    assert deltas(page, 3) == ["+8", "+8", "·", "-8", "-8"]
    assert cells(page, 3) == [12, 11, -7, -9, -7]
    expect(page.locator(".next-card .dk-round")).to_contain_text("3 games left")
    shot(top(page), "club-05-bock-rows")

    # --- a correction: Re had only 100 eyes in hand 1 -----------------------------------------
    page.locator("#hand-1 th a").click()
    expect(page.locator("#why-dialog")).to_be_visible()
    page.screenshot(path=str(SHOTS / "club-06-why.png"))  # the dialog, as the phone shows it
    page.locator("#why a", has_text="Correct").click()
    expect(page.locator("input[name=eyes]")).to_have_value("131")
    page.fill("input[name=eyes]", "100")
    shot(top(page), "club-07-correct-hand-1")
    page.locator("button[type=submit]", has_text="Save correction").click()
    # Hand 1 now: Kontra (Carl+Emil, 140) wins after saying Kontra: won 1 + Kontra 2 + Gegen
    # die Alten 1 = 4. Kontra did not lose, so no Bock round: hands 2 and 3 count single
    # (2 and 4), and every running total after hand 1 changes.
    expect(page.locator("#hand-2")).to_have_class(re.compile("round-normal"))
    expect(page.locator("#hand-3")).to_have_class(re.compile("round-normal"))
    expect(page.locator("#sheet .badge.bock")).to_have_count(0)  # no Bock row, so no legend either
    assert deltas(page, 1) == ["·", "-4", "+4", "-4", "+4"]
    assert cells(page, 1) == [0, -4, 4, -4, 4]
    assert deltas(page, 2) == ["+2", "·", "-2", "-2", "+2"]
    assert cells(page, 2) == [2, -4, 2, -6, 6]
    assert deltas(page, 3) == ["+4", "+4", "·", "-4", "-4"]
    assert cells(page, 3) == [6, 0, 2, -10, 2]
    expect(page.locator(".next-card .dk-round")).to_have_count(0)
    shot(top(page), "club-08-corrected")

    login(desktop, user)
    desktop.goto(f"{live_server.url}{meeting.get_absolute_url()}")
    expect(desktop.locator("#hand-3")).to_be_visible()
    shot(top(desktop), "club-09-sheet-desktop")

    # --- the season is complete: standings ---------------------------------------------------
    # Season totals: the earlier evenings (Anna -8, Ben +3, Carl -2, Dora +2, Emil +5) plus
    # tonight (Anna +6, Ben 0, Carl +2, Dora -10, Emil +2).
    page.locator("a.back").click()
    page.locator("a.button", has_text="Standings").click()
    expect(page.locator(".standings-table tbody th")).to_have_text(["Emil", "Ben", "Carl", "Anna", "Dora"])
    expect(page.locator(".standings-table tbody td.big")).to_have_text(["+7", "+3", "0", "-2", "-8"])
    expect(page.locator(".restaurant-line")).to_contain_text("Dora chooses the restaurant")
    shot(top(page), "club-10-standings")

    # --- the bill --------------------------------------------------------------------------
    page.locator("a.button", has_text="Split the bill").click()
    expect(page.locator(".chooser-name")).to_have_text("Dora")
    page.fill("input[name=total]", "187.40")
    page.locator("label.choice", has_text="points").click()
    page.fill("input[name=cents_per_point]", "10")
    page.select_option("select[name=paid_by]", label="Emil")
    shot(top(page), "club-11-bill-form")
    page.locator("button[type=submit]", has_text="Split").click()
    # league.md, per_point: share = 187.40 / 5 + 0.10 × (mean − own); the mean is 0 (every
    # game summed to zero), so 37.48 − 0.10 × own: Emil 36.78, Ben 37.18, Carl 37.48,
    # Anna 37.68, Dora 38.28 (sum 187.40). Emil paid: each other pays him his share.
    result = page.locator(".bill-result")
    expect(result.locator("h2")).to_contain_text("187.40")
    expect(result.locator("tbody td.big")).to_have_text(["36.78 €", "37.18 €", "37.48 €", "37.68 €", "38.28 €"])
    # A no-break space joins amount and euro sign (leagues/seasons/money.py).
    expect(result.locator(".transfers li")).to_have_text(
        [
            re.compile(r"Ben\s*→\s*Emil\s*37\.18\u00a0€"),
            re.compile(r"Carl\s*→\s*Emil\s*37\.48\u00a0€"),
            re.compile(r"Anna\s*→\s*Emil\s*37\.68\u00a0€"),
            re.compile(r"Dora\s*→\s*Emil\s*38\.28\u00a0€"),
        ]
    )
    shot(top(page), "club-12-bill")

    desktop.goto(page.url)
    expect(desktop.locator(".bill-result .transfers li")).to_have_count(4)
    shot(top(desktop), "club-13-bill-desktop")
