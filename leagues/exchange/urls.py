"""A league's data in and out: the league file and a paper season."""

from leagues.exchange.views import league_file, paper

urlpatterns = [
    *league_file.urlpatterns,
    *paper.urlpatterns,
]
