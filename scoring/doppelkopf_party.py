"""The party games of Doppelkopf, Re against Kontra: normal, Hochzeit, Trumpfabgabe, the soli.

``party_game`` reads the hand (the Re party, the solo type, Re's eyes and tricks, the
announcements, the special points), then scores it as the DDV tournament rules do: who
reached his target (TSR 7.1), the value item by item (7.2) or, when neither party reached it,
what each party scored against the other (7.1.4), and the points of each player.
"""

from __future__ import annotations

from typing import NamedTuple

from .doppelkopf_checks import TOTAL_EYES, TRICKS, all_str, check_announcements, check_outbid, report_not_active
from .doppelkopf_entered import check_eyes_range, eye_lines
from .doppelkopf_figures import (
    absage_items,
    announcement_items,
    hand_figures,
    item,
    party_points,
    party_winners,
)
from .doppelkopf_specials import check_specials, check_specials_shape
from .errors import _

SOLO_TYPES = ("trumpf", "damen", "buben", "fleischlos", "stilles")
UNDER = ((90, "keine 90"), (60, "keine 60"), (30, "keine 30"))  # item 2: the loser under 90, 60, 30
AGAINST = ((120, "120 gegen keine 90"), (90, "90 gegen keine 60"), (60, "60 gegen keine 30"), (30, "30 gegen schwarz"))
HALF = TOTAL_EYES // 2  # 120: enough against a party that said Kontra only, a split game
REACHED = (151, 181, 211)  # own absage keine 90 / 60 / 30
REACHED_AGAINST = (90, 60, 30)  # the other party's absage keine 90 / 60 / 30
SCHWARZ = 4  # the highest absage: the other party takes no trick
# Where the brackets of Re's eyes start: every figure between two lines scores the same.
EYE_LINES = eye_lines(HALF, REACHED, REACHED_AGAINST)
NO_SPECIALS = ({}, 0, 0, False)  # what check_specials finds in a hand without special points (never changed)
SPECIAL_ITEM = {
    ("doppelkopf", "re"): "Doppelkopf (Re)",
    ("doppelkopf", "kontra"): "Doppelkopf (Kontra)",
    ("fuchs", "re"): "Fuchs gefangen (Re)",
    ("fuchs", "kontra"): "Fuchs gefangen (Kontra)",
    ("fuchs_last", "re"): "Fuchs im letzten Stich (Re)",
    ("fuchs_last", "kontra"): "Fuchs im letzten Stich (Kontra)",
    ("karlchen", "re"): "Karlchen (Re)",
    ("karlchen", "kontra"): "Karlchen (Kontra)",
    ("doppel_charly", "re"): "Doppel-Charly (Re)",
    ("doppel_charly", "kontra"): "Doppel-Charly (Kontra)",
    ("karlchen_gefangen", "re"): "Karlchen gefangen (Re)",
    ("karlchen_gefangen", "kontra"): "Karlchen gefangen (Kontra)",
}
PARTY_LABEL = {"re": "Re", "kontra": "Kontra"}
# How many Re players each kind of game has (any other kind: two), and what to say otherwise.
RE_SIZES = {
    "solo": ((1,), _("A solo has exactly one Re player: the soloist.")),
    "hochzeit": ((1, 2), _("A Hochzeit has two Re players, or one when no partner was found.")),
}
TWO_RE = ((2,), _("This game needs two Re players."))


class Side(NamedTuple):
    """One party's part of the game."""

    eyes: int
    none: bool  # it took no trick
    announced: bool  # it said Re or Kontra (an absage says it too)
    absage: int  # 0, or its highest absage: 1 keine 90 … 4 schwarz


class PartyGame(NamedTuple):
    """A party game as entered, every part of it checked."""

    kind: str
    re: list
    solo: str | None  # the solo type of a solo
    solo_game: bool  # one Re player against three: a solo or a Hochzeit without partner
    gtype: str  # the game type the options name (``special_points_in``, ``gda_types``)
    re_side: Side
    ko_side: Side
    re_kontra_re: bool
    specials: dict  # {(item, party): points}
    re_special: int
    ko_special: int
    fuchs_last_doppelkopf: bool


def party_game(hand, number, kind, ctx, problems):
    """The figures of a party game, or None after reporting every problem of the hand."""
    game = _read(hand, number, kind, ctx, problems)
    if game is None:
        return None
    return _score(game, number, ctx)


def game_type(kind: str, solo: str | None, solo_game: bool) -> str | None:
    """The game type the options name: a solo by its type, a Hochzeit without partner is a
    trump solo, any other game by its kind."""
    if kind == "solo":
        return solo
    if kind == "hochzeit" and solo_game:
        return "trumpf"
    return kind


# -- reading the hand --------------------------------------------------------------------


def _read(hand, number, kind, ctx, problems) -> PartyGame | None:
    re = hand.get("re")
    re_ok = _check_re(re, number, kind, ctx, problems)
    solo = _check_solo_type(hand, number, kind, ctx, problems)
    solo_game = re_ok and _one_against_three(kind, re)
    gtype = game_type(kind, solo, solo_game)
    eyes = _check_eyes(hand, number, problems)
    ann = check_announcements(hand.get("announcements"), number, problems)
    if "solo_outbid" in hand:  # the replay takes the names from the hand once it is valid
        check_outbid(hand, number, ctx, problems, re[0] if solo_game else None)
    if eyes is None or ann is None:
        check_specials_shape(hand, number, problems)
        return None
    re_side, ko_side = _sides(*eyes, ann)
    specials = _read_specials(hand, number, gtype, re_side, ko_side, ctx.rules, problems)
    if specials is None or not re_ok or (kind == "solo" and solo is None):
        return None
    return PartyGame(kind, re, solo, solo_game, gtype, re_side, ko_side, ann[4], *specials)


def _one_against_three(kind: str, re: list) -> bool:
    """A solo, or a Hochzeit without partner, which is played as a solo."""
    return kind == "solo" or (kind == "hochzeit" and len(re) == 1)


def _read_specials(hand, number, gtype, re: Side, ko: Side, rules, problems):
    if "specials" not in hand and "fuchs_wins_last_doppelkopf" not in hand:
        return NO_SPECIALS
    return check_specials(hand, number, gtype, re.eyes, ko.eyes, re.none, ko.none, rules, problems)


def _check_re(re, number, kind, ctx, problems) -> bool:
    if re is None:
        problems.add(number, "re", _("Name the Re party."))
        return False
    if not isinstance(re, list) or not all_str(re):
        problems.add(number, "re", _("The Re party must be a list of players."))
        return False
    at_table = ctx.active_set.issuperset(re) or _report_not_active(re, number, ctx, problems)
    unique = len(set(re)) == len(re)
    if not unique:
        problems.add(number, "re", _("A player is named twice in the Re party."))
    sizes, message = RE_SIZES.get(kind, TWO_RE)
    if len(re) not in sizes:
        problems.add(number, "re", message)
    re_ok = at_table and unique and len(re) in sizes
    if re_ok:
        check_soloist(re, number, ctx, problems)
    return re_ok


def _report_not_active(re, number, ctx, problems) -> bool:
    """Name each Re player who is not active in this game; always False."""
    for name in re:
        if name not in ctx.active_set:
            report_not_active(number, "re", name, ctx, problems)
    return False


def check_soloist(re, number, ctx, problems) -> None:
    """In a Pflichtsolo round or a penalty solo the player whose turn it is plays the solo."""
    if ctx.soloist is not None and re[0] != ctx.soloist:
        problems.add(number, "re", _("%(name)s must play the solo in this game."), name=ctx.soloist)


def _check_solo_type(hand, number, kind, ctx, problems) -> str | None:
    solo = hand.get("solo")
    if kind != "solo":
        if solo is not None:
            problems.add(
                number, "solo", _("“%(name)s” does not apply to a game of kind “%(kind)s”."), name="solo", kind=kind
            )
        return None
    if not isinstance(solo, str) or solo not in SOLO_TYPES:
        problems.add(number, "solo", _("Which solo? One of: %(types)s."), types=", ".join(SOLO_TYPES))
        return None
    if ctx.round == "ramsch" and solo != "trumpf":
        problems.add(number, "solo", _("Only a trump solo can replace a Ramsch game."))
    return solo


def _check_eyes(hand, number, problems) -> tuple[int, int | None] | None:
    """``(eyes, tricks)`` of Re, tricks None when not entered; None after a problem."""
    eyes = hand.get("re_eyes")
    eyes_ok = type(eyes) is int and 0 <= eyes <= TOTAL_EYES  # an int, not a bool
    if not eyes_ok:
        problems.add(number, "re_eyes", _("Re's eyes must be a whole number from 0 to 240."))
    tricks = hand.get("re_tricks")
    if tricks is not None and not _tricks_fit(tricks, eyes if eyes_ok else None, number, problems):
        return None
    if not eyes_ok:
        return None
    if hand.get("re_eyes_range") is not None:  # a result chip: the bracket the figure stands for
        check_eyes_range(hand["re_eyes_range"], eyes, EYE_LINES, number, problems)
    return eyes, tricks


def _tricks_fit(tricks, eyes, number, problems) -> bool:
    """Re's tricks are a number of the game's tricks that fits Re's eyes (None: no figure to fit)."""
    if type(tricks) is not int or not 0 <= tricks <= TRICKS:
        problems.add(number, "re_tricks", _("Re's tricks must be a whole number from 0 to 12."))
        return False
    if eyes is None:
        return True
    if tricks == 0 and eyes != 0:
        problems.add(number, "re_tricks", _("Without a trick Re cannot have eyes."))
        return False
    if tricks == TRICKS and eyes != TOTAL_EYES:
        problems.add(number, "re_tricks", _("With all 12 tricks Re has all 240 eyes."))
        return False
    return True


def _sides(eyes: int, tricks: int | None, ann) -> tuple[Side, Side]:
    re_ann, ko_ann, re_abs, ko_abs, _rkr = ann
    if tricks is None:  # eyes alone tell a party without a trick only at 0
        re_none, ko_none = eyes == 0, eyes == TOTAL_EYES
    else:
        re_none, ko_none = tricks == 0, tricks == TRICKS
    return Side(eyes, re_none, re_ann, re_abs), Side(TOTAL_EYES - eyes, ko_none, ko_ann, ko_abs)


# -- scoring it --------------------------------------------------------------------------


def _score(game: PartyGame, number, ctx):
    rules = ctx.rules
    re, ko = game.re_side, game.ko_side
    # DDV 7.1: who reached his target. 120 is enough against a party that said Kontra alone.
    kontra_only = ko.announced and not re.announced
    re_won = _reaches_target(re, ko, half_is_enough=kontra_only)
    ko_won = _reaches_target(ko, re, half_is_enough=not kontra_only)
    loser_points = False
    if re_won or ko_won:
        winner = "re" if re_won else "kontra"
        breakdown = _won_items(game, winner, rules)
        value = sum(line["points"] for line in breakdown)
        re_value = value if re_won else -value
        won, lost = (re, ko) if re_won else (ko, re)
        loser_points = _loser_gets_points(won, lost, rules)
        # Loser gets the points: the signs are swapped (losers +v, winners -v), so the game
        # still sums to zero. When the special points outweigh (v <= 0) the losers already
        # gain by plain plus-minus: nothing is swapped.
        if loser_points and value > 0:
            re_value = -re_value
    else:
        winner = None
        breakdown, re_value = _no_winner(game)
        value = abs(re_value)
    soloist, points = party_points(ctx, game.re, re_value, game.solo_game)
    triggers = _happened(game, winner, loser_points)
    return hand_figures(
        ctx,
        number,
        game.kind,
        winner,
        value,
        breakdown,
        points,
        triggers,
        game.solo,
        soloist,
        list(game.re),
        None,
        loser_points,
        party_winners(ctx, winner, game.re),
    )


def _reaches_target(own: Side, other: Side, *, half_is_enough: bool) -> bool:
    """A party's own absage sets its target; else the other party's absage lowers it; else
    it needs more than half the eyes (half with ``half_is_enough``)."""
    if own.absage:
        return other.none if own.absage == SCHWARZ else own.eyes >= REACHED[own.absage - 1]
    if other.absage:
        return (not own.none) if other.absage == SCHWARZ else own.eyes >= REACHED_AGAINST[other.absage - 1]
    return own.eyes >= (HALF if half_is_enough else HALF + 1)


def _won_items(game: PartyGame, winner: str, rules) -> list[dict]:
    """The breakdown of a game that has a winner (DDV 7.2), from the winner's side."""
    re, ko = game.re_side, game.ko_side
    won, lost = (re, ko) if winner == "re" else (ko, re)
    items = [item("gewonnen", 1)]
    items += [item(name, 1) for name in _beaten(lost)]
    items += announcement_items(re.announced, ko.announced, rules.announcement_points)
    if rules.absage_both:
        items += absage_items("re", re.absage) + absage_items("kontra", ko.absage)
    else:
        items += absage_items(winner, won.absage)
    items += [item(name, 1) for name in _against_absage(won, lost)]
    if winner == "kontra" and game.gtype in rules.gda_types:
        items.append(item("gegen die Alten", 1))
    if game.solo_game and rules.solo_point:
        items.append(item("Solopunkt", 1))
    items += [_special_item(key, pts, winner) for key, pts in game.specials.items()]
    return items


def _beaten(loser: Side) -> list[str]:
    """The items a party scores for the other's few eyes: under 90, 60, 30, schwarz."""
    names = [name for limit, name in UNDER if loser.eyes < limit]
    if loser.none:
        names.append("schwarz")
    return names


def _against_absage(own: Side, other: Side) -> list[str]:
    """The items a party scores for its eyes against the other party's absagen."""
    return [name for reach, name in AGAINST[: other.absage] if own.eyes >= reach]


def _special_item(key, points, ahead):
    """A special point counts for the party ahead (the winner) and against it for the other."""
    return item(SPECIAL_ITEM[key], points if key[1] == ahead else -points)


def _loser_gets_points(won: Side, lost: Side, rules) -> bool:
    """Losers under 60 against winners who announced nothing, under 30 against Re or Kontra
    alone, without a trick against keine 90."""
    if not rules.loser_gets:
        return False
    if not won.announced:
        return lost.eyes < 60
    if not won.absage:
        return lost.eyes < 30
    return won.absage == 1 and lost.none


def _no_winner(game: PartyGame) -> tuple[list[dict], int]:
    """No winner (DDV TSR 7.1.4): only 7.2.2 (a), (e) and (f) count: for each party the
    opponents under 90/60/30/schwarz (item 2), the points against the other party's absage
    (item 5), and the special points. The party ahead gets the difference: ``(breakdown from
    its side, Re's value)``."""
    re, ko = game.re_side, game.ko_side
    scored = [("re", name) for name in _scored_against(re, ko)] + [("kontra", name) for name in _scored_against(ko, re)]
    re_pts = sum(1 for party, _name in scored if party == "re")
    ko_pts = len(scored) - re_pts
    ahead = "re" if re_pts + game.re_special >= ko_pts + game.ko_special else "kontra"
    breakdown = [item(f"{name} ({PARTY_LABEL[party]})", 1 if party == ahead else -1) for party, name in scored]
    breakdown += [_special_item(key, pts, ahead) for key, pts in game.specials.items()]
    return breakdown, re_pts + game.re_special - ko_pts - game.ko_special


def _scored_against(own: Side, other: Side) -> list[str]:
    """What a party scores against the other without a winner: the other under 90/60/30 and
    schwarz, and its own eyes against the other's absagen."""
    return _beaten(other) + _against_absage(own, other)


def _happened(game: PartyGame, winner, loser_points) -> list[str]:
    """What happened in the game that can fire a trigger, in the spec's order (the replay keeps
    those in force)."""
    re, ko = game.re_side, game.ko_side
    facts = (
        ("kontra_lost", winner == "re" and ko.announced),
        ("schwarz", re.none or ko.none),
        ("split_120", re.eyes == HALF),
        ("re_kontra_re", game.re_kontra_re),
        ("fuchs_last_doppelkopf", game.fuchs_last_doppelkopf),
        ("loser_points", loser_points),
    )
    return [name for name, fired in facts if fired]
