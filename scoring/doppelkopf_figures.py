"""The figures of one scored Doppelkopf hand: its entry of the response, who won it, and each
player's points. Shared by every kind of game (``doppelkopf_party``, ``doppelkopf_value``)."""

from __future__ import annotations

from .results import HandFigures, in_party_order

# Item names of the breakdown, in the players' terms.
ABSAGE_ITEM = {
    "re": ("", "keine 90 angesagt (Re)", "keine 60 angesagt (Re)", "keine 30 angesagt (Re)", "schwarz angesagt (Re)"),
    "kontra": (
        "",
        "keine 90 angesagt (Kontra)",
        "keine 60 angesagt (Kontra)",
        "keine 30 angesagt (Kontra)",
        "schwarz angesagt (Kontra)",
    ),
}


def hand_figures(
    ctx, number, kind, winner, value, breakdown, points, happened, solo, soloist, re, revoke_by, loser_points, winners
) -> HandFigures:
    """The response's entry for a valid hand, in the key order of calculate-api.md.

    Written here once, not copied from an intermediate result: the replay only adds
    ``totals`` and replaces ``triggers`` (here: what happened in the game, in the spec's
    order) by the triggers in force. ``winners``: the players who won the game, in any order
    (``hand_winners``, see scoring.results).
    """
    return {
        "number": number,
        "dealer": ctx.dealer,
        "active": list(ctx.active),
        "deltas": points,  # every player in seat order, Bock multiplier applied (0: sitting out)
        "totals": None,
        "round": ctx.round,
        "multiplier": ctx.multiplier,
        "winner": winner,
        "value": value,
        "triggers": happened,
        "breakdown": breakdown,
        "kind": kind,
        "solo": solo,
        "soloist": soloist,  # the single Re player of a solo or a Hochzeit without partner
        "re": re,
        "revoke_by": revoke_by,
        "loser_points": loser_points,
        "hand_winners": in_party_order(ctx.players, winners),
        "game_winner": None,  # every Doppelkopf hand is a game of its own: its winners are above
    }


def party_winners(ctx, winner, re) -> list[str]:
    """The members of the winning party of a party game (a soloist alone); nobody without a
    winner. Who won, not who gained: with "loser gets the points" the winners pay."""
    if winner is None:
        return []
    if winner == "re":
        return list(re)
    return [name for name in ctx.active if name not in re]


def party_points(ctx, re, re_value, solo_game) -> tuple[str | None, dict[str, int]]:
    """``(soloist, points)``: each player's points when Re's game is worth ``re_value`` (negative
    when Re lost), the Bock multiplier applied and 0 for those sitting out. The soloist plays
    against three, so he wins or pays three times; ``soloist`` is None in a game of two."""
    re_value *= ctx.multiplier
    points = dict.fromkeys(ctx.players, -re_value)
    if ctx.sitting_out:
        points.update(ctx.sitting_out)
    if solo_game:
        points[re[0]] = 3 * re_value
        return re[0], points
    for name in re:
        points[name] = re_value
    return None, points


def item(name: str, points: int) -> dict:
    """One line of the breakdown."""
    return {"item": name, "points": points}


def announcement_items(re_announced: bool, kontra_announced: bool, worth: int) -> list[dict]:
    """The breakdown's lines for Re and Kontra said, each worth ``announcement_points``."""
    items = []
    if re_announced:
        items.append(item("Re angesagt", worth))
    if kontra_announced:
        items.append(item("Kontra angesagt", worth))
    return items


def absage_items(party: str, level: int) -> list[dict]:
    """One point for each absage ``party`` made, up to ``level`` (1 keine 90 … 4 schwarz)."""
    names = ABSAGE_ITEM[party]
    return [item(names[step], 1) for step in range(1, level + 1)]
