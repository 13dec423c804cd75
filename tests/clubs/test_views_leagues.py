"""Creating a league and the league page: who may see and do what, the generated house-rules
form, and bad input on every form.

The pages run on a small stand-in game (TEST_GAME) that declares one option of every kind, so
the form generator is tested whatever the real engines declare and however far they are.
"""

import datetime

import pytest
from django.urls import reverse

from leagues.models import Invite, League, Meeting, Membership, Player, Role, Season
from scoring import options as kinds
from scoring.options import Option
from scoring.registry import GAME_MODULES, GameSpec
from tests.factories import PASSWORD, LeagueFactory, UserFactory, member


def _no_replay(sitting):  # the league pages never replay a meeting
    raise AssertionError("not used")


TEST_GAME = GameSpec(
    key="testgame",
    label="Test game",
    options=(
        Option("bonus", kinds.BOOL, "Bonus point", help="One more for the winner."),
        Option("limit", kinds.INT, "Limit", minimum=1, maximum=100),
        Option("cap", kinds.INT, "Cap", nullable=True, minimum=0, maximum=1000),
        Option("counting", kinds.CHOICE, "Counting", choices=("plain", "double"), choice_labels={"double": "Doubled"}),
        Option("rounds", kinds.MULTI, "Special rounds", choices=("bock", "ramsch", "solo")),
        Option("made_failed", kinds.INT_PAIR, "Made / failed", minimum=-100, maximum=100),
        Option("marriage", kinds.MAPPING, "Marriage values", choices=("hearts", "spades"), minimum=0, maximum=100),
    ),
    presets={
        "club": {
            "bonus": True,
            "limit": 20,
            "cap": None,
            "counting": "plain",
            "rounds": ["bock", "ramsch"],
            "made_failed": [10, -20],
            "marriage": {"hearts": 40, "spades": 60},
        },
        "strict": {
            "bonus": False,
            "limit": 50,
            "cap": 200,
            "counting": "double",
            "rounds": [],
            "made_failed": [5, -5],
            "marriage": {"hearts": 20, "spades": 20},
        },
    },
    default_preset="club",
    replay=_no_replay,
    min_players=3,
    max_players=5,
    preset_labels={"club": "Club rules", "strict": "Strict rules"},
)


@pytest.fixture(autouse=True)
def test_game(monkeypatch):
    # The URLs first: the API's docs build an example for every registered game when they are
    # imported, and this test game has none (run alone, this module once failed on that).
    import kartenliga.urls  # noqa: F401

    monkeypatch.setitem(GAME_MODULES, "testgame", ("tests.clubs.test_views_leagues", "TEST_GAME"))


@pytest.fixture
def league(db):
    return LeagueFactory(name="Skatfreunde", slug="skatfreunde", game="testgame", variant="club")


@pytest.fixture
def other(db):
    """Another league, whose data must never show on the first one's pages."""
    other = LeagueFactory(name="Geheimclub", slug="geheimclub", game="testgame", variant="club")
    Player.objects.create(league=other, name="Geheimspieler")
    return other


def as_user(client, user):
    client.force_login(user)
    return client


def create_data(**changes):
    data = {
        "name": "Dienstagsrunde",
        "slug": "",
        "game": "testgame",
        "variant": "club",
        "rule-bonus": "on",
        "rule-limit": "20",
        "rule-cap": "",
        "rule-counting": "plain",
        "rule-rounds": ["bock", "ramsch"],
        "rule-made_failed__0": "10",
        "rule-made_failed__1": "-20",
        "rule-marriage__hearts": "40",
        "rule-marriage__spades": "60",
    }
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


# --- create a league ----------------------------------------------------------------------------


def test_it_sends_an_anonymous_visitor_to_log_in_before_creating(client, db):
    response = client.get(reverse("league_create"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_it_shows_every_option_of_the_preset_with_its_default(client, db):
    as_user(client, UserFactory())
    response = client.get(reverse("league_create"), {"game": "testgame"})
    assert response.status_code == 200
    html = response.content.decode()
    for label in ("Bonus point", "Limit", "Cap", "Counting", "Special rounds", "Made / failed", "Marriage values"):
        assert label in html


def test_the_options_part_reloads_with_the_chosen_presets_defaults(client, db):
    as_user(client, UserFactory())
    response = client.get(
        reverse("league_options_hx"), {"game": "testgame", "variant": "strict"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert 'name="rule-limit" value="50"' in html
    assert '<option value="double" selected>Doubled</option>' in html
    assert 'name="rule-marriage__hearts" value="20"' in html
    assert '<option value="strict" selected>Strict rules</option>' in html
    assert 'id="rules-part"' in html and "<html" not in html  # a fragment, not a page


def test_the_options_part_falls_back_to_the_default_preset_when_the_game_changes(client, db):
    as_user(client, UserFactory())
    response = client.get(reverse("league_options_hx"), {"game": "testgame", "variant": "not-a-preset"})
    html = response.content.decode()
    assert '<option value="club" selected>Club rules</option>' in html
    assert 'name="rule-limit" value="20"' in html


def test_it_creates_a_league_with_only_the_changed_options_stored(client, db):
    user = as_user(client, UserFactory(first_name="Anna")) and UserFactory._meta.model.objects.get(first_name="Anna")
    response = client.post(
        reverse("league_create"),
        create_data(**{"rule-limit": "30", "rule-rounds": ["solo"], "rule-marriage__spades": "50", "rule-cap": "150"}),
    )
    league = League.objects.get(name="Dienstagsrunde")
    assert response.status_code == 302 and response["Location"] == league.get_absolute_url()
    assert league.slug == "dienstagsrunde"
    assert league.rule_overrides == {
        "limit": 30,
        "cap": 150,
        "rounds": ["solo"],
        "marriage": {"hearts": 40, "spades": 50},
    }
    assert Membership.objects.get(league=league, user=user).role == Role.ADMIN
    assert Player.objects.get(league=league, user=user).name == "Anna"


def test_unchanged_options_store_no_overrides(client, db):
    as_user(client, UserFactory())
    client.post(reverse("league_create"), create_data(variant="club"))
    assert League.objects.get(name="Dienstagsrunde").rule_overrides == {}


def test_a_taken_short_name_gets_a_number_when_suggested(client, league):
    as_user(client, UserFactory())
    client.post(reverse("league_create"), create_data(name="Skatfreunde"))
    assert League.objects.filter(slug="skatfreunde-2").exists()


@pytest.mark.parametrize(
    "changes, field",
    [
        ({"name": ""}, "name"),
        ({"slug": "skatfreunde"}, "slug"),  # taken
        ({"slug": "not a slug!"}, "slug"),
        ({"game": "poker"}, "game"),
        ({"variant": "nonsense"}, "variant"),
        ({"rule-limit": "abc"}, "limit"),
        ({"rule-limit": "0"}, "limit"),  # below the option's minimum
        ({"rule-limit": ""}, "limit"),  # not nullable
        ({"rule-counting": "triple"}, "counting"),
        ({"rule-rounds": ["bock", "poker"]}, "rounds"),
        ({"rule-made_failed__1": ""}, "made_failed__1"),
        ({"rule-marriage__hearts": "x"}, "marriage__hearts"),
    ],
)
def test_it_rejects_bad_input_on_the_field_and_saves_nothing(client, league, changes, field):
    as_user(client, UserFactory())
    response = client.post(reverse("league_create"), create_data(**changes))
    assert response.status_code == 400
    form = response.context["form"] if field in response.context["form"].fields else response.context["rules_form"]
    assert form.errors.get(field), form.errors
    assert League.objects.count() == 1  # only the fixture's
    assert Membership.objects.count() == 0


def test_it_shows_a_scoring_problem_that_no_field_caught(client, db, monkeypatch):
    from leagues import exceptions
    from leagues.clubs import services

    def refuse(**kwargs):
        raise exceptions.InvalidInput([{"hand": None, "field": "rules", "message": "Those rules do not fit together."}])

    monkeypatch.setattr(services, "resolved_rules", refuse)
    as_user(client, UserFactory())
    response = client.post(reverse("league_create"), create_data())
    assert response.status_code == 400
    assert "Those rules do not fit together." in response.content.decode()
    assert not League.objects.exists()


def test_it_offers_the_real_games_that_are_installed(client, db):
    from leagues.fields import available_games

    as_user(client, UserFactory())
    response = client.get(reverse("league_create"))
    choices = dict(response.context["form"].fields["game"].choices)
    assert set(choices) == {name for name, _spec in available_games()}
    assert "testgame" in choices


# --- the league page: who sees what ----------------------------------------------------------------


def test_an_anonymous_visitor_is_sent_to_log_in(client, league):
    response = client.get(league.get_absolute_url())
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_a_member_of_another_league_gets_404(client, league, other):
    as_user(client, member(other, Role.ADMIN))
    assert client.get(league.get_absolute_url()).status_code == 404


@pytest.mark.parametrize("role", [Role.MEMBER, Role.SCOREKEEPER, Role.ADMIN])
def test_members_see_seasons_members_players_and_meetings_of_their_league_only(client, league, other, role):
    user = member(league, role, first_name="Anna")
    member(league, Role.MEMBER, first_name="Ben")
    Player.objects.create(league=league, name="Carla")
    season = Season.objects.create(league=league, number=1, started_on=datetime.date(2026, 1, 9))
    Season.objects.create(league=other, number=7, started_on=datetime.date(2026, 1, 9))
    host = Player.objects.get(league=league, name="Anna")
    Meeting.objects.create(
        league=league, season=season, date=datetime.date(2026, 1, 9), host=host, game="testgame", variant="club"
    )
    as_user(client, user)
    response = client.get(league.get_absolute_url())
    assert response.status_code == 200
    html = response.content.decode()
    for text in ("Skatfreunde", "Anna", "Ben", "Carla", "Season 1", "9 Jan 2026", "at Anna"):
        assert text in html
    assert "Geheim" not in html and "Season 7" not in html
    assert ("For admins" in html) == (role == Role.ADMIN)
    assert ("House rules" in html) == (role == Role.ADMIN)


def test_a_member_does_not_see_invite_links(client, league):
    admin = member(league, Role.ADMIN)
    invite = Invite.objects.create(league=league, role=Role.MEMBER, created_by=admin)
    as_user(client, member(league, Role.SCOREKEEPER))
    assert invite.token not in client.get(league.get_absolute_url()).content.decode()
    as_user(client, admin)
    assert invite.token in client.get(league.get_absolute_url()).content.decode()


def test_the_league_page_only_reads(client, league):
    as_user(client, member(league, Role.MEMBER))
    assert client.post(league.get_absolute_url(), {"name": "x"}).status_code == 405


def test_the_invite_form_offers_the_players_without_an_account(client, league):
    admin = member(league, Role.ADMIN)
    Player.objects.create(league=league, name="Zora")
    Player.objects.create(league=league, name="Anton")
    as_user(client, admin)
    html = client.get(league.get_absolute_url()).content.decode()
    select = html[html.index('name="invite-player"') : html.index("</select>", html.index('name="invite-player"'))]
    # Only those without an account, by name, after "someone new"; the admin has an account.
    assert [o for o in select.split("<option")[1:] if "value" in o][0].startswith(' value=""')
    assert select.index(">Anton<") < select.index(">Zora<")
    assert admin.username not in select
    # The posted choice is still checked against the league's players without an account.
    anton = Player.objects.get(league=league, name="Anton")
    mine = Player.objects.get(league=league, user=admin)
    posted = {"invite-role": "member", "invite-player": str(mine.pk)}
    assert client.post(reverse("invite_create", kwargs={"slug": league.slug}), posted).status_code == 400
    posted["invite-player"] = str(anton.pk)
    assert client.post(reverse("invite_create", kwargs={"slug": league.slug}), posted).status_code == 200
    assert Invite.objects.get(league=league, player=anton)


# --- admin actions: each refused below admin, each form's bad input -----------------------------


ADMIN_POSTS = [
    ("player_add", {}, {"player-name": "Dora"}),
    ("invite_create", {}, {"invite-role": "member"}),
    ("public_link", {}, {"action": "create"}),
    ("rules_edit", {}, {"variant": "strict"}),
]


@pytest.mark.parametrize("name, kwargs, data", ADMIN_POSTS)
@pytest.mark.parametrize("role, status", [(Role.MEMBER, 403), (Role.SCOREKEEPER, 403)])
def test_it_refuses_admin_actions_below_admin(client, league, name, kwargs, data, role, status):
    as_user(client, member(league, role))
    response = client.post(reverse(name, kwargs={"slug": league.slug, **kwargs}), data)
    assert response.status_code == status
    league.refresh_from_db()
    assert league.public_token is None and league.variant == "club"
    assert not Invite.objects.exists() and not Player.objects.filter(name="Dora").exists()


@pytest.mark.parametrize("name, kwargs, data", ADMIN_POSTS)
def test_it_hides_admin_actions_from_another_leagues_admin(client, league, other, name, kwargs, data):
    as_user(client, member(other, Role.ADMIN))
    assert client.post(reverse(name, kwargs={"slug": league.slug, **kwargs}), data).status_code == 404


@pytest.mark.parametrize("name, kwargs, data", ADMIN_POSTS)
def test_it_sends_anonymous_admin_actions_to_log_in(client, league, name, kwargs, data):
    response = client.post(reverse(name, kwargs={"slug": league.slug, **kwargs}), data)
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def test_an_admin_changes_a_members_role(client, league):
    admin = member(league, Role.ADMIN)
    ben = member(league, Role.MEMBER)
    target = Membership.objects.get(league=league, user=ben)
    as_user(client, admin)
    response = client.post(
        reverse("member_role", kwargs={"slug": league.slug, "pk": target.pk}), {"role": "scorekeeper"}
    )
    assert response.status_code == 302
    target.refresh_from_db()
    assert target.role == Role.SCOREKEEPER


def test_a_scorekeeper_cannot_change_roles(client, league):
    keeper = member(league, Role.SCOREKEEPER)
    mine = Membership.objects.get(league=league, user=keeper)
    as_user(client, keeper)
    response = client.post(reverse("member_role", kwargs={"slug": league.slug, "pk": mine.pk}), {"role": "admin"})
    assert response.status_code == 403
    mine.refresh_from_db()
    assert mine.role == Role.SCOREKEEPER


def test_an_admin_cannot_change_a_role_in_another_league(client, league, other):
    outsider = Membership.objects.get(league=other, user=member(other, Role.MEMBER))
    as_user(client, member(league, Role.ADMIN))
    response = client.post(reverse("member_role", kwargs={"slug": league.slug, "pk": outsider.pk}), {"role": "admin"})
    assert response.status_code == 404
    outsider.refresh_from_db()
    assert outsider.role == Role.MEMBER


@pytest.mark.parametrize("role", ["", "king"])
def test_it_rejects_an_unknown_role(client, league, role):
    ben = Membership.objects.get(league=league, user=member(league, Role.MEMBER))
    as_user(client, member(league, Role.ADMIN))
    response = client.post(reverse("member_role", kwargs={"slug": league.slug, "pk": ben.pk}), {"role": role})
    assert response.status_code == 400
    ben.refresh_from_db()
    assert ben.role == Role.MEMBER


def test_the_last_admin_cannot_step_down(client, league):
    admin = member(league, Role.ADMIN)
    mine = Membership.objects.get(league=league, user=admin)
    as_user(client, admin)
    response = client.post(reverse("member_role", kwargs={"slug": league.slug, "pk": mine.pk}), {"role": "member"})
    assert response.status_code == 400
    assert "at least one admin" in response.content.decode()
    mine.refresh_from_db()
    assert mine.role == Role.ADMIN


def test_an_admin_adds_a_player_without_an_account(client, league):
    as_user(client, member(league, Role.ADMIN))
    response = client.post(reverse("player_add", kwargs={"slug": league.slug}), {"player-name": " Dora "})
    assert response.status_code == 302
    assert Player.objects.get(league=league, name="Dora").user is None


@pytest.mark.parametrize("name", ["", "   ", "carla", "x" * 41])
def test_it_rejects_a_bad_player_name(client, league, name):
    Player.objects.create(league=league, name="Carla")
    as_user(client, member(league, Role.ADMIN))
    response = client.post(reverse("player_add", kwargs={"slug": league.slug}), {"player-name": name})
    assert response.status_code == 400
    assert response.context["player_form"].errors["name"]
    assert league.players.count() == 2  # Carla and the admin


def test_the_same_player_name_may_exist_in_another_league(client, league, other):
    as_user(client, member(league, Role.ADMIN))
    client.post(reverse("player_add", kwargs={"slug": league.slug}), {"player-name": "Geheimspieler"})
    assert Player.objects.filter(name="Geheimspieler").count() == 2


def test_an_admin_makes_an_invite_link_to_copy(client, league):
    dora = Player.objects.create(league=league, name="Dora")
    as_user(client, member(league, Role.ADMIN))
    response = client.post(
        reverse("invite_create", kwargs={"slug": league.slug}), {"invite-role": "scorekeeper", "invite-player": dora.pk}
    )
    assert response.status_code == 200
    invite = Invite.objects.get(league=league)
    assert (invite.role, invite.player) == (Role.SCOREKEEPER, dora)
    assert f"http://testserver/invite/{invite.token}/" in response.content.decode()


@pytest.mark.parametrize("data, field", [({"invite-role": "king"}, "role"), ({"invite-role": "member"}, "player")])
def test_it_rejects_a_bad_invite(client, league, other, data, field):
    if field == "player":  # another league's player, or one who has an account already
        data = {**data, "invite-player": Player.objects.get(league=other).pk}
    as_user(client, member(league, Role.ADMIN))
    response = client.post(reverse("invite_create", kwargs={"slug": league.slug}), data)
    assert response.status_code == 400
    assert response.context["invite_form"].errors[field]
    assert not Invite.objects.exists()


def test_an_invite_cannot_name_a_player_who_has_an_account(client, league):
    taken = member(league, Role.MEMBER)
    as_user(client, member(league, Role.ADMIN))
    response = client.post(
        reverse("invite_create", kwargs={"slug": league.slug}),
        {"invite-role": "member", "invite-player": Player.objects.get(user=taken).pk},
    )
    assert response.status_code == 400 and not Invite.objects.exists()


def test_an_admin_revokes_an_invite(client, league):
    admin = member(league, Role.ADMIN)
    invite = Invite.objects.create(league=league, role=Role.MEMBER, created_by=admin)
    as_user(client, admin)
    response = client.post(reverse("invite_revoke", kwargs={"slug": league.slug, "pk": invite.pk}))
    assert response.status_code == 302
    invite.refresh_from_db()
    assert invite.used_at is not None and invite.used_by is None
    assert invite.token not in client.get(league.get_absolute_url()).content.decode()


def test_an_admin_cannot_revoke_another_leagues_invite(client, league, other):
    invite = Invite.objects.create(league=other, role=Role.MEMBER)
    as_user(client, member(league, Role.ADMIN))
    assert client.post(reverse("invite_revoke", kwargs={"slug": league.slug, "pk": invite.pk})).status_code == 404
    invite.refresh_from_db()
    assert invite.used_at is None


def test_a_member_cannot_revoke_an_invite(client, league):
    invite = Invite.objects.create(league=league, role=Role.MEMBER)
    as_user(client, member(league, Role.MEMBER))
    assert client.post(reverse("invite_revoke", kwargs={"slug": league.slug, "pk": invite.pk})).status_code == 403
    invite.refresh_from_db()
    assert invite.used_at is None


def test_an_admin_creates_renews_and_revokes_the_public_link(client, league):
    as_user(client, member(league, Role.ADMIN))
    url = reverse("public_link", kwargs={"slug": league.slug})
    client.post(url, {"action": "create"})
    league.refresh_from_db()
    first = league.public_token
    assert first
    client.post(url, {"action": "create"})
    league.refresh_from_db()
    assert league.public_token and league.public_token != first  # the old link stops working
    client.post(url, {"action": "revoke"})
    league.refresh_from_db()
    assert league.public_token is None


def test_an_admin_edits_the_house_rules_for_new_meetings(client, league):
    admin = member(league, Role.ADMIN)
    as_user(client, admin)
    page = client.get(league.get_absolute_url()).content.decode()
    assert "apply to new meetings only" in page
    data = {k: v for k, v in create_data(**{"rule-limit": "40", "rule-bonus": None}).items() if k.startswith("rule-")}
    response = client.post(reverse("rules_edit", kwargs={"slug": league.slug}), {"variant": "club", **data})
    assert response.status_code == 302
    league.refresh_from_db()
    assert league.rule_overrides == {"limit": 40, "bonus": False}


def test_the_rules_form_starts_at_the_leagues_current_rules(client, league):
    league.rule_overrides = {"limit": 33}
    league.save()
    as_user(client, member(league, Role.ADMIN))
    response = client.get(league.get_absolute_url())
    assert response.context["rules_form"]["limit"].value() == 33


def test_switching_the_preset_stores_the_differences_from_the_new_one(client, league):
    as_user(client, member(league, Role.ADMIN))
    data = {k: v for k, v in create_data().items() if k.startswith("rule-")}  # the club values
    client.post(reverse("rules_edit", kwargs={"slug": league.slug}), {"variant": "strict", **data})
    league.refresh_from_db()
    assert league.variant == "strict"
    assert league.rule_overrides["limit"] == 20 and league.rule_overrides["bonus"] is True


@pytest.mark.parametrize("changes", [{"variant": "nonsense"}, {"rule-limit": "500"}, {"rule-counting": "x"}])
def test_it_rejects_bad_house_rules_and_keeps_the_old_ones(client, league, changes):
    as_user(client, member(league, Role.ADMIN))
    data = {k: v for k, v in create_data(**changes).items() if k.startswith("rule-") or k == "variant"}
    response = client.post(reverse("rules_edit", kwargs={"slug": league.slug}), data)
    assert response.status_code == 400
    assert "errorlist" in response.content.decode()
    league.refresh_from_db()
    assert (league.variant, league.rule_overrides) == ("club", {})


def test_the_game_of_a_league_cannot_be_changed_through_the_rules_form(client, league):
    as_user(client, member(league, Role.ADMIN))
    data = {k: v for k, v in create_data().items() if k.startswith("rule-")}
    client.post(reverse("rules_edit", kwargs={"slug": league.slug}), {"game": "doppelkopf", "variant": "club", **data})
    league.refresh_from_db()
    assert league.game == "testgame"


def test_the_login_uses_our_form(client, league):
    user = member(league, Role.MEMBER)
    response = client.post(reverse("login"), {"username": user.username, "password": PASSWORD})
    assert response.status_code == 302


def test_the_public_link_is_shown_to_copy(client, league):
    league.public_token = "abc123"
    league.save()
    as_user(client, member(league, Role.ADMIN))
    html = client.get(league.get_absolute_url()).content.decode()
    public = reverse("public_standings", kwargs={"token": "abc123"})
    assert f"http://testserver{public}" in html


def test_a_closed_season_links_to_its_bill(client, league):
    Season.objects.create(
        league=league, number=1, started_on=datetime.date(2026, 1, 9), closed_on=datetime.date(2026, 5, 1)
    )
    as_user(client, member(league, Role.MEMBER))
    html = client.get(league.get_absolute_url()).content.decode()
    assert reverse("season_bill", kwargs={"slug": league.slug, "number": 1}) in html


# --- the real games: the generated form round-trips every option of every preset ------------------


def _form_data(rules_form):
    """What a browser posts for the form as rendered: every field at its initial value."""
    data = {}
    for name in rules_form.fields:
        value = rules_form[name].value()
        key = f"{rules_form.prefix}-{name}"
        if isinstance(value, bool):
            if value:
                data[key] = "on"
        elif isinstance(value, list):
            data[key] = value
        else:
            data[key] = "" if value is None else str(value)
    return data


def _real_presets():
    from leagues.fields import available_games

    return [(name, preset) for name, spec in available_games() if name != "testgame" for preset in spec.presets]


@pytest.mark.parametrize("game, preset", _real_presets())
def test_every_real_preset_posts_back_unchanged(client, db, game, preset):
    from leagues.clubs.forms import PresetForm

    as_user(client, UserFactory())
    rules_form = PresetForm(initial={"game": game, "variant": preset}).rules_form()
    data = {"name": f"{game} {preset}", "game": game, "variant": preset, **_form_data(rules_form)}
    response = client.post(reverse("league_create"), data)
    assert response.status_code == 302, response.context and response.context["rules_form"].errors
    league = League.objects.get(game=game)
    assert (league.variant, league.rule_overrides) == (preset, {})


def test_a_doppelkopf_league_with_club_rules_and_a_house_rule(client, db):
    from leagues.clubs.forms import PresetForm
    from leagues.fields import installed_game

    spec = installed_game("doppelkopf")
    if spec is None:
        pytest.skip("the Doppelkopf engine is not there yet")
    option = next(o for o in spec.options if o.kind == kinds.BOOL)
    as_user(client, UserFactory())
    rules_form = PresetForm(initial={"game": "doppelkopf", "variant": "club"}).rules_form()
    data = {"name": "Doko", "game": "doppelkopf", "variant": "club", **_form_data(rules_form)}
    key = f"rule-{option.name}"
    if spec.presets["club"][option.name]:
        data.pop(key)
    else:
        data[key] = "on"
    assert client.post(reverse("league_create"), data).status_code == 302
    league = League.objects.get(slug="doko")
    assert league.rule_overrides == {option.name: not spec.presets["club"][option.name]}


def test_the_options_part_needs_a_login(client, db):
    response = client.get(reverse("league_options_hx"), {"game": "testgame"})
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


# --- a table by tiers (56's stake table): rows of from / made / failed ------------------------------


def _fifty_six_data(**changes):
    from leagues.clubs.forms import PresetForm

    rules_form = PresetForm(initial={"game": "fifty_six", "variant": "seed"}).rules_form()
    data = {"name": "Sechsundfünfzig", "game": "fifty_six", "variant": "seed", **_form_data(rules_form)}
    data.update(changes)
    return data


def test_the_stake_table_shows_one_row_per_tier_with_the_seeds_stakes(client, db):
    as_user(client, UserFactory())
    html = client.get(reverse("league_create"), {"game": "fifty_six"}).content.decode()
    assert "Stakes by bid" in html
    for row, (low, made, failed) in enumerate([(28, 1, 2), (40, 2, 3), (48, 3, 4), (56, 4, 5)]):
        assert f'name="rule-stake_table__{row}_from" value="{low}"' in html
        assert f'name="rule-stake_table__{row}_made" value="{made}"' in html
        assert f'name="rule-stake_table__{row}_failed" value="{failed}"' in html
    assert 'name="rule-stake_table__4_from"' in html  # an empty row for one more tier
    assert 'aria-label="Stakes by bid, row 2: made"' in html


def test_a_league_stores_its_own_stake_table(client, db):
    # 28-39 / 40-55 / 56 -> 1/2, 2/3, 3/4: row 3 becomes 56 -> 3/4, row 4 is emptied.
    as_user(client, UserFactory())
    changes = {"rule-stake_table__2_from": "56", "rule-stake_table__2_made": "3", "rule-stake_table__2_failed": "4"}
    changes.update(
        dict.fromkeys(("rule-stake_table__3_from", "rule-stake_table__3_made", "rule-stake_table__3_failed"), "")
    )
    response = client.post(reverse("league_create"), _fifty_six_data(**changes))
    assert response.status_code == 302
    league = League.objects.get(game="fifty_six")
    assert league.rule_overrides == {"stake_table": [[28, 1, 2], [40, 2, 3], [56, 3, 4]]}
    # and the form shows it again as stored
    as_user(client, member(league, Role.ADMIN))
    rules_form = client.get(league.get_absolute_url()).context["rules_form"]
    assert [rules_form[f"stake_table__2_{c}"].value() for c in ("from", "made", "failed")] == [56, 3, 4]
    assert rules_form["stake_table__3_from"].value() is None


@pytest.mark.parametrize(
    "changes, field, message",
    [
        (
            {"rule-stake_table__1_made": ""},
            "stake_table__1_from",
            "Stakes by bid: row 2 needs all three numbers (from, made, failed), or none.",
        ),
        (
            {"rule-stake_table__2_from": "30"},
            "stake_table__0_from",
            "Stakes by bid: must start its first tier at 28 and each further tier higher, up to 56.",
        ),
        (
            {"rule-stake_table__0_from": "29"},
            "stake_table__0_from",
            "Stakes by bid: must start its first tier at 28 and each further tier higher, up to 56.",
        ),
        ({"rule-stake_table__1_failed": "101"}, "stake_table__1_failed", "less than or equal to 100"),
        ({"rule-stake_table__1_from": "57"}, "stake_table__1_from", "less than or equal to 56"),
    ],
)
def test_a_bad_stake_table_is_refused_with_a_message_naming_it(client, db, changes, field, message):
    as_user(client, UserFactory())
    response = client.post(reverse("league_create"), _fifty_six_data(**changes))
    assert response.status_code == 400
    errors = response.context["rules_form"].errors
    assert any(message in e for e in errors.get(field, [])), errors
    assert not League.objects.exists()
