"""A Doppelkopf hand as the scorekeeper entered it with chips, not figures (doppelkopf.md leaves
the entry open; these are the project's fields, checked here for ``doppelkopf_value``):

- ``re_eyes_range``: ``[lo, hi]``, the bracket of Re's eyes a result chip stands for ("121+" is
  121 to 150), beside ``re_eyes``, the figure in it the game is scored with. The bracket holds
  that figure and crosses no line the score turns on (``eye_lines``), so every figure in it
  scores the same: the record says what was entered, the score is the one it decides.
- A Ramsch by its chips, instead of ``eyes`` and ``tricks``: ``losers`` (the players with the
  most eyes, each the same), ``loser_eyes`` (``[lo, hi]``, their eyes, within one value of
  P = ⌊eyes / 30⌋) and optional ``jungfrauen`` (the players who took no trick). Nobody's eyes
  or tricks are made up: the chips are possible when some figure of the bracket leaves the
  others fewer eyes each, a trick each for those not Jungfrau. One loser with all 240 eyes
  and everyone else without a trick took all 12 tricks: a Durchmarsch.
"""

from __future__ import annotations

from bisect import bisect_right

from .doppelkopf_checks import TOTAL_EYES, all_str, is_int, report_not_active
from .errors import _

RAMSCH_CHIPS = ("losers", "loser_eyes", "jungfrauen")
RAMSCH_STEP = 30  # P = ⌊the loser's eyes / 30⌋


def eye_lines(half: int, reached: tuple[int, ...], reached_against: tuple[int, ...]) -> tuple[int, ...]:
    """Where a bracket of Re's eyes starts, low to high: no trick (0), one trick, under
    30/60/90 (``reached_against``), 120 against 121 (``half``), Re's absagen made
    (``reached``) and Kontra without a trick (240)."""
    return tuple(sorted({0, 1, *reached_against, half, half + 1, *reached, TOTAL_EYES}))


def _pair(value):
    """``[lo, hi]`` of whole numbers 0..240, lo <= hi; None for anything else."""
    if not isinstance(value, list) or len(value) != 2 or not all(is_int(v) for v in value):
        return None
    lo, hi = value
    return (lo, hi) if 0 <= lo <= hi <= TOTAL_EYES else None


def check_eyes_range(value, eyes: int, lines: tuple[int, ...], number, problems) -> None:
    """``re_eyes_range`` beside ``eyes`` (Re's eyes, already checked)."""
    pair = _pair(value)
    if pair is None:
        problems.add(number, "re_eyes_range", _("Re's eyes as a bracket must be two whole numbers from 0 to 240."))
        return
    lo, hi = pair
    if not lo <= eyes <= hi:
        problems.add(number, "re_eyes_range", _("Re's eyes (%(eyes)s) must lie in their bracket."), eyes=eyes)
    elif bisect_right(lines, lo) != bisect_right(lines, hi):
        problems.add(number, "re_eyes_range", _("A bracket of Re's eyes cannot cross a line the score turns on."))


def _players(hand, field, number, ctx, problems):
    """A list of active players, each once (an empty list for a field left out); None after a problem."""
    value = hand.get(field)
    if value is None:
        return []
    if not isinstance(value, list) or not all_str(value):
        problems.add(number, field, _("“%(name)s” must be a list of players."), name=field)
        return None
    if len(set(value)) != len(value):
        problems.add(number, field, _("A player is named twice in “%(name)s”."), name=field)
        return None
    ok = True
    for name in value:
        if name not in ctx.active_set:
            report_not_active(number, field, name, ctx, problems)
            ok = False
    return value if ok else None


def _figure(lo, hi, losers, others):
    """The first figure of the bracket that ``losers`` can each have while ``others`` (players
    with a trick) each have fewer and the eyes add up to 240; None when there is none."""
    for figure in range(lo, hi + 1):
        rest = TOTAL_EYES - losers * figure
        if rest < 0:
            return None
        if (rest == 0) if others == 0 else rest <= others * (figure - 1):
            return figure
    return None


def check_ramsch_chips(hand, number, ctx, problems):
    """A Ramsch by its chips: ``(losers, (lo, hi), jungfrauen, durchmarsch)``, or None after
    reporting every problem."""
    if "eyes" in hand or "tricks" in hand:
        problems.add(number, "losers", _("Enter everyone's eyes and tricks, or the chips of the most eyes: not both."))
        return None
    losers, jungfrauen = _losers_and_jungfrauen(hand, number, ctx, problems)
    pair = _loser_eyes(hand, number, problems)
    if pair is None or losers is None or jungfrauen is None:
        return None
    others = len(ctx.active) - len(losers) - len(jungfrauen)
    if _figure(*pair, len(losers), others) is None:
        problems.add(number, "loser_eyes", _("No eyes in this bracket add up to 240 with these chips."))
        return None
    return losers, pair, jungfrauen, len(losers) == 1 and others == 0


def _losers_and_jungfrauen(hand, number, ctx, problems):
    """``(losers, jungfrauen)``, each None after a problem: at least one loser, and no loser
    among the Jungfrauen (who has the most eyes took a trick)."""
    losers = _players(hand, "losers", number, ctx, problems)
    if losers is not None and not losers:
        problems.add(number, "losers", _("Name who has the most eyes."))
        losers = None
    jungfrauen = _players(hand, "jungfrauen", number, ctx, problems)
    if losers and jungfrauen and not set(losers).isdisjoint(jungfrauen):
        problems.add(number, "jungfrauen", _("Who has the most eyes took a trick: not a Jungfrau."))
        jungfrauen = None
    return losers, jungfrauen


def _loser_eyes(hand, number, problems):
    """The bracket of the most eyes, ``(lo, hi)`` within one value of points; None after a problem."""
    pair = _pair(hand.get("loser_eyes"))
    if pair is None:
        problems.add(number, "loser_eyes", _("The most eyes must be two whole numbers from 0 to 240 (a bracket)."))
        return None
    if pair[0] // RAMSCH_STEP != pair[1] // RAMSCH_STEP:
        problems.add(number, "loser_eyes", _("The bracket of the most eyes must cost one value of points."))
        return None
    return pair
