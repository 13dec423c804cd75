"""A league's tournaments: their pages, the result list and the big screen."""

from leagues.tournaments.views import live, results, tournaments

urlpatterns = [
    *tournaments.urlpatterns,
    *results.urlpatterns,
    *live.urlpatterns,
]
