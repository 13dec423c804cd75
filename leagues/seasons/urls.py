"""A season: its evenings, bill, report and what-if."""

from leagues.seasons.views import bill, report, seasons, what_if

urlpatterns = [
    *bill.urlpatterns,
    *seasons.urlpatterns,
    *what_if.urlpatterns,
    *report.urlpatterns,
]
