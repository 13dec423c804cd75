"""A paper season imported in front of the league's evenings (league.md, seasons): a file whose
evenings are all dated before the league's first evening becomes a season (or seasons) of its
own before the league's, whose seasons are renumbered after it; the evenings already there
are scored anew from their hands where the imported ones carry special rounds into them, and
every cached figure then matches a fresh replay. A file with evenings between the league's
first and last is refused, naming its rows.

Doppelkopf, club rules with special rounds carried from one evening to the next. The
league's own evening (20 Nov 2026, Anna hosts): one plain game, Re Ben and Dora with 131 eyes,
no calls: gewonnen 1, so Ben and Dora +1, Anna and Carl −1 (DDV 7.2.2 (a)). A paper evening
ending 120:120 leaves a Bock round open (trigger split_120): carried into the league's
evening, that game counts double there: Ben and Dora +2, Anna and Carl −2.
"""

import datetime

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from leagues.exchange import paper_import
from leagues.models import HandResult, Meeting, Role, Season
from leagues.stats import selectors
from leagues.table import services, verify
from tests.factories import LeagueFactory, UserFactory, meeting_for, member

pytestmark = pytest.mark.django_db

FOUR = ["Anna", "Ben", "Carl", "Dora"]
DAY = datetime.date(2026, 11, 20)
PLAIN = {"kind": "normal", "re": ["Ben", "Dora"], "re_eyes": 131}

# Two paper evenings of 2024 as totals (Anna hosts, then Ben): one season, not complete.
TOTALS = """Datum;Gastgeber;Anna;Ben;Carl;Dora
12.01.2024;Anna;3;-1;-1;-1
09.02.2024;Ben;-2;2;2;-2
"""

# One paper evening of hands whose only game ends 120:120 (a Bock round follows).
SPLIT_EVENING = """date,players,kind,re,re_eyes
2024-03-01,Anna|Ben|Carl|Dora,normal,Ben|Dora,120
"""


@pytest.fixture
def league():
    return LeagueFactory(game="doppelkopf", variant="club", rule_overrides={"carry_special_rounds": True})


@pytest.fixture
def user():
    return UserFactory()


@pytest.fixture
def own_evening(league, user):
    meeting = meeting_for(league, FOUR, date=DAY)
    services.enter_hand(meeting=meeting, payload=PLAIN, by=user)
    return meeting


def ben(meeting):
    return HandResult.objects.filter(meeting=meeting, player__name="Ben").values_list("round", "delta").get()


def test_a_totals_season_goes_in_front_and_the_leagues_seasons_follow_it(league, user, own_evening):
    outcome = paper_import.run(league=league, kind="totals", text=TOTALS, user=user, commit=True)
    assert outcome.in_front
    assert [(e.date, e.season) for e in outcome.evenings] == [
        (datetime.date(2024, 1, 12), 1),
        (datetime.date(2024, 2, 9), 1),
    ]
    assert outcome.changed == []  # totals carry no round: the league's evening stays as it was
    seasons = list(Season.objects.filter(league=league).order_by("number"))
    assert [(s.number, s.started_on) for s in seasons] == [(1, datetime.date(2024, 1, 12)), (2, DAY)]
    # The paper season is over (the league's followed it): closed, with its evenings.
    assert seasons[0].closed_on == datetime.date(2024, 2, 9) and seasons[0].locked_at is not None
    assert seasons[1].locked_at is None
    own_evening.refresh_from_db()
    assert own_evening.season == seasons[1] and own_evening.closed_at is None
    assert ben(own_evening) == ("normal", 1)
    # All time: Anna 3 − 2 − 1 = 0, Ben −1 + 2 + 1 = 2; the season shown is the league's own.
    standings = selectors.standings(league=league)
    assert standings.season.number == 2
    assert {r.player.name: r.total for r in standings.all_time} == {"Anna": 0, "Ben": 2, "Carl": 0, "Dora": -2}
    assert verify.verify_replays(league=league) == (3, [])
    # The league's evening goes on as before.
    services.enter_hand(meeting=own_evening, payload=PLAIN, by=user)
    assert own_evening.season.number == 2


def test_rounds_carried_from_a_paper_evening_score_the_leagues_first_evening_anew(league, user, own_evening):
    assert ben(own_evening) == ("normal", 1)
    preview = paper_import.run(league=league, kind="hands", text=SPLIT_EVENING, user=user, commit=False)
    assert preview.in_front and [e.date for e in preview.changed] == [DAY]
    assert ben(own_evening) == ("normal", 1)  # the preview stored nothing
    paper_import.run(league=league, kind="hands", text=SPLIT_EVENING, user=user, commit=True)
    assert ben(own_evening) == ("bock", 2)
    assert verify.verify_replays(league=league) == (2, [])
    assert list(Season.objects.filter(league=league).order_by("number").values_list("number", flat=True)) == [1, 2]


def test_evenings_between_the_leagues_first_and_last_are_refused(league, user, own_evening):
    meeting_for(league, ["Ben", "Carl", "Dora", "Anna"], date=DAY + datetime.timedelta(days=28))
    text = "date,host,Anna,Ben,Carl,Dora\n2024-01-12,Anna,1,-1,0,0\n2026-12-04,Ben,1,-1,0,0\n"
    with pytest.raises(paper_import.PaperImportProblem) as caught:
        paper_import.run(league=league, kind="totals", text=text, user=user, commit=True)
    assert [(e.row, e.column) for e in caught.value.errors] == [(2, "date"), (3, "date")]
    assert Meeting.objects.filter(league=league).count() == 2
    assert list(Season.objects.filter(league=league).values_list("number", flat=True)) == [1]


def test_an_evening_on_the_date_of_the_leagues_first_is_not_in_front(league, user, own_evening):
    text = f"date,host,Anna,Ben,Carl,Dora\n2024-01-12,Anna,1,-1,0,0\n{DAY.isoformat()},Ben,1,-1,0,0\n"
    with pytest.raises(paper_import.PaperImportProblem) as caught:
        paper_import.run(league=league, kind="totals", text=text, user=user, commit=True)
    assert [(e.row, e.column) for e in caught.value.errors] == [(2, "date")]


@pytest.mark.parametrize(("role", "status"), [(Role.MEMBER, 403), (Role.SCOREKEEPER, 403), (Role.ADMIN, 200)])
def test_the_page_previews_a_season_in_front_and_an_admin_confirms_it(client, league, own_evening, role, status):
    client.force_login(member(league, role))
    url = reverse("paper_import", kwargs={"slug": league.slug})
    upload = SimpleUploadedFile("season.csv", SPLIT_EVENING.encode(), content_type="text/csv")
    response = client.post(url, {"kind": "hands", "file": upload})
    assert response.status_code == status
    assert Meeting.objects.filter(league=league).count() == 1
    if role != Role.ADMIN:
        return
    page = response.content.decode()
    assert "before the league's first evening" in page
    assert "20 Nov 2026" in page  # the evening scored anew
    response = client.post(url, {"kind": "hands", "text": SPLIT_EVENING, "confirm": "True"})
    assert response.status_code == 302
    assert Meeting.objects.filter(league=league).count() == 2
    assert ben(own_evening) == ("bock", 2)


def test_outsiders_cannot_import_in_front(client, league, own_evening):
    url = reverse("paper_import", kwargs={"slug": league.slug})
    confirm = {"kind": "hands", "text": SPLIT_EVENING, "confirm": "True"}
    assert client.post(url, confirm).status_code == 302  # to log in
    client.force_login(member(LeagueFactory(), Role.ADMIN))
    assert client.post(url, confirm).status_code == 404
    assert Meeting.objects.filter(league=league).count() == 1
