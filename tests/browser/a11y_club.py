"""The club the accessibility test walks: the demo Doppelkopf league (a closed season with its
bill, a second one under way) with an open evening, an invite and an API token, and one open
evening of each race game's entry form (1000, 110, Auction 45s, 56) with a few hands, and a
DDV league's tournament with its first round drawn (a club night of two tables).

``pages(club)`` lists every page kind as (name, path, signed in?)."""

import datetime
import random

from django.contrib.auth import get_user_model

from leagues.accounts import tokens
from leagues.clubs import services as clubs_services
from leagues.management.commands.seed_demo import build_demo
from leagues.models import Membership, Player, Role
from leagues.table import meetings, replay
from leagues.table import services as table_services
from leagues.tournaments import services as tournament_services
from scoring.registry import example_request
from tests.factories import PASSWORD, LeagueFactory

RACE_GAMES = [
    # (game, slug, league name)
    ("thousand", "tysiac", "Tysiąc am Dienstag"),
    ("one_ten", "one-ten", "110 im Hirschen"),
    ("auction_45", "auction-45", "Auction 45s"),
    ("fifty_six", "fifty-six", "56 im Keller"),
]


def _race_league(game, slug, name, user):
    league = LeagueFactory(
        name=name, slug=slug, game=game, variant=example_request(game, random.Random(1), 1)["variant"]
    )
    Membership.objects.create(league=league, user=user, role=Role.ADMIN)
    request = example_request(game, random.Random(5), 3, variant=league.variant)
    players = [Player.objects.get_or_create(league=league, name=n)[0] for n in request["players"]]
    meeting = meetings.start_meeting(
        league=league, date=datetime.date.today(), players=players, teams=request.get("teams"), user=user
    )
    for hand in request["hands"][:2]:
        table_services.enter_hand(meeting=meeting, payload=hand, by=user)
    return league, meeting


def _tournament(user):
    """A DDV league's tournament of eight with round 1 drawn: a club night of two tables, one
    hand entered at the first."""
    league = LeagueFactory(
        name="Doko-Pokal", slug="doko-pokal", game="doppelkopf", variant="ddv", public_token="pokal-public-link"
    )
    Membership.objects.create(league=league, user=user, role=Role.ADMIN)
    names = ("Anna", "Ben", "Carla", "Dirk", "Emma", "Frank", "Gina", "Hugo")
    players = [Player.objects.create(league=league, name=name) for name in names]
    tournament = tournament_services.create_tournament(
        league=league, name="Herbstpokal", format="ddv", rounds_planned=2, games_per_player=4, user=user
    )
    tournament_services.register_players(tournament=tournament, players=players)
    night = tournament_services.draw_round(
        tournament=tournament, date=datetime.date.today(), host=players[0], user=user
    )
    table = night.tables.order_by("table_number").first()
    seats = [seat.player.name for seat in table.seats.order_by("position")]
    payload = {"kind": "points", "re": seats[:2], "winner": "re", "value": 1}
    table_services.enter_hand(meeting=table, payload=payload, by=user)
    return tournament, night, table


def build_club():
    league = build_demo()
    admin = get_user_model().objects.get(username="demo")
    admin.set_password(PASSWORD)
    admin.save(update_fields=["password"])
    closed = league.meetings.filter(closed_at__isnull=False).order_by("date").first()
    players = list(league.players.order_by("pk"))
    meeting = meetings.start_meeting(
        league=league,
        date=datetime.date.today(),
        players=players,
        end_time=datetime.time(3, 30),
        pennant_holder=players[0],
        user=admin,
    )
    names = [p.name for p in replay.seated_players(meeting)]
    for payload in (
        {"kind": "normal", "re": names[1:3], "re_eyes": 130},
        {"kind": "normal", "re": names[2:4], "re_eyes": 95},
    ):
        table_services.enter_hand(meeting=meeting, payload=payload, by=admin)
    invite = clubs_services.create_invite(league=league, role=Role.MEMBER, player=None, user=admin)
    tokens.create_token(user=admin, name="Tabellen-Skript", days=30)
    races = {game: _race_league(game, slug, name, admin) for game, slug, name in RACE_GAMES}
    tournament = _tournament(admin)
    return {
        "league": league,
        "user": admin,
        "open": meeting,
        "closed": closed,
        "invite": invite,
        "races": races,
        "tournament": tournament,
    }


def _meeting_pages(prefix, meeting):
    hand = meeting.hands.order_by("number").first()
    m = f"{prefix}/m/{meeting.pk}"
    return [
        ("Abend", f"{m}/", True),
        ("Verlauf", f"{m}/history/", True),
        ("Warum", f"{m}/h/{hand.pk}/", True),
        ("Hand ändern", f"{m}/h/{hand.pk}/edit/", True),
    ]


def pages(club):
    league, open_, closed = club["league"], club["open"], club["closed"]
    slug, token = league.slug, league.public_token
    tournament, night, table = club["tournament"]
    pokal = tournament.league.public_token
    anna = Player.objects.get(league=league, user=club["user"])
    lg = f"/l/{slug}"
    anonymous = [
        ("Startseite", "/"),
        ("Anmelden", "/accounts/login/"),
        ("Registrieren", "/accounts/signup/"),
        ("Passwort vergessen", "/accounts/password/reset/"),
        ("Einladung", club["invite"].get_absolute_url()),
        ("Öffentliche Tabelle", f"/p/{token}/"),
        ("Öffentlicher Abend", f"/p/{token}/m/{closed.pk}/"),
        ("Öffentliches Regelbuch", f"/p/{token}/house-rules/"),
        ("Öffentlicher Bericht", f"/p/{token}/seasons/1/report/"),
        ("Öffentlicher großer Bildschirm", f"/p/{token}/m/{open_.pk}/live/"),
        ("Öffentlicher Turnier-Bildschirm", f"/p/{pokal}/t/{tournament.pk}/live/"),
        ("Öffentlicher Spieleabend-Bildschirm", f"/p/{pokal}/n/{night.pk}/live/"),
        ("404 ohne Anmeldung", "/gibt-es-nicht/"),
    ]
    signed_in = [
        ("Meine Ligen", "/"),
        ("Neue Liga", "/leagues/new/"),
        ("Liga importieren", "/leagues/import/"),
        ("Liga", f"{lg}/"),
        ("Abend beginnen", f"{lg}/meetings/new/"),
        *[(f"Doppelkopf {name}", path) for name, path, _ in _meeting_pages(lg, open_)],
        ("Abend geschlossen", f"{lg}/m/{closed.pk}/"),
        ("Abend wieder öffnen", f"{lg}/m/{closed.pk}/reopen/"),
        ("Hausregeln des Abends", f"{lg}/m/{open_.pk}/house-rules/"),
        ("Abend beenden mitten in der Runde", f"{lg}/m/{open_.pk}/close/"),
        ("Endzeit", f"{lg}/m/{open_.pk}/end-time/"),
        ("Großer Bildschirm", f"{lg}/m/{open_.pk}/live/"),
        ("Tabelle", f"{lg}/standings/"),
        ("Statistik", f"{lg}/statistics/"),
        ("Statistik Spieler", f"{lg}/statistics/player/{anna.pk}/"),
        ("Wertung", f"{lg}/ratings/"),
        ("Regelbuch", f"{lg}/house-rules/"),
        ("Was wäre wenn", f"{lg}/seasons/1/what-if/"),
        ("Rechnung gespeichert", f"{lg}/seasons/1/bill/"),
        ("Rechnung offen", f"{lg}/seasons/2/bill/"),
        ("Rechnung aufgeteilt", f"{lg}/seasons/2/bill/?total=100.00&method=per_point&cents_per_point=10"),
        ("Saisonbericht", f"{lg}/seasons/1/report/"),
        ("Saison wieder öffnen", f"{lg}/seasons/1/reopen/"),
        ("Aktivität", f"{lg}/activity/"),
        ("Papier-Import", f"{lg}/import-paper/"),
        ("Kasse", f"{lg}/cashbox/"),
        ("IBAN", f"{lg}/bank-account/"),
        ("API-Tokens", "/accounts/tokens/"),
        ("Passwort ändern", "/accounts/password/change/"),
        ("Offline", "/offline/"),
        ("404 angemeldet", f"{lg}/m/999999/"),
    ]
    for game, (race, meeting) in club["races"].items():
        signed_in += [(f"{game} {name}", path) for name, path, _ in _meeting_pages(f"/l/{race.slug}", meeting)]
        signed_in += [(f"{game} Liga", f"/l/{race.slug}/"), (f"{game} Regelbuch", f"/l/{race.slug}/house-rules/")]
    # A tournament's pages, its round (a club night of two tables) and one of its tables.
    t, n = f"/l/{tournament.league.slug}/t/{tournament.pk}", f"/l/{tournament.league.slug}/n/{night.pk}"
    signed_in += [
        ("Turniere", f"/l/{tournament.league.slug}/t/"),
        ("Neues Turnier", f"/l/{tournament.league.slug}/t/new/"),
        ("Turnier", f"{t}/"),
        ("Turnier großer Bildschirm", f"{t}/live/"),
        ("Turnier Ergebnisse", f"{t}/results/"),
        ("Spieleabend", f"{n}/"),
        ("Spieleabend großer Bildschirm", f"{n}/live/"),
        ("Spieleabend beginnen", f"/l/{tournament.league.slug}/nights/new/"),
        ("Turniertisch Abend", f"/l/{tournament.league.slug}/m/{table.pk}/"),
    ]
    # A race evening ends after any hand: its question asks for the answer. An imported
    # league's admin says whom he plays as: a race league's admin has no player there.
    race, meeting = club["races"]["thousand"]
    signed_in += [
        ("thousand Abend beenden", f"/l/{race.slug}/m/{meeting.pk}/close/"),
        ("Spielt als", f"/l/{race.slug}/plays-as/"),
    ]
    return [(n, p, False) for n, p in anonymous] + [(n, p, True) for n, p in signed_in]
