"""The start-meeting form reads the seat order, the teams and the carried-over scores itself
(leagues/table/forms.py): what the page posts becomes the sitting, what does not fit
is a message in the section it belongs to and a 400, and nothing is started."""

import pytest
from django.urls import reverse

from leagues.models import Meeting, Role
from leagues.table.forms import StartMeetingForm
from tests.factories import LeagueFactory, PlayerFactory, member

NAMES = ("Anna", "Ben", "Carl", "Dora")


@pytest.fixture
def race_league(db):
    league = LeagueFactory(game="forty_five", variant="bruff")
    players = {name: PlayerFactory(league=league, name=name) for name in NAMES}
    return league, players


def form_for(league, players, seated, **extra):
    data = {"players": [str(players[n].pk) for n in seated], "date": "2026-11-27", **extra}
    return StartMeetingForm(data, league=league)


def test_it_gives_the_players_in_the_order_tapped_with_their_teams_and_scores(race_league):
    league, players = race_league
    extra = {f"team_{players[n].pk}": team for n, team in zip(NAMES, "ABAB", strict=True)}
    form = form_for(league, players, ["Dora", "Anna", "Carl", "Ben"], **extra, start_team_A="20", start_team_B="")
    assert form.is_valid(), form.errors
    assert [p.name for p in form.cleaned_data["players"]] == ["Dora", "Anna", "Carl", "Ben"]
    # Teams in seat order: Dora (B) sits first, then Anna (A).
    assert form.cleaned_data["teams"] == {"B": ["Dora", "Ben"], "A": ["Anna", "Carl"]}
    assert form.cleaned_data["start_totals"] == {"A": 20}  # an empty score counts as 0


@pytest.mark.parametrize(
    "seated, extra, section, message",
    [
        (["Anna", "Ben"], {"team_{Anna}": "A", "team_{Ben}": "X"}, "teams", "Put every player in a team"),
        (["Anna", "Ben", "Carl"], {"start_{Dora}": "10"}, "start_totals", "Dora is not at the table"),
        (
            ["Anna", "Ben"],
            {"team_{Anna}": "A", "team_{Ben}": "B", "start_{Anna}": "5"},
            "start_totals",
            "teams' scores",
        ),
        (["Anna", "Ben"], {"team_{Anna}": "A", "team_{Ben}": "B", "start_team_C": "5"}, "start_totals", "Team C has"),
        (["Anna", "Ben"], {"start_team_A": "5"}, "start_totals", "Without teams"),
        (["Anna", "Ben"], {"start_999999": "5"}, "start_totals", "Pick players of this league only"),
        (["Anna", "Anna"], {}, "players", "one seat only"),
    ],
)
def test_it_puts_each_problem_in_its_section(race_league, seated, extra, section, message):
    league, players = race_league
    data = {key.format(**{n: p.pk for n, p in players.items()}): value for key, value in extra.items()}
    form = form_for(league, players, seated, **data)
    assert not form.is_valid()
    assert message in form.section_errors()[section]


def test_the_page_refuses_a_bad_sitting_with_a_400_and_starts_nothing(client, race_league):
    league, players = race_league
    client.force_login(member(league, Role.SCOREKEEPER))
    data = {"players": [str(players[n].pk) for n in NAMES], "date": "2026-11-27", f"team_{players['Anna'].pk}": "Z"}
    response = client.post(reverse("meeting_start", kwargs={"slug": league.slug}), data)
    assert response.status_code == 400
    assert "Put every player in a team" in response.content.decode()
    # The table stays as it was tapped, and the per-player inputs are not listed as fields.
    assert response.content.decode().index("Anna") < response.content.decode().index("Dora")
    assert f'name="team_{players["Anna"].pk}"' in response.content.decode()
    assert not Meeting.objects.filter(league=league).exists()


def test_a_public_link_post_without_its_button_changes_nothing(client, race_league):
    league, _players = race_league
    client.force_login(member(league, Role.ADMIN))
    response = client.post(reverse("public_link", kwargs={"slug": league.slug}), {"action": "share-everything"})
    assert response.status_code == 400
    assert "This form is out of date" in response.content.decode()
    league.refresh_from_db()
    assert league.public_token is None
