"""The environment of the templates Jinja2 renders (templates/jinja2/): the rows of the
evening's sheet, the template rendered most (issue 12). One row took Django's engine 0.14 ms
and Jinja2's 0.033 ms: each entry renders a row, and a sheet whose figures all changed (a
correction of its first hand) renders all of them. They are given plain data and the words
they show already translated, so they need nothing of Django's but its addresses and how it
prints a number."""

from django.urls import reverse
from django.utils.formats import localize
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
    return env
