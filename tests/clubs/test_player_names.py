"""Players' names (leagues/clubs/names.py): NFC, trimmed, no invisible characters, and never too alike
another player's of the league; on the league page, signing up and joining by invite, and the
founder's player of a new league."""

import pytest
from django.urls import reverse

from leagues import exceptions
from leagues.clubs import services
from leagues.clubs.names import NameProblem, alike, clean_name
from leagues.models import Invite, League, Player, Role
from tests.factories import LeagueFactory, PlayerFactory, UserFactory, member

pytestmark = pytest.mark.django_db

# --- what a name may hold ---------------------------------------------------------------------


def test_a_name_is_stored_in_nfc_trimmed_with_single_spaces():
    assert clean_name("  Rene\u0301   K. ") == "Ren\u00e9 K."
    assert clean_name("Anna\u00a0B.") == "Anna B."


@pytest.mark.parametrize(
    "name, code",
    [
        ("An\u200bna", "U+200B"),  # zero-width space
        ("Anna\u200d", "U+200D"),  # zero-width joiner
        ("\u202eanna", "U+202E"),  # right-to-left override: shows "anna" reversed
        ("Anna\u2066B", "U+2066"),  # left-to-right isolate
        ("An\u00adna", "U+00AD"),  # soft hyphen
        ("Anna\x00", "U+0000"),
        ("An\tna", "U+0009"),
        ("An\u2028na", "U+2028"),  # line separator
        ("An\u2029na", "U+2029"),  # paragraph separator
        ("\ufeffAnna", "U+FEFF"),  # byte order mark
    ],
)
def test_control_and_format_characters_are_refused_by_code(name, code):
    with pytest.raises(NameProblem) as caught:
        clean_name(name)
    assert code in caught.value.message


@pytest.mark.parametrize("name", ["", "   ", "\n", "x" * 41, "e\u0301" * 41])
def test_an_empty_or_long_name_is_refused(name):
    with pytest.raises(NameProblem):
        clean_name(name)


def test_the_length_is_counted_after_nfc():
    assert clean_name("e\u0301" * 40) == "\u00e9" * 40


# --- names too alike ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "new, existing",
    [
        ("anna", "Anna"),  # case
        ("ANNA", "Anna"),
        ("Ａｎｎａ", "Anna"),  # full width
        ("𝐀𝐧𝐧𝐚", "Anna"),  # mathematical bold (NFKC)
        ("\u0410nna", "Anna"),  # Cyrillic capital A
        ("Ann\u0430", "Anna"),  # Cyrillic small a
        ("\u039fLGA", "Olga"),  # Greek capital Omicron
        ("\u0397ans", "Hans"),  # Greek capital Eta
        ("B\u0435n", "Ben"),  # Cyrillic small ie
        ("Amie", "Arnie"),  # rn reads as m
        ("AI", "Al"),  # capital I and small l
        ("St\u0435fan", "Stefan"),
        ("Strauß", "Strauss"),  # case folding
    ],
)
def test_a_name_differing_only_by_case_width_or_look_alike_letters_is_too_alike(new, existing):
    assert alike(clean_name(new), ["Dora", existing]) == existing


@pytest.mark.parametrize(
    "new, existing",
    [("Аня", "Anna"), ("José", "Jose"), ("Anna B.", "Anna"), ("Ben", "Bea"), ("Emil", "Emily"), ("Jörg", "Jorg")],
)
def test_names_that_look_different_are_not_too_alike(new, existing):
    assert alike(clean_name(new), [existing]) is None


def test_the_service_names_the_existing_player():
    league = LeagueFactory()
    PlayerFactory(league=league, name="Anna")
    with pytest.raises(exceptions.InvalidInput) as caught:
        services.add_player(league=league, name="\u0410nna")
    [error] = caught.value.errors
    assert error["field"] == "name"
    assert "“Anna”" in error["message"]
    with pytest.raises(exceptions.InvalidInput) as caught:
        services.add_player(league=league, name="ANNA")
    assert caught.value.errors[0]["message"] == "“Anna” already plays in this league: choose another name."
    assert list(league.players.values_list("name", flat=True)) == ["Anna"]


# --- the league page ----------------------------------------------------------------------------


@pytest.fixture
def league():
    league = LeagueFactory()
    PlayerFactory(league=league, name="Anna")
    return league


def add(client, league, name):
    client.force_login(member(league, Role.ADMIN, first_name="Admin"))
    return client.post(reverse("player_add", kwargs={"slug": league.slug}), {"player-name": name})


@pytest.mark.parametrize("name", ["\u0410nna", "Ａｎｎａ", "anna", "An\u200bna", "\u202eAnna"])
def test_the_league_page_refuses_a_name_on_the_field(client, league, name):
    response = add(client, league, name)
    assert response.status_code == 400
    assert response.context["player_form"].errors["name"]
    assert sorted(league.players.values_list("name", flat=True)) == ["Admin", "Anna"]


def test_the_league_page_names_the_look_alike_player(client, league):
    response = add(client, league, "\u0410nna")
    [message] = response.context["player_form"].errors["name"]
    assert "“Anna”" in message


def test_the_league_page_stores_the_name_in_nfc(client, league):
    assert add(client, league, " Rene\u0301 ").status_code == 302
    assert league.players.filter(name="Ren\u00e9").exists()


# --- signing up and joining by invite -------------------------------------------------------------


@pytest.fixture
def invite(league):
    return Invite.objects.create(league=league, role=Role.MEMBER)


def signup(name):
    return {"username": "newbie", "display_name": name, "password1": "Kreuz-Dame-42", "password2": "Kreuz-Dame-42"}


@pytest.mark.parametrize("name", ["\u0410nna", "Ａｎｎａ", "Do\u200bra", "\u202eDora"])
def test_signing_up_refuses_the_name_on_the_field(client, invite, name):
    response = client.post(invite.get_absolute_url(), signup(name))
    assert response.status_code == 400
    assert response.context["form"].errors["display_name"]
    assert not Player.objects.filter(user__username="newbie").exists()


def test_signing_up_keeps_the_name_in_nfc_on_the_account_and_the_player(client, invite, league):
    response = client.post(invite.get_absolute_url(), signup("Rene\u0301"))
    assert response.status_code == 302
    player = league.players.get(user__username="newbie")
    assert player.name == player.user.first_name == "Ren\u00e9"


@pytest.mark.parametrize("name", ["\u0410nna", "Do\u200bra"])
def test_joining_logged_in_refuses_the_name_on_the_field(client, invite, name):
    client.force_login(UserFactory(username="ben", first_name="Ben"))
    response = client.post(invite.get_absolute_url(), {"display_name": name})
    assert response.status_code == 400
    assert response.context["form"].errors["display_name"]


def test_joining_without_a_name_takes_the_accounts_name_checked_like_any(invite, league):
    user = UserFactory(username="anna2", first_name="ANNA")
    with pytest.raises(exceptions.InvalidInput) as caught:
        services.accept_invite(invite=invite, user=user)
    assert caught.value.errors[0]["field"] == "display_name"
    assert "“Anna”" in caught.value.errors[0]["message"]


# --- the founder of a league ----------------------------------------------------------------------


def test_a_new_leagues_first_player_is_named_cleanly():
    user = UserFactory(username="dora", first_name="  Dora\u200b ")
    league = services.create_league(
        name="Neu", slug="neu", game="doppelkopf", variant="club", rule_overrides={}, user=user
    )
    # The account's name holds an invisible character: the login name stands in.
    assert list(League.objects.get(pk=league.pk).players.values_list("name", flat=True)) == ["dora"]


def test_a_founder_with_a_long_login_name_gets_it_cut_to_a_players_length():
    user = UserFactory(username="a" * 60, first_name="")
    league = services.create_league(
        name="Neu", slug="neu", game="doppelkopf", variant="club", rule_overrides={}, user=user
    )
    assert league.players.get().name == "a" * 40
