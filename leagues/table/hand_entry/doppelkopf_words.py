"""A Doppelkopf hand as entered, in the players' words: its announcements as the form's chips
name them, and every line of the "why" view."""

from django.utils.translation import gettext as _

from leagues.table.hand_entry.doppelkopf_entered import eyes_line, ramsch_lines
from leagues.table.hand_entry.doppelkopf_labels import (
    CALL_LABELS,
    FACT_LABELS,
    KIND_LABELS,
    PARTIES,
    PARTY_LABELS,
    SOLO_LABELS,
    SPECIAL_LABELS,
    label_of,
)
from scoring.doppelkopf import CALLS
from scoring.doppelkopf_value import POINTS_FACTS


def announcement_items(announcements):
    items = []
    for a in announcements or ():
        if isinstance(a, dict) and a.get("party") in PARTIES and a.get("call") in CALLS:
            items.append(
                {
                    "value": f"{a['party']}:{a['call']}",
                    "party": a["party"],
                    "label": f"{PARTY_LABELS[a['party']]}: {label_of(CALL_LABELS, a['call'])}",
                }
            )
    return items


def describe(payload):
    """The hand as entered, in the players' words, for the "why" view."""
    lines = [(_("Game"), label_of(KIND_LABELS, payload.get("kind")))]
    if payload.get("solo"):
        lines.append((_("Solo"), label_of(SOLO_LABELS, payload["solo"])))
    if payload.get("re"):
        lines.append((_("Re"), ", ".join(payload["re"])))
    if isinstance(payload.get("re_eyes"), int):
        lines.append(eyes_line(payload))
    if payload.get("re_tricks") is not None:
        lines.append((_("Re tricks"), payload["re_tricks"]))
    if payload.get("revoke_by"):
        lines.append((_("Revoked"), payload["revoke_by"]))
    if payload.get("kind") == "points":
        lines += _points_lines(payload)
    items = announcement_items(payload.get("announcements"))
    if items:
        lines.append((_("Announcements"), " → ".join(i["label"] for i in items)))
    specials = _special_labels(payload.get("specials"))
    if specials:
        lines.append((_("Sonderpunkte"), ", ".join(specials)))
    if payload.get("fuchs_wins_last_doppelkopf"):
        lines.append((_("Fuchs won the last trick"), _("yes, a Doppelkopf")))
    lines += ramsch_lines(payload)
    if payload.get("solo_outbid"):
        lines.append((_("Solo outbid"), ", ".join(payload["solo_outbid"])))
    return lines


def _points_lines(payload):
    lines = []
    if payload.get("winner") in PARTIES:
        lines.append((_("Won by"), str(PARTY_LABELS[payload["winner"]])))
    lines.append((_("Value"), payload.get("value")))
    facts = [str(FACT_LABELS[fact]) for fact in POINTS_FACTS if payload.get(fact) is True]
    if facts:
        lines.append((_("Starts a special round"), ", ".join(facts)))
    return lines


def _special_labels(specials):
    labels = []
    for item in specials or ():
        if isinstance(item, dict):
            label = (
                f"{PARTY_LABELS.get(item.get('party'), '?')}: {SPECIAL_LABELS.get(item.get('kind'), item.get('kind'))}"
            )
            if item.get("last_trick"):
                label += " " + _("(last trick)")
            if item.get("doppel"):
                label += " " + _("(Doppel-Charly)")
            labels.append(label)
    return labels
