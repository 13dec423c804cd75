"""The games Kartenliga scores, as data.

Each game module exposes ``GAME`` (or several, like the Maw family) as a ``GameSpec``; this
registry maps the API's game names to the module that holds them, so a new game plugs in by
adding one line here and touching no view.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .options import Option

# API game name -> module and attribute holding its GameSpec.
GAME_MODULES: dict[str, tuple[str, str]] = {
    "doppelkopf": ("scoring.doppelkopf", "GAME"),
    "thousand": ("scoring.thousand", "GAME"),
    "fifty_six": ("scoring.fifty_six", "GAME"),
    "twenty_five": ("scoring.maw", "TWENTY_FIVE"),
    "forty_five": ("scoring.maw", "FORTY_FIVE"),
    "one_ten": ("scoring.maw", "ONE_TEN"),
    "auction_45": ("scoring.maw", "AUCTION_45"),
    "spoil_five": ("scoring.maw", "SPOIL_FIVE"),
}

# Fields of a calculate request that only some games accept.
TEAMS = "teams"
COMPULSORY_SOLOS = "compulsory_solos"
START_TOTALS = "start_totals"


@dataclass(frozen=True)
class Sitting:
    """One meeting's input to a replay: rules in force, seats and the hands as entered."""

    players: tuple[str, ...]
    rules: dict[str, Any]
    hands: tuple[Any, ...]
    teams: dict[str, tuple[str, ...]] | None = None
    compulsory_solos: tuple[str, ...] = ()
    start_totals: dict[str, int] | None = None
    # Special rounds carried over from the previous meeting (Doppelkopf with the option
    # carry_special_rounds); only the app's meetings set it, the calculate API never does.
    carried_rounds: tuple[str, ...] = ()


@dataclass(frozen=True)
class GameSpec:
    key: str
    label: str
    options: tuple[Option, ...]
    presets: dict[str, dict[str, Any]]
    default_preset: str
    # replay(sitting) -> dict with "parties", "hands", "totals", "next" and the game's own
    # top-level fields; raises ScoringError with every problem found.
    replay: Callable[[Sitting], dict[str, Any]]
    min_players: int
    max_players: int
    extra_fields: frozenset[str] = frozenset()  # of TEAMS, COMPULSORY_SOLOS, START_TOTALS
    preset_labels: dict[str, str] = field(default_factory=dict)
    teams_required: bool = False  # teams are always formed (56), from seats if not given
    # The top-level fields a hand of this game may carry: the entry form asks for these and
    # no others (the Maw family shares one form, each game showing its own fields).
    hand_fields: frozenset[str] = frozenset()


def game_names() -> list[str]:
    return list(GAME_MODULES)


def get_game(name: str) -> GameSpec:
    module_name, attr = GAME_MODULES[name]
    return getattr(importlib.import_module(module_name), attr)


def all_games() -> list[GameSpec]:
    return [get_game(name) for name in GAME_MODULES]


def example_request(name: str, rng, hands: int, *, variant: str | None = None) -> dict[str, Any]:
    """A valid calculate request for game ``name`` with ``hands`` random hands, from the
    game module's own generator (for the benchmark, the API docs and demo data)."""
    module_name, _attr = GAME_MODULES[name]
    make = importlib.import_module(module_name).example_request
    kwargs: dict[str, Any] = {"variant": variant} if variant else {}
    if "game" in inspect.signature(make).parameters:  # a module holding a family of games
        kwargs["game"] = name
    return make(rng, hands, **kwargs)
