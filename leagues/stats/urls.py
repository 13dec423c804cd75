"""Standings (members' and public), statistics and the league's activity."""

from leagues.stats.views import activity, standings, statistics

urlpatterns = [
    *standings.urlpatterns,
    *statistics.urlpatterns,
    *activity.urlpatterns,
]
