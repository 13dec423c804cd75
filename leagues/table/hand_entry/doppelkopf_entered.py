"""The Doppelkopf form's chips kept as they were entered (scoring/doppelkopf_entered.py has the
hand's fields): a result chip's bracket of Re's eyes, and a Ramsch by its chips (who has the
most eyes, their bracket, the Jungfrauen) instead of eyes and tricks nobody counted.

A bracket is posted as ``lo-hi`` (the chip's ``data-lo`` and ``data-hi``). The history and the
why view say what was entered: a bracket as ``121–150``, a hand stored with a count as that
count; a hand stored before the chips were kept has its count, and is shown so.
"""

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.doppelkopf import TOTAL_EYES
from scoring.doppelkopf_entered import RAMSCH_STEP
from scoring.doppelkopf_party import EYE_LINES, HALF
from scoring.numbers import whole_number

# The Ramsch chips' form fields and the hand's fields they are kept as.
RAMSCH_CHIP_FIELDS = {"ramsch_losers": "losers", "ramsch_eyes": "loser_eyes", "ramsch_jungfrauen": "jungfrauen"}
PLAYING = 4  # the players of one game (doppelkopf.md)


# A normal game or solo depends on Re's eyes only through lines (doppelkopf.md, who wins and
# the game value): no trick, under 30/60/90, 120 against 121, and 151/181/211 (the absagen's
# own targets, the mirror of under 90/60/30). Between two lines every figure scores the same,
# so the form offers one chip per bracket; a chip enters the bracket's edge nearest to 120
# (the figure the bracket is decided by) and the bracket itself (``re_eyes_range``); the
# exact eyes stay a field for a count.

# Ramsch: the loser pays ⌊eyes / RAMSCH_STEP⌋ (scoring.doppelkopf_value._ramsch), never with
# under 60 eyes (the most of 240 among four).


def eye_brackets():
    """Re's eyes in brackets, low to high: ``lo``, ``hi``, ``eyes`` (the figure a chip
    enters) and ``label``."""
    brackets = []
    for lo, nxt in zip(EYE_LINES, [*EYE_LINES[1:], TOTAL_EYES + 1], strict=True):
        hi = nxt - 1
        eyes = hi if hi < HALF else lo
        # Short enough for six chips a row on a phone: "<90" is 60–89, "151+" is 151–180.
        if lo == hi:
            label = str(lo)
        elif hi < HALF:
            label = f"<{hi + 1}"
        else:
            label = f"{lo}+"
        brackets.append({"lo": lo, "hi": hi, "eyes": eyes, "label": label, "range": f"{lo}–{hi}"})
    return brackets


def ramsch_brackets():
    """The Ramsch loser's eyes by the points they cost: ``lo``, ``hi``, ``points``."""
    brackets = []
    lo = TOTAL_EYES // PLAYING
    while lo <= TOTAL_EYES:
        hi = min(TOTAL_EYES, (lo // RAMSCH_STEP + 1) * RAMSCH_STEP - 1)
        brackets.append(
            {"lo": lo, "hi": hi, "points": lo // RAMSCH_STEP, "label": str(lo) if lo == hi else f"{lo}–{hi}"}
        )
        lo = hi + 1
    return brackets


def read_bracket(text):
    """``(lo, hi)`` of a posted ``lo-hi`` in ASCII digits, lo <= hi; None for anything else."""
    lo, sep, hi = str(text or "").strip().partition("-")
    lo, hi = whole_number(lo.strip()), whole_number(hi.strip())
    if not sep or lo is None or hi is None or lo > hi:
        return None
    return lo, hi


def chip_bracket(data, posted):
    """The result chip's bracket ``[lo, hi]`` to keep beside Re's eyes (``data``: the form's
    cleaned data, ``eyes`` already Re's), or None: no chip, Kontra's pile counted, or a count
    typed over the chip's figure (the JS clears the bracket then; without it, a bracket that
    does not hold the eyes was not what was entered)."""
    bracket = read_bracket(data.get("eyes_range"))
    eyes = data.get("eyes")
    if bracket is None or not isinstance(eyes, int) or str(posted.get("eyes_for") or "re").strip() == "kontra":
        return None
    return list(bracket) if bracket[0] <= eyes <= bracket[1] else None


def read_ramsch_chips(data):
    """Check the Ramsch chips in the form's cleaned ``data`` (the bracket is made ``[lo, hi]``
    there): ``{form field: problem}`` for a chip missing or unreadable. The rest (who may be
    a loser, whether the chips add up) is the engine's."""
    problems = {}
    if not data.get("ramsch_losers"):
        problems["ramsch_losers"] = _("Tap who has the most eyes.")
    text = data.get("ramsch_eyes")
    bracket = read_bracket(text)
    if bracket is not None:
        data["ramsch_eyes"] = list(bracket)
    elif not text:
        problems["ramsch_eyes"] = _("Tap how many eyes the most were.")
    else:
        problems["ramsch_eyes"] = _("The eyes of the most could not be read; tap their chip again.")
    return problems


def ramsch_chips_payload(value):
    """A Ramsch's chips as the hand keeps them; ``value``: the form's ``value`` (the text as
    posted for a field that could not be read)."""
    payload = {"losers": value("ramsch_losers") or [], "loser_eyes": value("ramsch_eyes")}
    if value("ramsch_jungfrauen"):
        payload["jungfrauen"] = value("ramsch_jungfrauen")
    return payload


def _pair(value):
    """A stored ``[lo, hi]``; None for anything else (an older hand has none)."""
    if isinstance(value, list) and len(value) == 2 and all(type(v) is int for v in value):
        return value
    return None


def chips_initial(payload):
    """The form's initial values of the chips kept in a stored hand: the result chip's
    bracket (``eyes_range``) and the Ramsch chips that are on."""
    initial = {}
    bracket = _pair(payload.get("re_eyes_range"))
    if bracket:
        initial["eyes_range"] = f"{bracket[0]}-{bracket[1]}"
    losers = payload.get("losers")
    if isinstance(losers, list):
        initial["ramsch_losers"] = losers
        initial["ramsch_jungfrauen"] = list(payload.get("jungfrauen") or ())
        bracket = _pair(payload.get("loser_eyes"))
        initial["ramsch_lo"] = bracket[0] if bracket else None
    return initial


def _span(lo, hi):
    return str(lo) if lo == hi else f"{lo}–{hi}"


def eyes_line(payload):
    """Re's and Kontra's eyes as entered: the result chip's bracket where one was kept, else
    the count."""
    eyes = payload["re_eyes"]
    lo, hi = _pair(payload.get("re_eyes_range")) or (eyes, eyes)
    return (
        _("Eyes"),
        _("Re %(re)s : Kontra %(kontra)s") % {"re": _span(lo, hi), "kontra": _span(TOTAL_EYES - hi, TOTAL_EYES - lo)},
    )


def ramsch_lines(payload):
    """A Ramsch as entered: everyone's eyes and tricks as typed, or its chips (``_chip_lines``);
    no line for another hand."""
    if isinstance(payload.get("losers"), list):
        return _chip_lines(payload)
    if not isinstance(payload.get("eyes"), dict):
        return []
    tricks = payload.get("tricks") if isinstance(payload.get("tricks"), dict) else {}
    everyone = ", ".join(
        ngettext(
            "%(name)s %(eyes)s eyes, %(tricks)s trick",
            "%(name)s %(eyes)s eyes, %(tricks)s tricks",
            tricks[n] if isinstance(tricks.get(n), int) else 2,
        )
        % {"name": n, "eyes": e, "tricks": tricks.get(n, "?")}
        for n, e in payload["eyes"].items()
    )
    return [(_("Ramsch"), everyone)]


def _chip_lines(payload):
    """A Ramsch entered by its chips, as they were tapped: who has the most eyes with their
    bracket, the Jungfrauen; one loser with all the eyes and no trick for anybody else is a
    Durchmarsch."""
    losers = [str(name) for name in payload.get("losers") or ()]
    jungfrauen = [str(name) for name in payload.get("jungfrauen") or ()]
    bracket = _pair(payload.get("loser_eyes"))
    if bracket == [TOTAL_EYES, TOTAL_EYES] and len(losers) == 1 and len(jungfrauen) == PLAYING - 1:
        return [(_("Durchmarsch"), losers[0])]
    eyes = _span(*bracket) if bracket else "?"
    lines = [(_("Most eyes (pays)"), f"{', '.join(losers)}: {eyes}")]
    if jungfrauen:
        lines.append((_("Jungfrau (no trick)"), ", ".join(jungfrauen)))
    return lines
