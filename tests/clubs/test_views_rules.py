"""The league's rule book page: who may read it, both languages, the values in force, what the
league changed, and worked examples computed under the league's (or the meeting's) rules."""

import re

import pytest
from django.urls import reverse

from leagues.models import Role
from scoring.registry import game_names, get_game
from tests.factories import LeagueFactory, meeting_for, member

pytestmark = pytest.mark.django_db

TOKEN = "r" * 32


@pytest.fixture
def league():
    return LeagueFactory(name="Stammtisch Kreuz-Dame", public_token=TOKEN)


def url(league):
    return reverse("league_rules", kwargs={"slug": league.slug})


def text(response):
    """The page as words, tags removed and spaces collapsed."""
    html = response.content.decode()
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def rule(response, option):
    """The part of the page about one rule option."""
    html = response.content.decode()
    start = html.index(f'id="rule-{option}"')
    end = html.find("</section>", start)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html[start:end]))


# --- who may read it ---------------------------------------------------------------------------


def test_it_sends_an_anonymous_visitor_to_log_in(client, league):
    response = client.get(url(league))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


@pytest.mark.parametrize("role", [Role.MEMBER, Role.SCOREKEEPER, Role.ADMIN])
def test_every_member_reads_the_rules(client, league, role):
    client.force_login(member(league, role))
    response = client.get(url(league), HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    assert "Rules" in response.content.decode().split("<h1>", 1)[1]
    assert "Stammtisch Kreuz-Dame" in text(response)


def test_a_member_of_another_league_is_refused(client, league):
    client.force_login(member(LeagueFactory()))
    assert client.get(url(league)).status_code == 404


def test_anyone_with_the_public_link_reads_them(client, league):
    response = client.get(reverse("public_rules", kwargs={"token": TOKEN}), HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    page = response.content.decode()
    assert "Bock rounds" in page
    assert 'name="robots" content="noindex"' in page
    # every link stays on the public pages
    assert reverse("public_standings", kwargs={"token": TOKEN}) in page
    assert reverse("league", kwargs={"slug": league.slug}) not in page


def test_a_wrong_or_withdrawn_public_link_is_a_404(client, league):
    assert client.get(reverse("public_rules", kwargs={"token": "x" * 32})).status_code == 404
    private = LeagueFactory(public_token=None)
    assert client.get(reverse("public_rules", kwargs={"token": private.slug})).status_code == 404


def test_a_meetings_rules_need_a_member_of_its_league(client, league):
    meeting = meeting_for(league, ["Anna", "Ben", "Carl", "Dora"])
    path = reverse("meeting_rules", kwargs={"slug": league.slug, "pk": meeting.pk})
    assert client.get(path).status_code == 302
    client.force_login(member(LeagueFactory()))
    assert client.get(path).status_code == 404
    other = LeagueFactory()
    client.force_login(member(other))
    # another league's slug with this meeting's number finds nothing
    assert client.get(reverse("meeting_rules", kwargs={"slug": other.slug, "pk": meeting.pk})).status_code == 404


# --- what it says ------------------------------------------------------------------------------


def test_it_states_every_rule_with_its_value_in_english(client, league):
    client.force_login(member(league))
    response = client.get(url(league), HTTP_ACCEPT_LANGUAGE="en")
    for option in get_game("doppelkopf").options:
        assert f'id="rule-{option.name}"' in response.content.decode()
    assert "on" in rule(response, "solo_point").split()
    assert "A solo is worth one point more" in rule(response, "solo_point")
    assert "This league plays its rule set as it is." in text(response)


def test_it_speaks_german_to_a_german_browser(client, league):
    client.force_login(member(league))
    response = client.get(url(league), HTTP_ACCEPT_LANGUAGE="de")
    page = text(response)
    assert "Bock-Runden" in page
    assert "Ein Solo zählt einen Punkt mehr" in rule(response, "solo_point")
    assert "A solo is worth" not in page


def test_the_worked_examples_are_the_clubs_figures_by_hand(client, league):
    client.force_login(member(league))
    response = client.get(url(league), HTTP_ACCEPT_LANGUAGE="en")
    # A Damensolo won with 130 eyes: gewonnen 1 + Solopunkt 1 = 2, the soloist ×3
    assert "Anna +6 · Ben −2 · Carl −2 · Dora −2" in rule(response, "solo_point")
    # After 120:120 (a Bock trigger) Re announced wins with 160: (1 + 1 + 2) × 2 = 8
    assert "Anna +8 · Ben +8 · Carl −8 · Dora −8" in rule(response, "bock_triggers")
    # Re announced, Kontra 80 eyes: 1 + 1 + 2 = 4
    assert "Anna +4 · Ben +4 · Carl −4 · Dora −4" in rule(response, "announcement_points")


def test_a_changed_rule_is_marked_and_changes_the_example(client):
    league = LeagueFactory(rule_overrides={"solo_point": False, "bock_triggers": []})
    client.force_login(member(league))
    response = client.get(url(league), HTTP_ACCEPT_LANGUAGE="en")
    solo = rule(response, "solo_point")
    assert "off" in solo.split()
    assert "changed by this league (rule set: on)" in solo
    # without the solo point the Damensolo is worth 1: soloist 3 × 1
    assert "Anna +3 · Ben −1 · Carl −1 · Dora −1" in solo
    # no Bock rounds: the game after 120:120 counts once
    assert "Anna +4 · Ben +4 · Carl −4 · Dora −4" in rule(response, "bock_triggers")
    assert "This league changed 2 rules from its rule set" in text(response)
    assert "changed by this league" not in rule(response, "ramsch")


def test_a_meeting_keeps_the_rules_it_was_played_under(client, league):
    meeting = meeting_for(league, ["Anna", "Ben", "Carl", "Dora"])
    league.rule_overrides = {"solo_point": False}
    league.save()
    client.force_login(member(league))
    response = client.get(
        reverse("meeting_rules", kwargs={"slug": league.slug, "pk": meeting.pk}), HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 200
    assert "Anna +6 · Ben −2" in rule(response, "solo_point")  # the solo point still counts there
    assert "changed by this league" not in response.content.decode()
    assert meeting.get_absolute_url() in response.content.decode()
    league_page = client.get(url(league), HTTP_ACCEPT_LANGUAGE="en")
    assert "Anna +3 · Ben −1" in rule(league_page, "solo_point")


def test_an_example_the_rules_forbid_says_why(client):
    league = LeagueFactory(variant="ddv")
    client.force_login(member(league))
    response = client.get(url(league), HTTP_ACCEPT_LANGUAGE="en")
    assert "Under these rules this hand cannot be played" in rule(response, "ramsch")
    assert "Ramsch is not played under these rules." in rule(response, "ramsch")


@pytest.mark.parametrize("game", game_names())
def test_every_game_has_its_page(client, game):
    spec = get_game(game)
    league = LeagueFactory(game=game, variant=spec.default_preset)
    client.force_login(member(league))
    for language in ("en", "de"):
        response = client.get(url(league), HTTP_ACCEPT_LANGUAGE=language)
        assert response.status_code == 200
        page = response.content.decode()
        for option in spec.options:
            assert f'id="rule-{option.name}"' in page
        assert "style=" not in page.split("<body", 1)[1]  # the CSP allows no inline style
        assert "<script>" not in page


def test_the_56_stakes_read_as_a_table(client):
    league = LeagueFactory(game="fifty_six", variant="seed")
    client.force_login(member(league))
    response = client.get(url(league), HTTP_ACCEPT_LANGUAGE="en")
    assert "28–39: 1 / 2, 40–47: 2 / 3, 48–55: 3 / 4, 56: 4 / 5" in rule(response, "stake_table")
    # Anna's team bids 40, is doubled and fails: 3 × 2 for the other team
    assert "B (Ben, Dora, Fritz) +6" in rule(response, "double")


def test_the_pages_it_hangs_off_link_to_it(client, league):
    meeting = meeting_for(league, ["Anna", "Ben", "Carl", "Dora"])
    client.force_login(member(league))
    assert url(league) in client.get(reverse("league", kwargs={"slug": league.slug})).content.decode()
    rules_of_meeting = reverse("meeting_rules", kwargs={"slug": league.slug, "pk": meeting.pk})
    assert rules_of_meeting in client.get(meeting.get_absolute_url()).content.decode()
    client.logout()
    public = client.get(reverse("public_standings", kwargs={"token": TOKEN})).content.decode()
    assert reverse("public_rules", kwargs={"token": TOKEN}) in public
