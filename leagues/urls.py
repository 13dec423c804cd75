"""HTML pages. Each view module owns its own url patterns, so pages are found next to their views."""

from .views import (
    accounts,
    activity,
    bill,
    exchange,
    leagues,
    meetings,
    paper,
    pwa,
    report,
    rules,
    seasons,
    standings,
    statistics,
    tokens,
    what_if,
)

urlpatterns = [
    *accounts.urlpatterns,
    *leagues.urlpatterns,
    *meetings.urlpatterns,
    *standings.urlpatterns,
    *bill.urlpatterns,
    *rules.urlpatterns,
    *seasons.urlpatterns,
    *what_if.urlpatterns,
    *exchange.urlpatterns,
    *report.urlpatterns,
    *activity.urlpatterns,
    *statistics.urlpatterns,
    *paper.urlpatterns,
    *tokens.urlpatterns,
    *pwa.urlpatterns,
]
