"""The printable season report: who may read it, and what it says of a small
season worked out by hand.

Doppelkopf, club rules, four players who host in turn (Anna, Ben, Carl, Dora), four evenings
of four hands (the fourth hand of each ends the evening, its end time long past; the fourth
evening completes and closes the season). Every hand is a plain Re win of Ben and Dora (131
eyes, nothing said: gewonnen 1, so +1 each for Ben and Dora, −1 for Anna and Carl; DDV 7.2.2),
except the third hand of the first evening: Dora's Damen solo won 131:109, nothing said:
gewonnen 1 + Solopunkt 1 (club) = 2, the soloist three times: Dora +6, the others −2 each.

First evening (9 Jan): Ben +1+1−2+1 = +1, Dora +1+1+6+1 = +9, Anna and Carl −1−1−2−1 = −5.
Each later evening: Ben and Dora +4, Anna and Carl −4; the evening goes to the first of the two
in that evening's seat order (league.md, the pennant): Ben on 13 Feb (Ben, Carl, Dora, Anna),
Dora on 13 Mar and 10 Apr.
Season: Dora 9+12 = +21, Ben 1+12 = +13, Anna and Carl −5−12 = −17 (equal third; Anna first by
name). Evenings won: Dora 3, Ben 1.
The bill: 100 € by points at 10 cents, mean score 0, share = 25 − 0.10 × score: Dora 22.90,
Ben 23.70, Anna and Carl 26.70 (sum 100.00); Anna paid: the others pay her their shares.
"""

import datetime
import re

import pytest
from django.urls import reverse

from leagues.clubs import services as clubs_services
from leagues.models import Player, Role
from leagues.seasons import services as seasons_services
from leagues.table import meetings as table_meetings
from leagues.table import services as table_services
from tests.factories import LeagueFactory, meeting_for, member

FOUR = ["Anna", "Ben", "Carl", "Dora"]
BEN_DORA = {"kind": "normal", "re": ["Ben", "Dora"], "re_eyes": 131}
DORA_SOLO = {"kind": "solo", "solo": "damen", "re": ["Dora"], "re_eyes": 131}
HOSTS = [FOUR[i:] + FOUR[:i] for i in range(4)]
DATES = [datetime.date(2026, 1, 9), datetime.date(2026, 2, 13), datetime.date(2026, 3, 13), datetime.date(2026, 4, 10)]
BILL = {"total": "100.00", "method": "per_point", "cents_per_point": "10", "paid_by": "Anna"}


def build_season(league, keeper, *, year=0):
    """The season above (``year`` later: the same evenings in another season)."""
    meetings = []
    for number in range(4):
        date = DATES[number].replace(year=DATES[number].year + year)
        meeting = meeting_for(league, HOSTS[number], date=date, end_time=datetime.time(22, 0))
        hands = [BEN_DORA, BEN_DORA, DORA_SOLO, BEN_DORA] if number == 0 else [BEN_DORA] * 4
        for payload in hands:
            table_services.enter_hand(meeting=meeting, payload=payload, by=keeper)
        meetings.append(meeting)
    season = meetings[0].season
    season.refresh_from_db()
    return season


@pytest.fixture
def league(db):
    return LeagueFactory(game="doppelkopf", variant="club", public_token="t" * 32)


@pytest.fixture
def people(league):
    people = {role: member(league, role) for role in (Role.ADMIN, Role.SCOREKEEPER, Role.MEMBER)}
    # Their own players do not play: the season is complete when the four above have hosted.
    Player.objects.filter(league=league, user__isnull=False).update(active=False)
    return people


@pytest.fixture
def season(league, people, django_capture_on_commit_callbacks):
    keeper = people[Role.SCOREKEEPER]
    with django_capture_on_commit_callbacks(execute=True):
        season = build_season(league, keeper)
    season.refresh_from_db()
    seasons_services.settle_bill(season=season, bill=BILL, user=keeper)
    return season


def url(league, number=1):
    return reverse("season_report", kwargs={"slug": league.slug, "number": number})


def public_url(league, number=1):
    return reverse("public_season_report", kwargs={"token": league.public_token, "number": number})


def text(response):
    """The page's words, tags dropped and spaces squeezed."""
    html = response.content.decode()
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def section(response, name):
    html = response.content.decode()
    match = re.search(rf'<section class="report-section report-{name}">(.*?)</section>', html, flags=re.S)
    assert match, name
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", match.group(1))).strip()


# --- access -----------------------------------------------------------------------------------


def test_anonymous_is_sent_to_log_in(client, season, league):
    response = client.get(url(league))
    assert response.status_code == 302 and "/login/" in response["Location"]


@pytest.mark.parametrize("role", [Role.MEMBER, Role.SCOREKEEPER, Role.ADMIN])
def test_every_member_reads_the_report(client, season, league, people, role):
    client.force_login(people[role])
    response = client.get(url(league))
    assert response.status_code == 200
    assert "the season report" in text(response)


def test_a_member_of_another_league_gets_404(client, season, league):
    other = LeagueFactory()
    client.force_login(member(other, Role.ADMIN))
    assert client.get(url(league)).status_code == 404


def test_a_season_the_league_has_not_played_is_404(client, season, league, people):
    client.force_login(people[Role.MEMBER])
    assert client.get(url(league, number=2)).status_code == 404


def test_the_public_link_reads_the_report_without_the_bill(client, season, league):
    response = client.get(public_url(league))
    assert response.status_code == 200
    page = text(response)
    assert "Dora" in page and "+21" in page
    assert "report-bill" not in response.content.decode()
    assert "Who pays whom" not in page
    # Its links stay on the public pages.
    assert f"/p/{league.public_token}/" in response.content.decode()
    assert f"/l/{league.slug}/" not in response.content.decode()


def test_a_wrong_or_revoked_public_link_is_404(client, season, league):
    assert client.get(reverse("public_season_report", kwargs={"token": "x" * 32, "number": 1})).status_code == 404
    token = league.public_token
    clubs_services.set_public_link(league=league, enabled=False)
    assert client.get(reverse("public_season_report", kwargs={"token": token, "number": 1})).status_code == 404


# --- what it says -----------------------------------------------------------------------------


@pytest.fixture
def page(client, season, league, people):
    client.force_login(people[Role.MEMBER])
    return client.get(url(league))


def test_the_final_standings_are_the_hand_worked_ones(page):
    standings = section(page, "standings")
    # rank, name, total, games, wins, solos played/won, evenings won
    assert "1. Dora +21 16 16 1/1 3" in standings
    assert "2. Ben +13 16 15 0/0 1" in standings
    assert "3. Anna -17 16 0 0/0" in standings
    assert "3. Carl -17 16 0 0/0" in standings
    assert standings.index("Anna") < standings.index("Carl")
    assert "Anna chooses the restaurant" in standings


def test_the_evenings_show_hosts_and_winners(page):
    evenings = section(page, "evenings")
    # number, date, host, winner, his total, hands
    assert re.search(r"1 Fri 9 Jan 2026 Anna ⚑ Dora \+9 4", evenings)
    assert re.search(r"2 Fri 13 Feb 2026 Ben ⚑ Ben \+4 4", evenings)
    assert re.search(r"3 Fri 13 Mar 2026 Carl ⚑ Dora \+4 4", evenings)
    assert re.search(r"4 Fri 10 Apr 2026 Dora ⚑ Dora \+4 4", evenings)


def test_the_chart_has_one_point_per_evening_at_the_running_totals(page):
    html = page.content.decode()
    lines = dict(re.findall(r'<polyline points="([^"]+)"[^>]*stroke="(#[0-9a-f]{6})"', html)[i][::-1] for i in range(4))
    assert len(lines) == 4
    legend = re.findall(r'<rect[^>]*fill="(#[0-9a-f]{6})"/></svg> (\w+)', html)
    by_name = {name: lines[colour] for colour, name in legend}
    ys = {name: [float(p.split(",")[1]) for p in points.split()] for name, points in by_name.items()}
    assert all(len(v) == 4 for v in ys.values())
    # Running totals: Dora 9, 13, 17, 21; Ben 1, 5, 9, 13; Anna and Carl −5, −9, −13, −17.
    # On a linear scale (higher up is smaller y), equal steps of 4 are equal steps on the page.
    for name, first in (("Dora", 9), ("Ben", 1), ("Anna", -5)):
        totals = [first + 4 * i if first > 0 else first - 4 * i for i in range(4)]
        y = ys[name]
        scale = (y[0] - y[3]) / (totals[3] - totals[0])
        for i in range(4):
            assert y[i] == pytest.approx(y[0] - (totals[i] - totals[0]) * scale, abs=0.2)
    assert ys["Anna"] == ys["Carl"]
    assert ys["Dora"][3] < ys["Ben"][3] < ys["Anna"][3]
    # The scale runs from −17 to +21 with 0 marked.
    assert re.search(r">\+21</text>", html) and re.search(r">−17</text>", html) and re.search(r">0</text>", html)


def test_the_highlights_are_worked_out_by_hand(page):
    highlights = section(page, "highlights")
    assert "Best evening +9 Dora · 9 Jan 2026" in highlights
    assert "Most evenings won 3 Dora" in highlights
    assert "Most solos won 1 Dora" in highlights
    assert "Best hand +6 Dora · hand 3, 9 Jan 2026" in highlights
    assert "Longest evening 4 · 9 Jan 2026, 13 Feb 2026, 13 Mar 2026, 10 Apr 2026" in highlights


def test_the_bill_shows_the_stored_shares_and_transfers(page):
    bill = section(page, "bill")
    assert "100.00 €" in bill
    for line in ("1. Dora +21 22.90 €", "2. Ben +13 23.70 €", "3. Anna -17 26.70 € 100.00 €", "3. Carl -17 26.70 €"):
        assert line in bill.replace("−", "-")
    assert "Dora → Anna 22.90 €" in bill
    assert "Ben → Anna 23.70 €" in bill
    assert "Carl → Anna 26.70 €" in bill


def test_a_season_without_a_bill_says_so(client, league, people, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        build_season(league, people[Role.SCOREKEEPER])
    client.force_login(people[Role.MEMBER])
    bill = section(client.get(url(league)), "bill")
    assert "No bill saved for this season yet." in bill


def test_a_running_season_reports_what_there_is(client, league, people):
    meeting = meeting_for(league, HOSTS[0], date=DATES[0])
    table_services.enter_hand(meeting=meeting, payload=BEN_DORA, by=people[Role.SCOREKEEPER])
    client.force_login(people[Role.MEMBER])
    response = client.get(url(league))
    assert response.status_code == 200
    assert "still running" in text(response)
    assert "1. Ben +1" in section(response, "standings")
    assert "report-bill" not in response.content.decode()


def test_the_standings_and_the_bill_link_to_the_report(client, season, league, people):
    client.force_login(people[Role.MEMBER])
    standings = client.get(reverse("standings", kwargs={"slug": league.slug})).content.decode()
    assert url(league) in standings
    bill = client.get(reverse("season_bill", kwargs={"slug": league.slug, "number": 1})).content.decode()
    assert url(league) in bill
    public = client.get(reverse("public_standings", kwargs={"token": league.public_token})).content.decode()
    assert public_url(league) in public


def test_a_race_game_reports_games_won(client, db):
    """45 (Bruff), one evening of tests/table/test_race_sheets.py's three hands: Aoife reaches 45 at
    hand 2 and wins game 1; points scored in all hands: Aoife 25 + 20 + 5 = 50, Brian
    5 + 0 + 20 = 25, Ciara 0 + 0 + 5 = 5. The evening, once ended, goes to the most games won:
    Aoife."""
    from tests.table.test_race_sheets import FORTY_FIVE, add, race_meeting

    meeting, user = race_meeting("forty_five", "bruff", date=datetime.date(2026, 3, 6))
    add(meeting, user, *FORTY_FIVE)
    table_meetings.close_meeting(meeting=meeting, user=user)  # ended: only then has it a winner
    client.force_login(user)
    response = client.get(url(meeting.league))
    standings = section(response, "standings")
    # rank, name, games won, points, hands, evenings won
    assert "1. Aoife 1 50 3 1" in standings
    assert "2. Brian 0 25 3" in standings
    assert "3. Ciara 0 5 3" in standings
    highlights = section(response, "highlights")
    assert "Best evening 1 Aoife · 6 Mar 2026" in highlights
    assert "Most evenings won 1 Aoife" in highlights
    assert "Longest evening 3 · 6 Mar 2026" in highlights
    assert "Best hand" not in highlights and "solos" not in highlights
    assert "Games won over the season" in text(response)


def test_the_chart_keeps_svg_numbers_in_german(client, season, league, people):
    # A German page writes decimals with a comma; SVG coordinates must keep the point
    # ("190,0" broke every line and dot of the chart on German phones).
    client.force_login(people[Role.MEMBER])
    html = client.get(url(league), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    svg = html[html.index('<svg class="report-svg"') : html.index("</svg>", html.index('<svg class="report-svg"'))]
    assert 'lang="de"' in html
    assert not re.search(r' (cx|cy|x|y|x1|x2|y1|y2)="[^"]*,', svg)
    for points in re.findall(r'points="([^"]*)"', svg):
        assert all(pair.count(",") == 1 for pair in points.split())  # "x,y x,y": one comma a pair
    assert re.search(r' cx="\d+(\.\d+)?"', svg)
