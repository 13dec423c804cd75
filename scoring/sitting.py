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
    spec = _game(data.get("game"), problems)
    variant = _variant(data.get("variant"), spec, problems)
    rules = resolve_rules(
        options=spec.options, preset=spec.presets[variant], overrides=data.get("rules"), problems=problems
    )
    players = _players(data.get("players"), spec, problems)
    for name in (TEAMS, COMPULSORY_SOLOS, START_TOTALS):
        if data.get(name) is not None and name not in spec.extra_fields:
            problems.add(None, name, _("“%(name)s” does not apply to this game."), name=name)
    teams = _sitting_teams(_given(data, spec, TEAMS), spec, players, problems)
    solos = _given(data, spec, COMPULSORY_SOLOS)
    solos = () if solos is None else _compulsory_solos(solos, players, problems)
    start_totals = _given(data, spec, START_TOTALS)
    if start_totals is not None:
        start_totals = _start_totals(start_totals, tuple(teams) if teams else players, problems)
    hands = _hands(data, problems)
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


def _game(name: Any, problems: Problems) -> GameSpec:
    """The game asked for; an unknown game stops the checks (nothing else can be read)."""
    if not isinstance(name, str) or name not in GAME_MODULES:
        problems.add(None, "game", _("Unknown game. Choose one of: %(games)s."), games=", ".join(GAME_MODULES))
        problems.raise_if_any()
    return get_game(name)


def _variant(variant: Any, spec: GameSpec, problems: Problems) -> str:
    """The preset asked for, the game's default when left out (or unknown, after a problem)."""
    if variant is None:
        return spec.default_preset
    if not isinstance(variant, str) or variant not in spec.presets:
        problems.add(
            None, "variant", _("Unknown variant. Choose one of: %(variants)s."), variants=", ".join(spec.presets)
        )
        return spec.default_preset
    return variant


def _given(data: dict, spec: GameSpec, name: str) -> Any:
    """A field only some games take, where this game takes it; None when it is not given."""
    return data.get(name) if name in spec.extra_fields else None


def _sitting_teams(value: Any, spec: GameSpec, players: tuple[str, ...], problems: Problems):
    """The teams given, or the seats' teams where a game always plays in teams (56)."""
    if value is not None:
        return _teams(value, players, problems)
    if spec.teams_required and players:
        return seat_teams(players)
    return None


def _hands(data: dict, problems: Problems) -> list:
    # "hands" is required (an empty list is valid): a request without it is more likely a
    # client's mistake than an evening with no game.
    hands = data.get("hands")
    if "hands" not in data:
        problems.add(None, "hands", _("Hands are missing (send an empty list for a sitting without hands)."))
        return []
    if not isinstance(hands, list):
        problems.add(None, "hands", _("Hands must be a list (it may be empty)."))
        return []
    if len(hands) > MAX_HANDS:
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
    return hands


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
    if not _teams_shape(value):
        problems.add(None, "teams", _("Teams must map each team name to a list of players."))
        return None
    if len(value) < 2:
        problems.add(None, "teams", _("There must be at least two teams."))
    _check_members([p for members in value.values() for p in members], players, problems)
    # A player alone in a team may give it his name.
    alone = {name for name, members in value.items() if members == [name]}
    if set(value) & set(players) - alone:
        problems.add(None, "teams", _("A team may not be named like another player."))
    return {name: tuple(members) for name, members in value.items()}


def _check_members(seen: list[str], players: tuple[str, ...], problems: Problems) -> None:
    """Every member is at the table, and every player in exactly one team."""
    unknown = [p for p in seen if p not in players]
    if unknown:
        problems.add(None, "teams", _("Not at the table: %(names)s."), names=", ".join(unknown))
    if sorted(seen) != sorted(players):
        problems.add(None, "teams", _("Every player must be in exactly one team."))


def _teams_shape(value: Any) -> bool:
    """A mapping of team names to lists of player names."""
    return isinstance(value, dict) and all(
        isinstance(k, str) and isinstance(v, list) and all(isinstance(p, str) for p in v) for k, v in value.items()
    )


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
