"""The environment of the templates Jinja2 renders (templates/jinja2/), those that every hand
entered renders: the rows of the evening's sheet, the panel of what comes next and the hand's
form. Every other template is Django's (docs/architecture.md).

Their words: a constant one as ``{{ _("...") }}``, which ``makemessages`` finds as it finds
Django's ``{{ _("...") }}``; words with a figure in them or a plural are worked out in Python
(views.meetings.next_words, hand_entry.doppelkopf.next_words), where ``makemessages`` finds
them too. Nothing else of Django's is needed but its addresses, its CSRF field (given by
Django's backend as ``csrf_input``) and how it prints a number."""

from django.urls import reverse
from django.utils.formats import localize
from django.utils.translation import gettext
from jinja2 import Environment


def number(value):
    """``value`` as Django's templates print it: an int as it is (no thousands separator is
    set), anything else (a Decimal) localized."""
    return str(value) if type(value) is int else localize(value)


def url(name, *args):
    """The address of the view ``name`` with ``args``, as Django's {% url %} gives it."""
    return reverse(name, args=args)


def environment(**options):
    env = Environment(**options)
    env.filters["number"] = number
    env.globals["url"] = url
    env.globals["_"] = gettext
    return env
