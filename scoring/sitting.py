"""From a calculate request (plain JSON data) to a checked Sitting, and the replay of it.

Everything about the sitting itself is checked here, once for every game: the game, the
preset, the rule overrides, the players, teams, penalty soli and starting totals. The hands
are checked by the game's own engine, which knows their shape.
"""

from __future__ import annotations

from typing import Any

from .errors import Problems, ScoringError, _
from .limits import MAX_HANDS, MAX_START_TOTAL
from .options import resolve_rules
from .registry import COMPULSORY_SOLOS, GAME_MODULES, START_TOTALS, TEAMS, GameSpec, Sitting, get_game

KNOWN_FIELDS = {"game", "variant", "rules", "players", "hands", TEAMS, COMPULSORY_SOLOS, START_TOTALS}


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def seat_teams(players: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    """Partners sit opposite each other: A holds the even seats, B the odd ones."""
    return {"A": players[0::2], "B": players[1::2]}


def parse_request(data: Any) -> tuple[GameSpec, str, Sitting]:
    problems = Problems()
    if not isinstance(data, dict):
        raise ScoringError([_problem(None, None, _("The request must be a JSON object."))])

    for key in data:
        if key not in KNOWN_FIELDS:
            problems.add(None, key, _("Unknown field “%(name)s”."), name=key)

    game_name = data.get("game")
    if not isinstance(game_name, str) or game_name not in GAME_MODULES:
        problems.add(None, "game", _("Unknown game. Choose one of: %(games)s."), games=", ".join(GAME_MODULES))
        problems.raise_if_any()
    spec = get_game(game_name)

    variant = data.get("variant")
    if variant is None:
        variant = spec.default_preset
    if not isinstance(variant, str) or variant not in spec.presets:
        problems.add(
            None, "variant", _("Unknown variant. Choose one of: %(variants)s."), variants=", ".join(spec.presets)
        )
        variant = spec.default_preset
    rules = resolve_rules(
        options=spec.options, preset=spec.presets[variant], overrides=data.get("rules"), problems=problems
    )

    players = _players(data.get("players"), spec, problems)

    for name in (TEAMS, COMPULSORY_SOLOS, START_TOTALS):
        if name in data and data[name] is not None and name not in spec.extra_fields:
            problems.add(None, name, _("“%(name)s” does not apply to this game."), name=name)

    teams = None
    if TEAMS in spec.extra_fields and data.get(TEAMS) is not None:
        teams = _teams(data[TEAMS], players, problems)
    elif spec.teams_required and players:
        teams = seat_teams(players)

    solos: tuple[str, ...] = ()
    if COMPULSORY_SOLOS in spec.extra_fields and data.get(COMPULSORY_SOLOS) is not None:
        solos = _compulsory_solos(data[COMPULSORY_SOLOS], players, problems)

    start_totals = None
    if START_TOTALS in spec.extra_fields and data.get(START_TOTALS) is not None:
        parties = tuple(teams) if teams else players
        start_totals = _start_totals(data[START_TOTALS], parties, problems)

    # "hands" is required (an empty list is valid): a request without it is more likely a
    # client's mistake than an evening with no game.
    hands = data.get("hands")
    if "hands" not in data:
        problems.add(None, "hands", _("Hands are missing (send an empty list for a sitting without hands)."))
        hands = []
    elif not isinstance(hands, list):
        problems.add(None, "hands", _("Hands must be a list (it may be empty)."))
        hands = []
    elif len(hands) > MAX_HANDS:
        # Far above any evening (scoring/limits.py); past it a replay would keep a worker
        # busy for nothing, and the totals' bounds assume it.
        problems.add(
            None,
            "hands",
            _("At most %(max)s hands can be scored at once, not %(count)s."),
            max=MAX_HANDS,
            count=len(hands),
        )
        problems.raise_if_any()
    for number, hand in enumerate(hands, start=1):
        if not isinstance(hand, dict):
            problems.add(number, "hands", _("Each hand must be an object."))

    problems.raise_if_any()
    sitting = Sitting(
        players=players,
        rules=rules,
        hands=tuple(hands),
        teams=teams,
        compulsory_solos=solos,
        start_totals=start_totals,
    )
    return spec, variant, sitting


def calculate(data: Any) -> dict[str, Any]:
    """The response of POST /api/v1/calculate/ for a request; raises ScoringError."""
    spec, variant, sitting = parse_request(data)
    result = spec.replay(sitting)
    return {"game": spec.key, "variant": variant, "rules": sitting.rules, **result}


def _problem(hand, field, message, **params):
    from .errors import Problem

    return Problem(hand, field, message, params)


def _players(value: Any, spec: GameSpec, problems: Problems) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(p, str) and p.strip() for p in value):
        problems.add(None, "players", _("Players must be a list of names."))
        return ()
    if len(set(value)) != len(value):
        problems.add(None, "players", _("Player names must be unique."))
    if not spec.min_players <= len(value) <= spec.max_players:
        problems.add(
            None,
            "players",
            _("This game needs %(min)s to %(max)s players at the table, not %(count)s."),
            min=spec.min_players,
            max=spec.max_players,
            count=len(value),
        )
        if len(value) > spec.max_players:
            return ()  # the teams and penalty soli are then not looked up in a long list
    return tuple(value)


def _teams(value: Any, players: tuple[str, ...], problems: Problems) -> dict[str, tuple[str, ...]] | None:
    if not isinstance(value, dict) or not all(
        isinstance(k, str) and isinstance(v, list) and all(isinstance(p, str) for p in v) for k, v in value.items()
    ):
        problems.add(None, "teams", _("Teams must map each team name to a list of players."))
        return None
    if len(value) < 2:
        problems.add(None, "teams", _("There must be at least two teams."))
    seen = [p for members in value.values() for p in members]
    unknown = [p for p in seen if p not in players]
    if unknown:
        problems.add(None, "teams", _("Not at the table: %(names)s."), names=", ".join(unknown))
    if sorted(seen) != sorted(players):
        problems.add(None, "teams", _("Every player must be in exactly one team."))
    if set(value) & set(players) - {n for n, members in value.items() if members == [n]}:
        problems.add(None, "teams", _("A team may not be named like another player."))
    return {name: tuple(members) for name, members in value.items()}


def _compulsory_solos(value: Any, players: tuple[str, ...], problems: Problems) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(p, str) for p in value):
        problems.add(None, COMPULSORY_SOLOS, _("Penalty soli must be a list of players."))
        return ()
    for name in value:
        if name not in players:
            problems.add(None, COMPULSORY_SOLOS, _("%(name)s is not at the table."), name=name)
    return tuple(value)


def _start_totals(value: Any, parties: tuple[str, ...], problems: Problems) -> dict[str, int] | None:
    if not isinstance(value, dict) or not all(is_int(v) for v in value.values()):
        problems.add(None, START_TOTALS, _("Starting totals must map each party to a whole number."))
        return None
    if any(abs(v) > MAX_START_TOTAL for v in value.values()):
        # The bound that keeps an evening's totals within the results table (scoring/limits.py).
        problems.add(
            None,
            START_TOTALS,
            _("Starting totals must be from %(min)s to %(max)s."),
            min=-MAX_START_TOTAL,
            max=MAX_START_TOTAL,
        )
        return None
    for name in value:
        if name not in parties:
            problems.add(None, START_TOTALS, _("%(name)s is not a party of this sitting."), name=name)
    return {party: value.get(party, 0) for party in parties}
