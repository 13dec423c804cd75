"""The sheet like the paper one: short names in its header and the game as a
letter on its row (S solo, H Hochzeit, R Ramsch, B Bock, P Pflichtsolo), next to the row's
colour, so that the round never shows by colour alone."""

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy, ngettext

register = template.Library()

SHORTEST = 3  # a header of six players fits 360 px with names cut to 3 or 4 letters
ROUND_LETTERS = {
    "bock": ("B", gettext_lazy("Bock")),
    "ramsch": ("R", gettext_lazy("Ramsch")),
    "pflichtsolo": ("P", gettext_lazy("Pflichtsolo")),
    "penalty": ("P", gettext_lazy("Penalty solo")),
}
# A special round in a word, as its badge names it (the sheet's legend, the line above the
# form, the rounds waiting).
ROUND_WORDS = {kind: words for kind, (_letter, words) in ROUND_LETTERS.items()}
KIND_LETTERS = {
    "solo": ("S", gettext_lazy("Solo")),
    "hochzeit": ("H", gettext_lazy("Hochzeit")),
    "ramsch": ("R", gettext_lazy("Ramsch")),
}


def short_names(names):
    """Each name cut to its shortest start (at least SHORTEST letters) that no other name at
    the table shares; a name that is the start of another stays whole."""
    names = [str(n) for n in names]
    out = {}
    for name in names:
        others = [o.casefold() for o in names if o != name]
        cut = name
        for length in range(SHORTEST, len(name)):
            prefix = name[:length].casefold()
            if not any(o.startswith(prefix) for o in others):
                cut = name[:length]
                break
        out[name] = cut
    return out


@register.simple_tag
def short_name(name, names):
    """``names``: the sheet's parties (names) or players (with ``.name``)."""
    return short_names([getattr(n, "name", n) for n in names]).get(str(name), str(name))


def _field(row, key):
    return row.get(key) if isinstance(row, dict) else getattr(row, key, None)


@register.filter
def round_letters(row):
    """[(letter, words)] for a sheet row: its special round, then a solo, Hochzeit or Ramsch
    game (a Pflichtsolo round's game is a solo anyway, a Ramsch round's game a Ramsch)."""
    letters = []
    round_kind = _field(row, "round") or "normal"
    if round_kind in ROUND_LETTERS:
        letters.append(ROUND_LETTERS[round_kind])
    hand = _field(row, "hand")
    payload = getattr(hand, "payload", None) or {}
    kind = payload.get("kind") if isinstance(payload, dict) else None
    if kind in KIND_LETTERS and round_kind not in ("pflichtsolo", "penalty"):
        letter = KIND_LETTERS[kind]
        if letter not in letters:
            letters.append(letter)
    return letters


QUEUE_RUNS_SHOWN = 4


@register.filter
def queue_runs(queue):
    """The special rounds waiting, as runs of the same round in their order: (round, how many)
    for the first QUEUE_RUNS_SHOWN runs, and how many rounds come after those. A league that
    carries its rounds from evening to evening can queue hundreds of them: one badge each
    would be a wall of badges at 390 px."""
    runs = []
    for kind in queue or ():
        if runs and runs[-1][0] == kind:
            runs[-1][1] += 1
        else:
            runs.append([kind, 1])
    shown = runs[:QUEUE_RUNS_SHOWN]
    return {"shown": [tuple(run) for run in shown], "more": sum(count for _kind, count in runs[QUEUE_RUNS_SHOWN:])}


@register.filter
def queue_badges(queue):
    """The special rounds waiting (``queue_runs``) as the panel shows them: a badge a run,
    "×n" on a run of more than one, then how many rounds come after those."""
    runs = queue_runs(queue)
    badges = format_html_join(
        "",
        '<span class="badge {}">{}{}</span> ',
        ((kind, ROUND_WORDS.get(kind, kind), f" ×{count}" if count > 1 else "") for kind, count in runs["shown"]),
    )
    if runs["more"]:
        more = ngettext("then %(rounds)s more round", "then %(rounds)s more rounds", runs["more"])
        badges += format_html('<span class="queue-more">{}</span>', more % {"rounds": runs["more"]})
    return badges
