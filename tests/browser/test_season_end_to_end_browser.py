"""A Doppelkopf club's season from the first sign-up to a reopened evening, on a phone
(390x844), once in German (a browser asking for de-DE) and once in English.

Hanne signs up and founds the league (club rules), adds Jonas, Carl and Dora, and sends Jonas
an invite as scorekeeper, which he follows on his own phone and signs up. Jonas, Carl and Dora
have hosted already (seeded through the services, see ``earlier_evenings``); Hanne, the last
host, starts her evening on the page with an end time already passed, so its first round is
its last: the panel names who still owes a solo and the form offers one; Jonas enters the four
solos; the evening is over and the season closed. Hanne stores the bill; a hand posted into
the closed season anyway is refused, on the sheet and on the correction page; Hanne reopens
the season with a reason, then the evening, and the reasons show. Jonas then corrects the hand
they were reopened for and ends the evening again, which closes the season again; the bill
page shows the saved bill beside the split by today's standings, and Hanne saves it anew.

Screenshots season-e2e-<de|en>-NN-<step>.png in test-artifacts/screenshots/. Every figure
asserted is worked out by hand from /work/shared/spec (doppelkopf.md, league.md), never read
back from the app. The page's words come from the German catalogue (``say``): where it has no
German yet, the German page still shows the English (the lead merges the catalogue at the end).
"""

import datetime
import re
import uuid

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone, translation
from django.utils.translation import gettext
from playwright.sync_api import expect

from leagues.models import Hand, League, Meeting, Membership, Role, Season
from leagues.table import meetings, services
from tests.browser.conftest import PHONE

NBSP = "\u00a0"
PASSWORD = "Kreuz-Dame-42"
LOCALES = {"de": "de-DE", "en": "en-GB"}
SEATS = ["Hanne", "Jonas", "Carl", "Dora"]  # the last evening's seat order, Hanne hosts
SEASON_REASON = {
    "de": "Spiel 2: Carl hat sein Buben-Solo mit 151 Augen gewonnen, nicht mit 100 verloren.",
    "en": "Hand 2: Carl won his Buben solo with 151 eyes; it was entered as lost with 100.",
}
EVENING_REASON = {
    "de": "Carls Buben-Solo in Spiel 2 korrigieren.",
    "en": "To correct Carl's Buben solo in hand 2.",
}
# Texts the German catalogue already has, written out: the test fails if they go missing.
GERMAN = {
    "The evening is over": "Abend vorbei",
    "End time passed": "Schlusszeit vorbei",
    "Last round: must still play a solo": "Letzte Runde: Muss noch ein Solo spielen",
    "The evening is open again.": "Der Abend ist wieder offen.",
    "Reason:": "Grund:",
    "Season %(number)s": "Saison %(number)s",
}


def say(lang, msgid, **params):
    """What the page says for ``msgid`` in ``lang``: the German above, else the catalogue's
    (the English itself while the catalogue has no German for it)."""
    if lang == "de" and msgid in GERMAN:
        text = GERMAN[msgid]
    else:
        with translation.override(lang):
            text = gettext(msgid)
    return text % params if params else text


def pattern(lang, msgid, **params):
    """``say`` as a regular expression, each %(name)s not given in ``params`` matching anything."""
    text = re.escape(say(lang, msgid))
    for name in re.findall(r"%\((\w+)\)s", say(lang, msgid)):
        text = text.replace(re.escape(f"%({name})s"), re.escape(params[name]) if name in params else ".+")
    return re.compile(text)


def money(lang, amount):
    """An amount as the page writes it: "46,15 €" in German, "46.15 €" in English (below 1000)."""
    return (amount.replace(".", ",") if lang == "de" else amount) + f"{NBSP}€"


def top(page):
    """Scroll to the top first: a full-page shot of a scrolled page draws the sticky top bar
    in the middle of it."""
    page.evaluate("window.scrollTo(0, 0)")
    return page


def overflow(page):
    """How far the page is wider than the phone (a word or field sticking out)."""
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


def phone_in(browser, lang):
    context = browser.new_context(
        viewport=PHONE, locale=LOCALES[lang], extra_http_headers={"Accept-Language": LOCALES[lang]}
    )
    context.set_default_timeout(10_000)
    return context, context.new_page()


def flat(text):
    """Spaces and line breaks as one space; the no-break space before € stays."""
    return re.sub(r"[ \t\r\n]+", " ", text).strip()


def totals(page, number):
    """The running totals of hand ``number``'s row, in seat order."""
    return [int(t) for t in page.locator(f"#hand-{number} td .total").all_inner_texts()]


def deltas(page, number):
    return [t.strip() for t in page.locator(f"#hand-{number} td .delta").all_inner_texts()]


def stored_bill(page, expected):
    """The saved bill's rows, (place and name, season total, share), are ``expected``, in the
    standings' order on every database (PostgreSQL's jsonb keeps no key order of its own)."""
    rows = page.locator(".stored-bill tbody tr")
    expect(rows).to_have_count(len(expected))
    assert [tuple(flat(t) for t in row.locator("th, td").all_inner_texts()[:3]) for row in rows.all()] == expected


def sign_up(page, *, username, name):
    page.fill("#id_username", username)
    page.fill("#id_email", f"{username}@example.org")
    if name is not None:
        page.fill("#id_display_name", name)
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)


def earlier_evenings(league, user):
    """Jonas, Carl and Dora have hosted this season already. Seeded through the services, not
    the pages: it keeps the test short; the pages of an evening are walked through below, on
    the last host's evening. Each has an end time long past, so its fourth hand (dealt by the
    last seat) ends it (doppelkopf.md, a round; seed 003), and the season can close when the
    last evening ends.

    Four at the table, all active; every hand a plain normal game, 131 eyes for Re, no calls:
    gewonnen 1 (Kontra's 109 is not under 90), +1 each winner, -1 each loser (doppelkopf.md,
    game value item 1; no Bock trigger, no loser-gets-points: Kontra has 60 and more).
    1. Jonas hosts: Hanne+Jonas win three, Carl+Dora one.   Hanne +2, Jonas +2, Carl -2, Dora -2
    2. Carl hosts: Carl+Dora win all four.                  Carl +4, Dora +4, Hanne -4, Jonas -4
    3. Dora hosts: Hanne+Carl win three, Jonas+Dora one.    Hanne +2, Carl +2, Jonas -2, Dora -2
    Before the last evening: Hanne 0, Jonas -4, Carl +4, Dora 0.
    """
    players = {p.name: p for p in league.players.all()}
    hands = {
        "Jonas": [["Hanne", "Jonas"]] * 3 + [["Carl", "Dora"]],
        "Carl": [["Carl", "Dora"]] * 4,
        "Dora": [["Hanne", "Carl"]] * 3 + [["Jonas", "Dora"]],
    }
    today = timezone.localdate()
    for weeks_ago, host in zip((9, 6, 3), hands, strict=True):
        start = SEATS.index(host)
        seated = [players[name] for name in SEATS[start:] + SEATS[:start]]
        meeting = meetings.start_meeting(
            league=league,
            date=today - datetime.timedelta(weeks=weeks_ago),
            players=seated,
            end_time=datetime.time(22, 0),
            user=user,
        )
        for re_party in hands[host]:
            services.enter_hand(meeting=meeting, payload={"kind": "normal", "re": re_party, "re_eyes": 131}, by=user)
        meeting.refresh_from_db()
        assert meeting.closed_at is not None  # the fourth hand ended it


def enter_solo(page, number, soloist, solo, eyes):
    """Enter hand ``number`` as a solo: tap Solo, its kind, the soloist, type his eyes, save."""
    form = page.locator("#hand-form")
    form.locator("label.chip:has(input[name=kind][value=solo])").click()
    form.locator(f"label.chip:has(input[name=solo][value={solo}])").click()
    form.locator(f".dk-party label.chip:has(input[value='{soloist}'])").click()
    form.locator("input[name=eyes]").fill(str(eyes))
    form.locator("button[type=submit]").click()
    expect(page.locator(f"#hand-{number}")).to_be_visible()


def post_anyway(page, url, fields):
    """A form sent to ``url`` although the page offers none (an old tab, a tampered page):
    what the server answers is what the phone then shows."""
    with page.expect_navigation():
        page.evaluate(
            """([url, fields]) => {
                const form = document.createElement("form");
                form.method = "post";
                form.action = url;
                for (const [name, value] of fields) {
                    const input = document.createElement("input");
                    input.type = "hidden";
                    input.name = name;
                    input.value = value;
                    form.appendChild(input);
                }
                document.body.appendChild(form);
                form.submit();
            }""",
            [url, fields],
        )


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.django_db(transaction=True)
def test_a_club_season_from_the_sign_up_to_a_reopened_evening(live_server, browser, shot, lang):
    url = live_server.url
    step = iter(range(1, 100))

    def snap(page, name):
        shot(top(page), f"season-e2e-{lang}-{next(step):02d}-{name}")

    hanne_context, hanne = phone_in(browser, lang)
    jonas_context, jonas = phone_in(browser, lang)
    try:
        # --- Hanne signs up and founds the league ------------------------------------------------
        hanne.goto(f"{url}/accounts/signup/")
        expect(hanne.locator("html")).to_have_attribute("lang", lang)
        sign_up(hanne, username="hanne", name="Hanne")
        snap(hanne, "signup")
        hanne.locator("form.card button[type=submit]").click()
        expect(hanne).to_have_url(f"{url}/leagues/new/")

        hanne.fill("#id_name", "Doko im Grünen Baum")
        hanne.select_option("#id_game", "doppelkopf")
        expect(hanne.locator("#id_variant")).to_have_value("club")
        snap(hanne, "create-league")
        hanne.locator(".league-form button[type=submit]").click()
        expect(hanne.locator("h1")).to_have_text("Doko im Grünen Baum")
        league = League.objects.get(name="Doko im Grünen Baum")
        assert (league.game, league.variant) == ("doppelkopf", "club")
        league_url = f"{url}/l/{league.slug}/"
        expect(hanne).to_have_url(league_url)

        # --- the others: three players, and an invite for Jonas's account ------------------------
        for name in SEATS[1:]:
            hanne.fill("#id_player-name", name)
            hanne.locator("form[action$='/players/add/'] button[type=submit]").click()
            expect(hanne.locator("#players .list")).to_contain_text(name)
        expect(hanne.locator("#players .list li")).to_have_count(4)
        hanne.select_option("#id_invite-role", Role.SCOREKEEPER)
        hanne.select_option("#id_invite-player", label="Jonas")
        hanne.locator("form[action$='/invites/new/'] button[type=submit]").click()
        invite_link = hanne.locator("#new-invite-link").input_value()
        assert "/invite/" in invite_link
        assert overflow(hanne) <= 0
        snap(hanne, "players-and-invite")

        # Jonas follows the link on his phone and signs up; he plays as the Jonas Hanne added.
        jonas.goto(invite_link)
        expect(jonas.locator("#id_display_name")).to_have_value("Jonas")
        sign_up(jonas, username="jonas", name=None)
        snap(jonas, "invite-signup")
        jonas.locator("form.card button[type=submit]").click()
        expect(jonas).to_have_url(league_url)
        expect(jonas.locator(".messages")).to_contain_text("Doko im Grünen Baum")
        # A scorekeeper: he may start meetings and enter hands.
        expect(jonas.locator(f"a.button[href='/l/{league.slug}/meetings/new/']")).to_be_visible()
        snap(jonas, "joined")
        jonas_user = get_user_model().objects.get(username="jonas")
        assert Membership.objects.get(league=league, user=jonas_user).role == Role.SCOREKEEPER
        assert league.players.get(user=jonas_user).name == "Jonas"

        hanne_user = get_user_model().objects.get(username="hanne")
        earlier_evenings(league, hanne_user)

        # --- the last host's evening: the end time passed before it started ----------------------
        # Yesterday until 20:00: the end time has passed, so the round now starting is the
        # last (doppelkopf.md: the host round in progress is finished, its last game dealt by
        # players[-1]).
        yesterday = timezone.localdate() - datetime.timedelta(days=1)
        hanne.goto(league_url)
        hanne.locator(f"a.button[href='/l/{league.slug}/meetings/new/']").click()
        # Hanne alone has not hosted this season (league.md, host rotation).
        expect(hanne.locator(".suggest b")).to_have_text("Hanne")
        expect(hanne.locator("#seats .seat-name")).to_have_text(["Hanne"])
        for name in SEATS[1:]:
            hanne.locator("#bench label.chip", has_text=name).click()
        expect(hanne.locator("#seats .seat-name")).to_have_text(SEATS)
        hanne.fill("input[name=date]", yesterday.isoformat())
        hanne.fill("input[name=end_time]", "20:00")
        snap(hanne, "start-meeting")
        hanne.locator("#start-form button.wide[type=submit]").click()
        expect(hanne.locator("#hand-form")).to_be_visible()
        meeting = Meeting.objects.get(league=league, date=yesterday)
        assert meeting.host.name == "Hanne"
        meeting_url = f"{url}{meeting.get_absolute_url()}"
        # Everyone has hosted: the season is complete (league.md), though not closed yet.
        season = Season.objects.get(league=league, number=1)
        assert season.closed_on == yesterday and season.locked_at is None

        # Jonas keeps the sheet at the table.
        jonas.goto(meeting_url)
        panel = jonas.locator(".next-card")
        # Four games left in the host round: Hanne, Jonas, Carl and Dora each deal once more.
        expect(panel.locator(".ending")).to_contain_text(say(lang, "End time passed"))
        expect(panel.locator(".ending b")).to_contain_text("4")
        # Nobody has been the soloist tonight: all four owe a solo in this last round
        # (doppelkopf.md, end of the meeting: solo_owed, in seat order).
        owed = panel.locator(".owed b, .last-round-solos b")
        expect(owed).to_have_text("Hanne, Jonas, Carl, Dora")
        # The form offers the solo and its kinds.
        form = jonas.locator("#hand-form")
        expect(form.locator("label.chip:has(input[name=kind][value=solo])")).to_be_visible()
        form.locator("label.chip:has(input[name=kind][value=solo])").click()
        expect(form.locator(".dk-solo")).to_be_visible()
        assert overflow(jonas) <= 0
        snap(jonas, "last-round")

        # --- the four solos (doppelkopf.md, club: solo point; soloist x3) -----------------------
        # Seats Hanne, Jonas, Carl, Dora; totals in seat order.
        # Hand 1 (Hanne deals): Jonas, Damen solo, 130 eyes: gewonnen 1 + solo point 1 = 2
        # (Kontra's 110 is not under 90): Jonas +6, the others -2.
        enter_solo(jonas, 1, "Jonas", "damen", 130)
        assert deltas(jonas, 1) == ["-2", "+6", "-2", "-2"]
        assert totals(jonas, 1) == [-2, 6, -2, -2]
        # Jonas has played his; three still owe one, now said as the last round's.
        expect(jonas.locator(".next-card .last-round-solos")).to_contain_text(
            say(lang, "Last round: must still play a solo")
        )
        expect(jonas.locator(".next-card .last-round-solos b")).to_have_text("Hanne, Carl, Dora")
        expect(jonas.locator(".next-card .ending b")).to_contain_text("3")
        snap(jonas, "solo-1")
        # Hand 2 (Jonas deals): Carl, Buben solo, 100 eyes, lost: Kontra has 140 (target 120);
        # gewonnen 1 + solo point 1 = 2, no "Gegen die Alten" in a solo: Carl -6, others +2.
        enter_solo(jonas, 2, "Carl", "buben", 100)
        assert deltas(jonas, 2) == ["+2", "+2", "-6", "+2"]
        assert totals(jonas, 2) == [0, 8, -8, 0]
        expect(jonas.locator(".next-card .last-round-solos b")).to_have_text("Hanne, Dora")
        # Hand 3 (Carl deals): Dora, Trumpf solo, 151 eyes: Kontra 89, under 90: gewonnen 1 +
        # under 90 1 + solo point 1 = 3: Dora +9, others -3.
        enter_solo(jonas, 3, "Dora", "trumpf", 151)
        assert deltas(jonas, 3) == ["-3", "-3", "-3", "+9"]
        assert totals(jonas, 3) == [-3, 5, -11, 9]
        expect(jonas.locator(".next-card .last-round-solos b")).to_have_text("Hanne")
        expect(jonas.locator(".next-card .ending b")).to_contain_text("1")
        snap(jonas, "solo-3")
        # Hand 4 (Dora, the last seat, deals the last game): Hanne, Fleischlos, 121 eyes: 2:
        # Hanne +6, others -2. It is the fourth solo in a row (a Bock trigger), but the
        # evening ends with it and a round still waiting is dropped (carry_special_rounds).
        enter_solo(jonas, 4, "Hanne", "fleischlos", 121)
        assert deltas(jonas, 4) == ["+6", "-2", "-2", "-2"]
        assert totals(jonas, 4) == [3, 3, -13, 7]
        expect(jonas.locator("#sheet td.soloist")).to_have_count(4)  # one soloist a row

        # --- the evening is over ---------------------------------------------------------------
        expect(jonas.locator("h2#next-title")).to_have_text(say(lang, "The evening is over"))
        expect(jonas.locator("#hand-form")).to_have_count(0)
        # Dora +7 is tonight's best: she won the evening and brings the pennant (league.md).
        expect(jonas.locator(".evening-over .winner b")).to_have_text("Dora")
        expect(jonas.locator(".evening-over .pennant-to b")).to_have_text("⚑ Dora")
        expect(jonas.locator(".evening-over .closed-by")).to_be_visible()  # closed by that hand
        assert overflow(jonas) <= 0
        snap(jonas, "evening-over")
        meeting.refresh_from_db()
        assert meeting.closed_by == jonas_user

        # --- the season is closed: its last evening ended ----------------------------------------
        hanne.goto(league_url)
        hanne.locator(f"#seasons a[href='/l/{league.slug}/seasons/1/bill/']").click()
        expect(hanne.locator(".season-state")).to_contain_text(
            pattern(lang, "The season is closed (since %(when)s): its evenings and standings no longer change.")
        )
        # Season totals (earlier evenings + tonight): Hanne 0+3 = +3, Jonas -4+3 = -1,
        # Carl +4-13 = -9, Dora 0+7 = +7; the worst, Carl, chooses the restaurant (league.md).
        table = hanne.locator(".standings-table tbody")
        expect(table.locator("th")).to_have_text(["Dora", "Hanne", "Jonas", "Carl"])
        expect(table.locator("td.big")).to_have_text(["+7", "+3", "-1", "-9"])
        expect(hanne.locator(".chooser-name")).to_have_text("Carl")
        season.refresh_from_db()
        assert season.locked_at is not None

        # --- the bill, typed the page's way, and stored ------------------------------------------
        hanne.fill("input[name=total]", "187,40" if lang == "de" else "187.40")
        expect(hanne.locator("input[name=method][value=per_point]")).to_be_checked()
        hanne.fill("input[name=cents_per_point]", "10")
        hanne.select_option("select[name=paid_by]", label="Hanne")
        snap(hanne, "bill-form")
        hanne.locator(".bill-form button[type=submit]").click()  # the split, not saved yet
        hanne.locator(".bill-save button[type=submit]").click()
        expect(hanne.locator(".messages")).to_contain_text(say(lang, "The bill is saved, and the season is closed."))
        # league.md, per_point: share = 187.40 / 4 + 0.10 x (mean - own); the mean is 0 (every
        # game sums to zero), so 46.85 - 0.10 x own: Dora 46.15, Hanne 46.55, Jonas 46.95,
        # Carl 47.75 (sum 187.40, no cent left over). Hanne paid: the others pay her their share.
        stored = hanne.locator(".stored-bill")
        expect(stored.locator("h2")).to_contain_text(money(lang, "187.40"))
        snap(hanne, "bill-stored")
        first_bill = [
            ("1. Dora", "+7", money(lang, "46.15")),
            ("2. Hanne", "+3", money(lang, "46.55")),
            ("3. Jonas", "-1", money(lang, "46.95")),
            ("4. Carl", "-9", money(lang, "47.75")),
        ]
        stored_bill(hanne, first_bill)
        transfers = {flat(t) for t in stored.locator(".transfers li").all_inner_texts()}
        assert transfers == {
            f"Jonas → Hanne {money(lang, '46.95')}",
            f"Carl → Hanne {money(lang, '47.75')}",
            f"Dora → Hanne {money(lang, '46.15')}",
        }
        assert overflow(hanne) <= 0

        # --- a hand into the closed season is refused ------------------------------------------
        season_1 = say(lang, "Season %(number)s", number=1)
        refusal = say(
            lang, "%(season)s is closed: its hands can no longer be changed. An admin can reopen it.", season=season_1
        )
        jonas.goto(meeting_url)
        expect(jonas.locator("#hand-form")).to_have_count(0)  # no form is offered
        csrf = next(c["value"] for c in jonas_context.cookies() if c["name"] == "csrftoken")
        hand_5 = [
            ("csrfmiddlewaretoken", csrf),
            ("expected_hand", "5"),
            ("idempotency_key", str(uuid.uuid4())),
            ("kind", "normal"),
            ("re", "Hanne"),
            ("re", "Jonas"),
            ("eyes_for", "re"),
            ("eyes", "131"),
        ]
        post_anyway(jonas, f"{meeting.get_absolute_url()}hands/_hx/", hand_5)
        expect(jonas.locator("#at-table .alert-error")).to_have_text(refusal)
        expect(jonas.locator("#hand-form")).to_have_count(0)
        expect(jonas.locator("h2#next-title")).to_have_text(say(lang, "The evening is over"))
        expect(jonas.locator("#hand-5")).to_have_count(0)
        snap(jonas, "hand-refused")
        # The correction page of hand 2 shows the hand without a save button; sent anyway, the
        # correction is refused with the same reason.
        hand_2 = Hand.objects.get(meeting=meeting, number=2)
        jonas.goto(f"{meeting_url}h/{hand_2.pk}/edit/")
        expect(jonas.locator("#hand-form input[name=eyes]")).to_have_value("100")
        expect(jonas.locator("#hand-form button[type=submit]")).to_have_count(0)
        # It says the hands are closed (the evening's words or the season's).
        evening_closed = say(
            lang, "This evening is closed: its hands can no longer be changed. An admin can reopen it."
        )
        expect(jonas.locator("#hand-form .alert-error")).to_have_text(
            re.compile(f"^({re.escape(evening_closed)}|{re.escape(refusal)})$")
        )
        jonas.locator("#hand-form input[name=eyes]").fill("151")
        with jonas.expect_navigation():
            jonas.evaluate("document.getElementById('hand-form').submit()")
        expect(jonas.locator("#hand-form .form-errors")).to_contain_text(refusal)
        snap(jonas, "correction-refused")
        assert Hand.objects.get(pk=hand_2.pk).payload["re_eyes"] == 100
        assert Hand.objects.filter(meeting=meeting).count() == 4

        # --- Hanne reopens the season, then the evening -----------------------------------------
        hanne.goto(meeting_url)
        hanne.locator(".evening-over a[href$='/reopen/']").click()
        warning = hanne.locator(".warning")
        expect(warning).to_contain_text(
            say(lang, "%(season)s is closed: an admin reopens the season first.", season=season_1)
        )
        expect(hanne.locator("textarea[name=reason]")).to_have_count(0)  # no form for the evening yet
        snap(hanne, "reopen-evening-needs-season")
        warning.locator(f"a[href='/l/{league.slug}/seasons/1/reopen/']").click()
        hanne.fill("textarea[name=reason]", SEASON_REASON[lang])
        snap(hanne, "reopen-season")
        hanne.locator("form.card button[type=submit]").click()
        expect(hanne).to_have_url(f"{url}/l/{league.slug}/seasons/1/bill/")
        expect(hanne.locator(".messages")).to_contain_text(
            say(lang, "The season is open again: reopen the evening you want to correct.")
        )
        expect(hanne.locator(".season-state .reopenings li")).to_contain_text(SEASON_REASON[lang])
        # The stored bill stays as it was paid.
        expect(hanne.locator(".stored-bill tbody td.big")).to_have_count(4)
        snap(hanne, "season-reopened")

        hanne.goto(meeting_url)
        hanne.locator(".evening-over a[href$='/reopen/']").click()
        hanne.fill("textarea[name=reason]", EVENING_REASON[lang])
        snap(hanne, "reopen-evening")
        hanne.locator("form.card button[type=submit]").click()
        expect(hanne).to_have_url(meeting_url)
        expect(hanne.locator(".messages")).to_contain_text(say(lang, "The evening is open again."))
        # Open again: the form for a fifth hand is back.
        expect(hanne.locator("#hand-form")).to_be_visible()
        expect(hanne.locator("#hand-4")).to_be_visible()
        snap(hanne, "evening-reopened")
        hanne.locator(".meeting-nav a[href$='/history/']").click()
        expect(hanne.locator(".history-reopened .history-summary")).to_have_text(
            f"{say(lang, 'Reason:')} {EVENING_REASON[lang]}"
        )
        assert overflow(hanne) <= 0
        snap(hanne, "history-reason")
        meeting.refresh_from_db()
        season.refresh_from_db()
        assert meeting.closed_at is None and season.locked_at is None

        # --- corrected, the evening ends again, and with it the season ----------------------------
        # Jonas corrects hand 2: Carl won his Buben solo with 151 eyes. Kontra 89, under 90:
        # gewonnen 1 + under 90 1 + solo point 1 = 3: Carl +9, the others -3. Hands 3 and 4 as
        # before: tonight Hanne -2, Jonas -2, Carl +2, Dora +2.
        jonas.goto(meeting_url)
        jonas.locator("#hand-2 th a").click()
        jonas.locator("#why a[href$='/edit/']").click()
        jonas.locator("#hand-form input[name=eyes]").fill("151")
        jonas.locator("#hand-form button[type=submit]").click()
        expect(jonas.locator("#hand-2")).to_be_visible()
        assert deltas(jonas, 2) == ["-3", "-3", "+9", "-3"]
        assert totals(jonas, 2) == [-5, 3, 7, -5]
        assert totals(jonas, 3) == [-8, 0, 4, 4]
        assert totals(jonas, 4) == [-2, -2, 2, 2]
        snap(jonas, "corrected")
        # The round is complete and the end time long past: "End the evening", below the
        # sheet, asks first, and the answer closes it.
        jonas.locator("#evening-end a[href$='/close/']").click()
        jonas.get_by_role("button", name=say(lang, "Yes, end the evening")).click()
        expect(jonas.locator("h2#next-title")).to_have_text(say(lang, "The evening is over"))
        # Carl and Dora both +2: Carl sits first, he won tonight and brings the pennant (league.md).
        expect(jonas.locator(".evening-over .winner b")).to_have_text("Carl")
        expect(jonas.locator(".evening-over .pennant-to b")).to_have_text("⚑ Carl")
        snap(jonas, "evening-over-again")

        # Its last evening closed again: so is the season. The saved bill stays what was paid,
        # beside the same bill by today's standings: Hanne 0-2 = -2, Jonas -4-2 = -6,
        # Carl +4+2 = +6, Dora 0+2 = +2; 46.85 - 0.10 x own: Carl 46.25, Dora 46.65,
        # Hanne 47.05, Jonas 47.45 (sum 187.40); against what was saved (Dora 46.15, Hanne
        # 46.55, Jonas 46.95, Carl 47.75): +0.50 for each of the three, -1.50 for Carl.
        hanne.goto(f"{url}/l/{league.slug}/seasons/1/bill/")
        expect(hanne.locator(".season-state")).to_contain_text(
            pattern(lang, "The season is closed (since %(when)s): its evenings and standings no longer change.")
        )
        compare = hanne.locator(".bill-compare")
        expect(compare.locator("tbody th")).to_have_text(["1. Carl", "2. Dora", "3. Hanne", "4. Jonas"])
        expect(compare.locator("tbody td.big")).to_contain_text(
            [money(lang, a) for a in ("46.25", "46.65", "47.05", "47.45")]
        )
        expect(compare.locator("tbody td:nth-child(4)")).to_have_text(
            ["-" + money(lang, "1.50"), "+" + money(lang, "0.50"), "+" + money(lang, "0.50"), "+" + money(lang, "0.50")]
        )
        stored_bill(hanne, first_bill)
        snap(hanne, "bill-beside-today")
        compare.locator("form button[type=submit]").click()
        expect(hanne.locator(".bill-compare")).to_have_count(0)
        second_bill = [
            ("1. Carl", "+6", money(lang, "46.25")),
            ("2. Dora", "+2", money(lang, "46.65")),
            ("3. Hanne", "-2", money(lang, "47.05")),
            ("4. Jonas", "-6", money(lang, "47.45")),
        ]
        stored_bill(hanne, second_bill)
        # Jonas is the worst now: he chooses the restaurant (league.md).
        expect(hanne.locator(".chooser-name")).to_have_text("Jonas")
        snap(hanne, "bill-saved-again")
        season.refresh_from_db()
        assert season.locked_at is not None
    finally:
        jonas_context.close()
        hanne_context.close()
