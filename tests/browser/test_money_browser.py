"""A club's money on a phone, in German (390x844, a browser asking for de-DE): the admin
switches money on in the house rules (10 ct a point between the players, 50 ct a lost solo,
"0,10" typed the German way), the season's last evening is started and played to its end on
the hand form (a solo lost among four hands) and ended; its "Settling up" card shows the
payments worked out by hand, which are ticked paid (cash, into the cashbox, by transfer). A
member stores her IBAN: the payer sees the code to pay by scan, another member does not. The
admin records money for the dinner in and out of the cashbox, counts it, and the season's bill
is split after the cashbox's share. On every page: nothing wider than 390 or 360 px, no control
under the sticky save bar, no console error, no 5xx. Screenshots money-*.png."""

import datetime

import pytest
from django.utils import timezone, translation
from django.utils.translation import gettext
from playwright.sync_api import expect

from leagues.models import CashboxEntry, League, Meeting, Payment, Role
from leagues.table import meetings
from leagues.table import services as table_services
from scoring.money_rules import resolve_money_rules
from tests.browser.conftest import PHONE, SHOTS
from tests.browser.test_evening_end_browser import tap_hand
from tests.factories import LeagueFactory, PlayerFactory, member

NBSP = "\u00a0"
FOUR = ["Anna", "Ben", "Carl", "Dora"]
IBAN = "DE89 3704 0044 0532 0130 00"

# Every control on the page that sits under the sticky save bar once scrolled to (the way a
# thumb reaches it): described as "tag.class 'text'". The bar's own buttons are not counted.
UNDER_THE_BAR = """() => {
  const bar = document.querySelector('.sticky-save');
  if (!bar) return [];
  const say = (el) => `${el.tagName.toLowerCase()}.${el.className} '${(el.textContent || el.name || '').trim().slice(0, 30)}'`;
  const hidden = [];
  for (const el of document.querySelectorAll('a[href], button, input:not([type=hidden]), select, textarea, summary')) {
    if (bar.contains(el) || !el.checkVisibility({opacityProperty: true, visibilityProperty: true})) continue;
    let box = el.getBoundingClientRect();
    if (box.width < 2 || box.height < 2) continue;
    el.scrollIntoView({block: 'nearest'});
    box = el.getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    if (hit && bar.contains(hit)) hidden.push(say(el));
  }
  window.scrollTo(0, 0);
  return hidden;
}"""


# The deepest elements that reach past the screen's right edge (to name what widens a page).
WIDEST = """() => [...document.querySelectorAll('body *')]
  .filter(el => el.getBoundingClientRect().right > window.innerWidth + 0.5)
  .filter(el => ![...el.children].some(c => c.getBoundingClientRect().right > window.innerWidth + 0.5))
  .slice(0, 5)
  .map(el => `${el.tagName.toLowerCase()}#${el.id}.${el.className} ${Math.round(el.getBoundingClientRect().right)}`)"""


def german(s):
    """The page's German for an English msgid (the catalogue's, so the test follows it)."""
    with translation.override("de"):
        return gettext(s)


def euro(text):
    return f"{text}{NBSP}€"


class Walk:
    """One person's phone: every page it opens is checked at 390 and 360 px, and its console
    errors and 5xx answers are collected."""

    def __init__(self, browser, live_server, login, user):
        self.context = browser.new_context(viewport=PHONE, locale="de-DE")
        self.context.set_default_timeout(10_000)
        self.page = self.context.new_page()
        self.url = live_server.url
        self.errors = []
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(f"console: {m.text}"))
        self.page.on("pageerror", lambda e: self.errors.append(f"pageerror: {e}"))
        self.page.on("response", lambda r: r.status >= 500 and self.errors.append(f"{r.status} {r.url}"))
        login(self.page, user)
        expect(self.page.locator("html")).to_have_attribute("lang", "de")

    def go(self, path):
        self.page.goto(f"{self.url}{path}")
        return self.page

    def check(self, name):
        """At 390 and at 360 px: no horizontal scroll, no control under the save bar; then no
        console error and no 5xx so far. A screenshot of each width."""
        page = self.page
        # A field left focused while the test resizes the window is scrolled back into view at
        # the next tap (as when a phone's keyboard opens), and the tap lands elsewhere: no
        # phone resizes so, so the field lets go first.
        page.evaluate("document.activeElement && document.activeElement.blur()")
        for width in (390, 360):
            page.set_viewport_size({"width": width, "height": PHONE["height"]})
            wider = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
            assert wider <= 0, f"{name}: {wider} px wider than {width} px: {page.evaluate(WIDEST)}"
            assert page.evaluate(UNDER_THE_BAR) == [], f"{name} at {width} px: under the save bar"
            shot(page, f"money-{name}-{width}")
        page.set_viewport_size(PHONE)
        assert self.errors == [], name

    def close(self):
        self.context.close()


def shot(page, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def shot_of(locator, name):
    """A screenshot of one card (a long page's full shot is too tall to read)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    locator.screenshot(path=str(SHOTS / f"{name}.png"))


def earlier_evenings(league, user):
    """Ben, Carl and Dora have hosted an evening each (a full round, Re of the second and
    third seat winning every hand, then ended) before the club played for money: Anna's
    evening completes the season."""
    players = {p.name: p for p in league.players.all()}
    today = timezone.localdate()
    for weeks_ago, host in ((12, "Ben"), (8, "Carl"), (4, "Dora")):
        start = FOUR.index(host)
        seated = [players[name] for name in FOUR[start:] + FOUR[:start]]
        meeting = meetings.start_meeting(
            league=league, date=today - datetime.timedelta(weeks=weeks_ago), players=seated, user=user
        )
        for _deal in range(4):
            payload = {"kind": "normal", "re": [seated[1].name, seated[2].name], "re_eyes": 131}
            table_services.enter_hand(meeting=meeting, payload=payload, by=user)
        meetings.close_meeting(meeting=meeting, user=user)


def tick(page, payer, payee, how):
    """Tick the open payment ``payer`` → ``payee`` as paid ``how`` ("cash" or "transfer")."""
    line = page.locator("#settling .settle-line:not(.paid)", has_text=f"{payer} → {payee}")
    line.locator("select[name=paid_how]").select_option(how)
    line.locator("button[type=submit]").click()
    expect(page.locator("#settling .settle-line.paid", has_text=f"{payer} → {payee}")).to_be_visible()


def switch_money_on(admin, league):
    """The admin's house rules: money per point between the players at "0,10" €, 50 ct a
    lost solo."""
    page = admin.page
    admin.go(f"/l/{league.slug}/")
    page.locator("#house-rules > details > summary").click()
    money = page.locator("#money-rules")
    for summary in money.locator("details.option-section > summary").all():
        summary.click()
    # A Doppelkopf table is offered no stake per game or match (read as "per hand").
    expect(money.locator("[name=money-per_game], [name=money-per_match]")).to_have_count(0)
    money.locator("select[name=money-per_point]").select_option("between_players")
    money.locator("input[name=money-rate]").fill("0,10")
    money.locator("input[name=money-per_lost_solo]").fill("50")
    shot_of(money, "money-1-house-rules-card")
    admin.check("1-house-rules")
    page.locator("#house-rules button[type=submit]").click()
    expect(page.locator(".messages, [role=status]").first).to_be_visible()
    # 10 ct is the default rate, so only what differs from the defaults is kept.
    kept = League.objects.get(pk=league.pk).money_rules
    assert kept == {"per_point": "between_players", "per_lost_solo": 50}
    assert resolve_money_rules(kept)["rate"] == "10"
    expect(page.locator("input[name=money-rate]")).to_have_value("0,10")


def play_the_evening(admin, league):
    """Anna's evening, the season's last, from its start to its end on the phone."""
    page = admin.page
    admin.go(f"/l/{league.slug}/meetings/new/")
    for name in FOUR[1:]:
        page.locator("#bench label.chip", has_text=name).click()
    expect(page.locator("#seats .seat-name")).to_have_text(FOUR)
    admin.check("2-start")
    page.locator("form button[type=submit].wide").click()
    expect(page.locator("#hand-form")).to_be_visible()
    meeting = Meeting.objects.filter(league=league).latest("date")

    # Hand 1 (Anna deals): Ben and Dora Re with 131, won: 1 point.
    tap_hand(page, 1, ["Ben", "Dora"], 131)
    # Hand 2 (Ben deals): Anna and Carl Re with 151: won, no 90, 2 points.
    tap_hand(page, 2, ["Anna", "Carl"], 151)
    admin.check("3-hand-form")
    # Hand 3 (Carl deals): Carl's Damensolo with 100 eyes, lost: won + the solo point = 2,
    # Carl pays it to each of three: -6, the others +2.
    form = page.locator("#hand-form")
    form.locator("label.chip:has(input[name=kind][value=solo])").click()
    form.locator("label.chip:has(input[name=solo][value=damen])").click()
    form.locator("label.chip:has(input[name=re][value=Carl])").click()
    form.locator("input[name=eyes]").fill("100")
    admin.check("4-solo")
    form.locator("button[type=submit]").click()
    expect(page.locator("#hand-3")).to_be_visible()
    solo = meeting.hands.get(number=3).payload
    assert {k: solo[k] for k in ("kind", "solo", "re", "re_eyes")} == {
        "kind": "solo",
        "solo": "damen",
        "re": ["Carl"],
        "re_eyes": 100,
    }
    # Hand 4 (Dora deals the round's last game): Ben and Carl Re with 121, won: 1 point.
    tap_hand(page, 4, ["Ben", "Carl"], 121)
    # Totals: Anna -1 +2 +2 -1 = 2, Ben +1 -2 +2 +1 = 2, Carl -1 +2 -6 +1 = -4, Dora +1 -2 +2 -1 = 0.

    end = page.locator("#evening-end a[href$='/close/']")
    expect(end).to_have_text(german("End the evening…"))
    admin.check("5-round-complete")
    end.click()
    expect(page.locator("h1")).to_have_text(german("End the evening?"))
    admin.check("6-end-question")
    page.get_by_role("button", name=german("Yes, end the evening")).click()
    expect(page.locator("h2#next-title")).to_have_text(german("The evening is over"))

    return meeting


def settle_up(admin, league, meeting):
    """The "Settling up" card with the figures worked out by hand; two payments ticked."""
    page = admin.page
    # gets total × 0,10 €: Anna +0,20, Ben +0,20, Carl -0,40, Dora 0. Carl's lost solo puts
    # 0,50 € into the cashbox: his balance -0,90 €. The fewest transfers: Carl pays the
    # two creditors (tie: Anna first) 0,20 € each, and 0,50 € into the cashbox.
    card = page.locator("#settling")
    expect(card.locator("h2")).to_have_text(german("Settling up"))
    expect(card.locator(".settle-figures tbody tr")).to_have_count(4)
    expect(card.locator(".settle-figures tbody td:last-child")).to_have_text(
        [euro("0,20"), euro("0,20"), euro("-0,90"), euro("0,00")]
    )
    expect(card.locator(".settle-figures tbody td:nth-child(2)")).to_have_text(["2", "2", "-4", "0"])
    expect(card).to_contain_text(euro("0,10"))
    box = german("Cashbox")
    expect(card.locator(".settle-line:not(.paid) > span:first-child")).to_contain_text(
        [f"Carl → Anna {euro('0,20')}", f"Carl → Ben {euro('0,20')}", f"Carl → {box} {euro('0,50')}"]
    )
    card.locator("details > summary").click()
    lines = card.locator("details li")
    expect(lines).to_have_count(1)
    expect(lines).to_contain_text(f"Carl → {box} · {german('lost solo')}")
    expect(lines).to_contain_text(euro("0,50"))
    shot_of(card, "money-7-settling-card")
    admin.check("7-settling")

    # Ben got his 0,20 € in cash; Carl's 0,50 € went into the cashbox.
    tick(page, "Carl", "Ben", "cash")
    tick(page, "Carl", box, "cash")
    expect(card.locator(".settle-line:not(.paid)")).to_have_count(1)
    admin.check("8-ticked")
    assert Payment.objects.filter(meeting=meeting).count() == 2

    # The ledger: the evening's 0,50 €, the balance 0,50 €.
    admin.go(f"/l/{league.slug}/cashbox/")
    expect(page.locator("#balance dd.big").first).to_have_text(euro("0,50"))
    expect(page.locator("#ledger li").first).to_contain_text(german("payments of an evening"))
    expect(page.locator("#ledger li .big").first).to_have_text("+" + euro("0,50"))
    admin.check("9-ledger")

    # Anna stores her IBAN, typed with its spaces.
    page.get_by_role("link", name=german("Your IBAN in this league")).click()
    page.locator("input[name=iban]").fill(IBAN)
    holder = page.locator("input[name=holder]")
    if not holder.input_value():
        holder.fill("Anna Schmidt")
    admin.check("10-iban")
    page.locator("button[name=action][value=save]").click()
    expect(page.locator("button[name=action][value=remove]")).to_be_visible()


def pay_by_scan(walk, meeting, carl, ben):
    """Carl, who owes Anna, sees the code to pay her; Ben, who owes her nothing, does not."""
    # Carl owes Anna 0,20 €: he sees the code to pay her by scan.
    payer = walk(carl)
    try:
        payer.go(meeting.get_absolute_url())
        scan = payer.page.locator("#settling .settle-line", has_text="Carl → Anna").get_by_role(
            "link", name=german("Pay by scan")
        )
        payer.check("11-payer-evening")
        scan.click()
        qr = payer.page.locator("img.epc-qr")
        expect(qr).to_be_visible()
        expect(qr).to_have_js_property("complete", True)
        assert qr.evaluate("img => img.naturalWidth") > 0, "the code's image did not load"
        answer = payer.page.request.get(f"{payer.url}{qr.get_attribute('src')}")
        assert answer.status == 200 and answer.headers["content-type"] == "image/svg+xml"
        expect(payer.page.locator(".pay")).to_contain_text(euro("0,20"))
        expect(payer.page.locator(".pay code")).to_have_text("DE89 3704 0044 0532 0130 00")
        pay_path = payer.page.url.removeprefix(payer.url)
        payer.check("12-pay-by-scan")
    finally:
        payer.close()

    # Ben owes Anna nothing: no link, and the page names no IBAN and shows no code.
    other = walk(ben)
    try:
        other.go(meeting.get_absolute_url())
        expect(other.page.locator("#settling")).to_be_visible()
        expect(other.page.get_by_role("link", name=german("Pay by scan"))).to_have_count(0)
        other.check("13-other-evening")
        other.go(pay_path)
        expect(other.page.locator("img.epc-qr, svg")).to_have_count(0)
        expect(other.page.locator(".pay")).not_to_contain_text("DE89")
        other.check("14-other-pay")
    finally:
        other.close()


def the_transfer_ticked(admin, meeting):
    """Carl paid Anna by the transfer: she ticks it, and nothing is open."""
    page = admin.page
    admin.go(meeting.get_absolute_url())
    tick(page, "Carl", "Anna", "transfer")
    expect(page.locator("#settling .settle-line:not(.paid)")).to_have_count(0)
    admin.check("15-all-paid")


def the_dinner(admin, league):
    """Money in and out of the cashbox for the dinner, and the cash counted."""
    page = admin.page
    admin.go(f"/l/{league.slug}/cashbox/")
    record = page.locator("#record")
    record.locator("select[name=kind]").select_option("deposit")
    record.locator("input[name=amount]").fill("60,00")
    record.locator("input[name=note]").fill("Sparschwein fürs Saisonessen")
    record.locator("button[type=submit]").click()
    expect(page.locator("#ledger li").first).to_contain_text("Sparschwein")
    record.locator("select[name=kind]").select_option("dinner")
    record.locator("input[name=amount]").fill("10,00")
    record.locator("input[name=note]").fill("Anzahlung Tisch im Grünen Baum")
    admin.check("16-withdrawal")
    record.locator("button[type=submit]").click()
    expect(page.locator("#ledger li").first).to_contain_text("Anzahlung")
    expect(page.locator("#ledger li .big").first).to_have_text("-" + euro("10,00"))
    # 0,50 + 60,00 - 10,00 = 50,50 € by the ledger; counted: 50,50 €, no difference.
    expect(page.locator("#balance dd.big").first).to_have_text(euro("50,50"))
    count = page.locator("#count")
    count.locator("input[name=amount]").fill("50,50")
    count.locator("button[type=submit]").click()
    expect(page.locator("#balance dd").last).to_have_text(euro("0,00"))
    admin.check("17-ledger-counted")
    assert [e.cents for e in CashboxEntry.objects.filter(league=league).order_by("pk")] == [50, 6000, -1000]


def the_bill(admin, league, meeting):
    """The season's bill split after the cashbox's share, and the share in the ledger."""
    page = admin.page
    # The season's bill: 130,00 €, 30,00 € of it from the cashbox; the other 100,00 €
    # split equally among the four: 25,00 € each.
    season = meeting.season
    admin.go(f"/l/{league.slug}/seasons/{season.number}/bill/")
    page.locator("input[name=total]").fill("130,00")
    page.locator("input[name=method][value=equal]").check()
    page.locator("input[name=from_cashbox]").fill("30,00")
    admin.check("18-bill-form")
    page.locator(".bill-form button[type=submit]").click()
    result = page.locator(".bill-result")
    expect(result.locator(".cashbox-share")).to_contain_text(euro("30,00"))
    expect(result.locator(".cashbox-share")).to_contain_text(euro("100,00"))
    expect(result.locator("tbody td.big")).to_have_text([euro("25,00")] * 4)
    admin.check("19-bill-split")
    page.locator("button.save-bill").click()
    expect(page.locator(".stored-bill tbody td.big")).to_have_text([euro("25,00")] * 4)
    admin.check("20-bill-saved")

    # The ledger: the dinner's 30,00 € out, 20,50 € left.
    admin.go(f"/l/{league.slug}/cashbox/")
    expect(page.locator("#ledger li .big").first).to_have_text("-" + euro("30,00"))
    expect(page.locator("#balance dd.big").first).to_have_text(euro("20,50"))
    admin.check("21-ledger-after-bill")


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_clubs_money_from_the_house_rules_to_the_bill(live_server, browser, login):
    league = LeagueFactory(name="Stammtisch Kreuz-Dame", game="doppelkopf", variant="club")
    anna = member(league, Role.ADMIN, username="anna", first_name="Anna")
    ben = member(league, Role.MEMBER, username="ben", first_name="Ben")
    carl = member(league, Role.MEMBER, username="carl", first_name="Carl")
    PlayerFactory(league=league, name="Dora")
    earlier_evenings(league, anna)

    def walk(user):
        return Walk(browser, live_server, login, user)

    admin = walk(anna)
    try:
        switch_money_on(admin, league)
        meeting = play_the_evening(admin, league)
        settle_up(admin, league, meeting)
        pay_by_scan(walk, meeting, carl, ben)
        the_transfer_ticked(admin, meeting)
        the_dinner(admin, league)
        the_bill(admin, league, meeting)
    finally:
        admin.close()
