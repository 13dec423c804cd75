"""HTML pages. Each view module owns its own url patterns, so pages are found next to their views."""

from .views import accounts, bill, exchange, leagues, meetings, rules, seasons, standings, what_if

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
]
