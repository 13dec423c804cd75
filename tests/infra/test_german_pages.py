"""The pages in German: option texts translated, house rules folded into their groups, dates
in the form an <input type=date> takes, amounts with a decimal comma."""

import pytest
from django.urls import reverse
from django.utils import translation

from leagues.clubs import services
from leagues.clubs.forms import RulesForm
from leagues.models import Role
from scoring import options as kinds
from scoring.options import Option
from scoring.registry import GameSpec
from tests.factories import LeagueFactory, UserFactory, member

GROUPED = GameSpec(
    key="grouped",
    label="Grouped game",
    options=(
        Option("bonus", kinds.BOOL, "Bonus point", group="Points"),
        Option("limit", kinds.INT, "Limit", minimum=1, maximum=100),
        Option("rounds", kinds.MULTI, "Special rounds", choices=("bock", "ramsch"), group="Special rounds"),
        Option("double", kinds.BOOL, "Double", group="Points"),
    ),
    presets={"club": {"bonus": True, "limit": 20, "rounds": ["bock"], "double": False}},
    default_preset="club",
    replay=lambda sitting: {},
    min_players=3,
    max_players=5,
)


def titles(form):
    with translation.override("en"):
        return [(str(s["label"]), [row[0]["label"] for row in s["rows"]]) for s in form.sections()]


def test_options_fold_into_their_groups_in_the_order_declared():
    form = RulesForm(spec=GROUPED, preset="club")
    assert titles(form) == [
        ("Points", ["Bonus point", "Double"]),
        ("Other", ["Limit"]),
        ("Special rounds", ["Special rounds"]),
    ]


def test_a_game_without_groups_gets_one_section_of_all_options():
    spec = GameSpec(
        **{
            **GROUPED.__dict__,
            "options": tuple(
                Option(o.name, o.kind, o.label, choices=o.choices, minimum=o.minimum, maximum=o.maximum)
                for o in GROUPED.options
            ),
        }
    )
    assert titles(RulesForm(spec=spec, preset="club")) == [
        ("All options", ["Bonus point", "Limit", "Special rounds", "Double"])
    ]


def test_a_section_counts_changes_from_the_preset_and_opens_on_an_error():
    form = RulesForm(spec=GROUPED, preset="club", rules={"double": True})
    assert [s["changed"] for s in form.sections()] == [1, 0, 0]
    bad = RulesForm({"rule-bonus": "on", "rule-limit": "0", "rule-rounds": ["bock"]}, spec=GROUPED, preset="club")
    assert not bad.is_valid()
    assert [s["errors"] for s in bad.sections()] == [False, True, False]


def test_option_texts_are_translated_when_the_form_is_made():
    from scoring.registry import get_game

    with translation.override("de"):
        form = RulesForm(spec=get_game("doppelkopf"), preset="club")
        labels = {str(f.label) for f in form.fields.values()}
    assert "Bockrunden nach" in labels


@pytest.mark.django_db
def test_the_start_page_writes_the_date_so_a_german_browser_keeps_it(client):
    league = LeagueFactory(game="doppelkopf")
    client.force_login(member(league, Role.SCOREKEEPER))
    response = client.get(reverse("meeting_start", kwargs={"slug": league.slug}), HTTP_ACCEPT_LANGUAGE="de")
    html = response.content.decode()
    assert 'lang="de"' in html
    assert 'type="date"' in html
    value = html.split('type="date"')[0].rsplit("<input", 1)[1] + html.split('type="date"')[1].split(">", 1)[0]
    assert 'value="20' in value  # ISO (2026-…), not "22.11.2026"


@pytest.mark.django_db
def test_the_create_page_in_german_shows_the_options_translated(client):
    client.force_login(UserFactory())
    response = client.get(reverse("league_create"), {"game": "doppelkopf"}, HTTP_ACCEPT_LANGUAGE="de")
    html = response.content.decode()
    assert "Bockrunden nach" in html
    assert "Kontra angesagt und verloren" in html
    assert 'class="option-section"' in html


@pytest.mark.django_db
def test_withdrawing_an_invite_and_turning_the_link_off_have_words_of_their_own(client):
    # "Revoke" is also Doppelkopf's "Falsch bedient": these buttons once read so.
    league = LeagueFactory(game="doppelkopf", variant="club")
    client.force_login(member(league, Role.ADMIN))
    services.set_public_link(league=league, enabled=True)
    services.create_invite(league=league, role=Role.MEMBER, player=None, user=None)
    html = client.get(reverse("league", kwargs={"slug": league.slug}), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert ">Zurückziehen</button>" in html
    assert ">Link abschalten</button>" in html


@pytest.mark.django_db
def test_the_meeting_page_writes_the_date_the_german_way(client):
    import datetime

    from tests.factories import meeting_for

    league = LeagueFactory(game="doppelkopf", variant="club")
    client.force_login(member(league, Role.MEMBER))
    meeting = meeting_for(league, ["Ana", "Ben", "Cara", "Dora"], date=datetime.date(2026, 11, 22))
    html = client.get(meeting.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Sonntag, 22. November 2026" in html
    html = client.get(meeting.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Sunday, 22 November 2026" in html
