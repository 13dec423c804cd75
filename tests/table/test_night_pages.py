"""A club night's pages (leagues/table/views/night.py): who may see the members' page and the
big screen, their polled parts answered 304 while nothing changed at any table and 200 after
a hand at either, and the standings the tables make together, rounded for display only."""

from fractions import Fraction

import pytest
from django.urls import reverse
from django.utils import translation

from leagues.models import ClubNight, Combine, Role
from leagues.table import meetings as table_meetings
from leagues.table import services as table_services
from leagues.table.night_page import score_text
from tests.factories import LeagueFactory, UserFactory, meeting_for, member, night_for

pytestmark = pytest.mark.django_db

TOKEN = "nightnightnightnightnightnight01"
FIVE = ["Anna", "Ben", "Carl", "Dora", "Emil"]
FOUR = ["Fritz", "Gabi", "Hans", "Ida"]


def won_by(*re):
    # Club rules: a normal game won by Re at 131 eyes is worth 1 point (Re +1 each, Kontra −1).
    return {"kind": "normal", "re": list(re), "re_eyes": 131, "announcements": [], "specials": []}


@pytest.fixture
def league():
    return LeagueFactory(name="Kreuz-Dame", game="doppelkopf", variant="club", public_token=TOKEN)


@pytest.fixture
def night(league):
    return night_for(league, [FIVE, FOUR])


def tables_of(night):
    return list(night.tables.order_by("table_number"))


def ended(table):
    """The table's evening ended, as "End the evening" ends it (its round need not be over)."""
    table_meetings.close_meeting_row(table, user=None)


def played(night):
    """Table 1: one hand won by Ben and Dora (Anna deals and sits out). Table 2: three hands,
    won by Fritz and Gabi, Fritz and Hans, Gabi and Hans. Totals: Ben, Dora +1, Anna 0, Carl,
    Emil −1 (one game each, Anna none); Fritz, Gabi, Hans +1, Ida −3 (three games each)."""
    first, second = tables_of(night)
    table_services.enter_hand(meeting=first, payload=won_by("Ben", "Dora"), by=None)
    for re in (("Fritz", "Gabi"), ("Fritz", "Hans"), ("Gabi", "Hans")):
        table_services.enter_hand(meeting=second, payload=won_by(*re), by=None)


def urls(night, *, token=None):
    """The members' page, its part, the big screen and its part (by the public link: the
    screen and its part)."""
    if token is not None:
        args = {"token": token, "pk": night.pk}
        return [reverse("public_night_live", kwargs=args), reverse("public_night_live_hx", kwargs=args)]
    args = {"slug": night.league.slug, "pk": night.pk}
    return [
        reverse(name, kwargs=args) for name in ("club_night", "club_night_hx", "club_night_live", "club_night_live_hx")
    ]


def poll(client, url, etag=None):
    headers = {"HTTP_IF_NONE_MATCH": etag} if etag else {}
    return client.get(url, HTTP_HX_REQUEST="true", **headers)


# --- who may ----------------------------------------------------------------------------------


def test_a_member_sees_every_page_of_the_night(client, night):
    client.force_login(member(night.league))
    for url in urls(night):
        response = client.get(url)
        assert response.status_code == 200, url
        assert response["ETag"] if url.endswith("_hx") else True


def test_anonymous_is_sent_to_the_login(client, night):
    for url in urls(night):
        response = client.get(url)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"], url


def test_it_refuses_a_member_of_another_league(client, night):
    client.force_login(member(night.league))
    etags = {url: poll(client, url)["ETag"] for url in urls(night) if url.endswith("_hx")}
    client.force_login(member(LeagueFactory()))
    for url in urls(night):
        # With the ETag a member was given: still no 304.
        assert poll(client, url, etags.get(url)).status_code == 404, url


def test_it_refuses_a_night_of_another_league_under_this_leagues_address(client, night):
    other = night_for(LeagueFactory(), [FIVE, FOUR])
    client.force_login(member(night.league))
    args = {"slug": night.league.slug, "pk": other.pk}
    for name in ("club_night", "club_night_hx", "club_night_live", "club_night_live_hx"):
        assert client.get(reverse(name, kwargs=args)).status_code == 404, name


def test_a_user_of_no_league_gets_404(client, night):
    client.force_login(UserFactory())
    assert all(client.get(url).status_code == 404 for url in urls(night))


def test_the_public_link_shows_the_screen_without_a_login(client, night):
    screen, part = urls(night, token=TOKEN)
    response = client.get(screen)
    assert response.status_code == 200
    text = response.content.decode()
    assert 'href="/l/' not in text and "<form" not in text  # no members' link, no controls
    assert poll(client, part)["ETag"]


def test_it_refuses_a_wrong_or_revoked_token_and_another_leagues_token(client, night):
    for url in urls(night, token="x" * 32):
        assert client.get(url).status_code == 404, url
    other = LeagueFactory(public_token="o" * 32)
    for url in urls(night, token=other.public_token):
        assert client.get(url).status_code == 404, url
    screen, part = urls(night, token=TOKEN)
    etag = poll(client, part)["ETag"]
    night.league.public_token = None
    night.league.save(update_fields=["public_token"])
    assert client.get(screen).status_code == 404 and poll(client, part, etag).status_code == 404


# --- what they show ---------------------------------------------------------------------------


def test_the_page_shows_each_table_and_the_way_to_its_sheet(client, night):
    played(night)
    client.force_login(member(night.league))
    response = client.get(urls(night)[0])
    first, second = tables_of(night)
    lines = response.context["table_lines"]
    assert [line["number"] for line in lines] == [1, 2]
    assert [line["hands"] for line in lines] == [1, 3]
    assert [name for name, _figure in lines[0]["players"]] == FIVE  # seat order
    assert lines[1]["players"] == [("Fritz", "+1"), ("Gabi", "+1"), ("Hans", "+1"), ("Ida", "−3")]
    text = response.content.decode()
    for table in (first, second):
        assert f'href="/l/{night.league.slug}/m/{table.pk}/">To the table</a>' in text
    assert f'href="/l/{night.league.slug}/n/{night.pk}/live/"' in text
    assert 'hx-trigger="every 3s"' in text and f'hx-get="{urls(night)[1]}"' in text


def test_the_page_says_when_a_table_ended(client, night):
    played(night)
    first, _second = tables_of(night)
    ended(first)
    client.force_login(member(night.league))
    lines = client.get(urls(night)[0]).context["table_lines"]
    assert [line["closed"] for line in lines] == [True, False]


def standings(client, night, combine):
    ClubNight.objects.filter(pk=night.pk).update(combine=combine)
    client.force_login(member(night.league))
    response = client.get(urls(night)[0])
    return response, [(r["place"], r["name"], r["score"]) for r in response.context["night_rows"]]


def test_the_standings_add_the_points_as_scored(client, night):
    played(night)
    response, rows = standings(client, night, Combine.POINTS)
    # Ties by score and points share a place: Ben, Dora, Fritz, Gabi and Hans at +1.
    assert rows[:6] == [(1, n, "+1") for n in ("Ben", "Dora", "Fritz", "Gabi", "Hans")] + [(6, "Anna", "0")]
    assert rows[-1] == (9, "Ida", "−3")
    text = response.content.decode()
    assert "Tables combined by: points as scored" in text
    assert (
        '<span class="place">9.</span> <span class="name">Ida <small class="muted">Table 2</small></span> <b class="figure">−3</b>'
        in text
    )


def test_the_standings_per_game_show_two_decimals(client, night):
    played(night)
    _response, rows = standings(client, night, Combine.PER_GAME)
    # Points per game over the night's average games: table 1 played one hand (Anna sat out),
    # table 2 three, so the mean over the eight who played is (4 × 1 + 4 × 3) / 8 = 2. Ben and
    # Dora 1/1 × 2 = 2; Fritz, Gabi, Hans 1/3 × 2 = 0.67; Anna no game: 0; Carl, Emil −1/1 × 2
    # and Ida −3/3 × 2 = −2 (Ida behind Carl and Emil by the points as scored).
    assert rows == [
        (1, "Ben", "+2.00"),
        (1, "Dora", "+2.00"),
        (3, "Fritz", "+0.67"),
        (3, "Gabi", "+0.67"),
        (3, "Hans", "+0.67"),
        (6, "Anna", "0.00"),
        (7, "Carl", "−2.00"),
        (7, "Emil", "−2.00"),
        (9, "Ida", "−2.00"),
    ]


def test_the_standings_by_placings_show_halves(client, night):
    played(night)
    response, rows = standings(client, night, Combine.PLACINGS)
    # Table 1: Ben and Dora ahead of three, level with one: 3½; Anna ahead of two: 2; Carl and
    # Emil level with one: ½. Table 2: Fritz, Gabi, Hans ahead of Ida, level with two: 2.
    assert rows == [
        (1, "Ben", "3½"),
        (1, "Dora", "3½"),
        (3, "Fritz", "2"),
        (3, "Gabi", "2"),
        (3, "Hans", "2"),
        (6, "Anna", "2"),
        (7, "Carl", "½"),
        (7, "Emil", "½"),
        (9, "Ida", "0"),
    ]
    assert "Table 1 · +1 · 1 game</small>" in response.content.decode()


def test_a_score_is_rounded_for_display_only():
    assert score_text(Fraction(2, 3), method=Combine.PER_GAME) == "+0.67"
    assert score_text(Fraction(-1, 8), method=Combine.PER_GAME) == "−0.13"  # half away from zero
    assert score_text(Fraction(5, 2), method=Combine.PLACINGS) == "2½"
    assert score_text(Fraction(7), method=Combine.POINTS) == "+7"
    assert score_text(Fraction(3, 2), method=Combine.PER_GAME, race=True) == "1.50"
    with translation.override("de"):
        assert score_text(Fraction(-3, 2), method=Combine.PER_GAME) == "−1,50"


def test_the_evening_is_over_when_every_table_ended(client, night):
    played(night)
    for table in tables_of(night):
        ended(table)
    response, _rows = standings(client, night, Combine.POINTS)
    assert response.context["night_over"] and response.context["night_winner"] == "Ben"


def test_the_screen_shows_every_tables_sheet_and_the_standings(client, night):
    played(night)
    client.force_login(member(night.league))
    text = client.get(urls(night)[2]).content.decode()
    assert text.count('<tr id="table-1-hand-') == 1 and text.count('<tr id="table-2-hand-') == 3
    assert "Table 1</h2>" in text and "Table 2</h2>" in text
    assert "Next: hand 2" in text and "Next: hand 4" in text
    assert "Tables combined by: points as scored" in text
    assert 'class="topbar"' not in text and "<form" not in text


def test_a_tables_sheet_names_its_night(client, night):
    first, _second = tables_of(night)
    client.force_login(member(night.league, Role.SCOREKEEPER))
    text = client.get(reverse("meeting", kwargs={"slug": night.league.slug, "pk": first.pk})).content.decode()
    assert f'href="/l/{night.league.slug}/n/{night.pk}/">Table 1 of the evening</a>' in text
    alone = meeting_for(night.league, FOUR)
    text = client.get(reverse("meeting", kwargs={"slug": night.league.slug, "pk": alone.pk})).content.decode()
    assert "of the evening</a>" not in text


# --- the ETag ---------------------------------------------------------------------------------


def test_an_unchanged_poll_is_answered_304(client, night):
    client.force_login(member(night.league))
    for part in urls(night)[1::2]:
        etag = poll(client, part)["ETag"]
        again = poll(client, part, etag)
        assert again.status_code == 304 and again.content == b"", part


@pytest.mark.parametrize("table", [0, 1])
def test_a_hand_at_either_table_is_drawn_at_the_next_poll(client, night, table):
    client.force_login(member(night.league))
    parts = [*urls(night)[1::2], urls(night, token=TOKEN)[1]]
    etags = {part: poll(client, part)["ETag"] for part in parts}
    meeting = tables_of(night)[table]
    names = FIVE[1:] if table == 0 else FOUR
    table_services.enter_hand(meeting=meeting, payload=won_by(*names[:2]), by=None)
    for part in parts:
        answer = poll(client, part, etags[part])
        assert answer.status_code == 200 and answer["ETag"] != etags[part], part
        assert poll(client, part, answer["ETag"]).status_code == 304, part


def test_a_table_ended_changes_the_mark(client, night):
    played(night)
    client.force_login(member(night.league))
    part = urls(night)[1]
    etag = poll(client, part)["ETag"]
    ended(tables_of(night)[1])
    assert poll(client, part, etag).status_code == 200


def test_the_etag_differs_by_language_and_kind_of_reader(client, night):
    client.force_login(member(night.league))
    member_part, public_part = urls(night)[3], urls(night, token=TOKEN)[1]
    english = poll(client, member_part)["ETag"]
    german = client.get(member_part, HTTP_ACCEPT_LANGUAGE="de")["ETag"]
    public = poll(client, public_part)["ETag"]
    assert len({english, german, public}) == 3


def test_a_race_games_night_ranks_by_games_won(client):
    """45 (Bruff): Aoife wins game 1 at table 1 in two hands (25, then 20 more: 45); table 2
    plays none. By points as scored a race table's figure is its games won, shown unsigned."""
    league = LeagueFactory(game="forty_five", variant="bruff", public_token=TOKEN)
    night = night_for(league, [["Aoife", "Brian", "Ciara"], ["Dónal", "Eimear", "Fionn"]])
    first, _second = tables_of(night)
    for tricks in (["Aoife", "Aoife", "Aoife", "Brian", "Aoife"], ["Aoife"] * 4 + ["Brian"]):
        table_services.enter_hand(meeting=first, payload={"tricks": tricks, "top_trump_trick": 1}, by=None)
    client.force_login(member(league))
    response = client.get(urls(night)[0])
    assert response.context["table_lines"][0]["players"][0] == ("Aoife", "1 game won")
    assert [(r["place"], r["name"], r["score"]) for r in response.context["night_rows"]][:2] == [
        (1, "Aoife", "1"),
        (2, "Brian", "0"),
    ]
    assert client.get(urls(night)[2]).status_code == 200
    assert client.get(urls(night, token=TOKEN)[0]).status_code == 200
