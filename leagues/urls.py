"""HTML pages: each package's own, gathered here; each view module owns its url patterns, so a
page is found next to its view."""

from leagues import floor
from leagues.accounts import urls as accounts
from leagues.cashbox import urls as cashbox
from leagues.clubs import urls as clubs
from leagues.exchange import urls as exchange
from leagues.seasons import urls as seasons
from leagues.stats import urls as stats
from leagues.table import urls as table
from leagues.tournaments import urls as tournaments

urlpatterns = [
    *accounts.urlpatterns,
    *clubs.urlpatterns,
    *table.urlpatterns,
    *stats.urlpatterns,
    *seasons.urlpatterns,
    *exchange.urlpatterns,
    *cashbox.urlpatterns,
    *tournaments.urlpatterns,
    *floor.urlpatterns,
]
