"""``{{ user|plays_as:league }}``: who entered or changed something, named as ``league`` knows
him (leagues/table/hand_history.py): the player he plays as, else the name he gave for the sheet,
else his username."""

from django import template

from leagues.table import hand_history

register = template.Library()


@register.filter
def plays_as(user, league):
    if user is None:
        return ""
    return hand_history.plays_as(user, league)
