"""The words of Doppelkopf's hand form for the engine's values: the kinds of game, the solo
types, the calls, the parties, the Sonderpunkte and the facts of a hand written as its result
only, the special rounds. The form, its ``describe`` and the outbox's words (words.py) say a hand with them."""

from django.utils.translation import gettext_lazy

KIND_LABELS = {
    "normal": gettext_lazy("Normal"),
    "hochzeit": gettext_lazy("Hochzeit"),
    "trumpfabgabe": gettext_lazy("Trumpfabgabe"),
    "solo": gettext_lazy("Solo"),
    "ramsch": gettext_lazy("Ramsch"),
    "revoke": gettext_lazy("Revoke"),
    "points": gettext_lazy("Result only"),
}
SOLO_LABELS = {
    "trumpf": gettext_lazy("Trumpf"),
    "damen": gettext_lazy("Damen"),
    "buben": gettext_lazy("Buben"),
    "fleischlos": gettext_lazy("Fleischlos"),
    "stilles": gettext_lazy("Stille Hochzeit"),
}
CALL_LABELS = {
    "re": gettext_lazy("Re"),
    "kontra": gettext_lazy("Kontra"),
    "keine_90": gettext_lazy("keine 90"),
    "keine_60": gettext_lazy("keine 60"),
    "keine_30": gettext_lazy("keine 30"),
    "schwarz": gettext_lazy("schwarz"),
}
PARTY_LABELS = {"re": gettext_lazy("Re"), "kontra": gettext_lazy("Kontra")}
# How a kind's chip looks (a revoke is a mistake: red when chosen).
KIND_CHIP_CLASS = {"revoke": "chip-warn"}
SPECIAL_LABELS = {
    "doppelkopf": gettext_lazy("Doppelkopf"),
    "fuchs": gettext_lazy("Fuchs"),
    "karlchen": gettext_lazy("Karlchen"),
    "karlchen_gefangen": gettext_lazy("Karlchen gefangen"),
}
PARTIES = ("re", "kontra")
# The facts of a hand written as its result only (kind ``points``), in the players' words.
FACT_LABELS = {
    "kontra_announced": gettext_lazy("Kontra announced"),
    "schwarz": gettext_lazy("schwarz"),
    "split_120": gettext_lazy("120 : 120"),
    "re_kontra_re": gettext_lazy("Re, Kontra, Re"),
    "fuchs_wins_last_doppelkopf": gettext_lazy("Fuchs wins the last Doppelkopf"),
}
# The running special round as the panel names it (any other round shows its key as it is).
ROUND_NAMES = {
    "bock": gettext_lazy("Bock round"),
    "ramsch": gettext_lazy("Ramsch round"),
    "pflichtsolo": gettext_lazy("Pflichtsolo round"),
    "penalty": gettext_lazy("Penalty soli"),
}


def label_of(labels, value):
    """The words for an engine value as text (a lazy label is translated anew each time a page
    compares or shows it); the value itself for one this module has no words for yet (the
    engine added it), so that it is still offered."""
    return str(labels[value]) if value in labels else value
