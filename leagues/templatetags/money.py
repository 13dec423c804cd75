"""Figures in the page's language: ``{{ share|money }}`` is "1.234,50 €" in German and
"1,234.50 €" in English, in a span that never wraps; ``{{ rate|number }}`` is "2,5" or "2.5".
Why the euro sign stands after the amount in English too: leagues/seasons/money.py."""

from django import template

from leagues import money as formats

register = template.Library()


@register.filter
def money(value):
    if value in (None, ""):
        return ""
    return formats.money_html(value)


@register.filter
def number(value):
    if value in (None, ""):
        return ""
    return formats.number_text(value)
