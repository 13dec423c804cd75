"""A season's score in a page: ``{% season_score row.score s.shown_as s.race %}`` rounds it as
the night page rounds the way its evenings counted; ``{{ score|bill_score }}`` shows a score a
bill was split by (a whole number as it is, halves as "3½", else two decimals)."""

from django import template

from leagues.table.night_page import bill_score_text, season_score_text

register = template.Library()


@register.simple_tag
def season_score(score, shown_as, race=False):
    return season_score_text(score, shown_as=shown_as, race=race)


@register.filter
def bill_score(score):
    if score in (None, ""):
        return ""
    return bill_score_text(score)
