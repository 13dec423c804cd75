"""HTML pages. Each view module owns its own url patterns, so pages are found next to their views."""

from leagues import floor
from leagues.accounts.views import account as accounts
from leagues.accounts.views import tokens
from leagues.clubs.views import leagues, rules
from leagues.exchange.views import league_file as exchange
from leagues.exchange.views import paper
from leagues.seasons.views import bill, report, seasons, what_if
from leagues.stats.views import activity, standings, statistics
from leagues.table.views import evening_end, hands, history, meeting, pwa, start, undo

urlpatterns = [
    *accounts.urlpatterns,
    *leagues.urlpatterns,
    *start.urlpatterns,
    *meeting.urlpatterns,
    *hands.urlpatterns,
    *history.urlpatterns,
    *evening_end.urlpatterns,
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
    *undo.urlpatterns,
    *floor.urlpatterns,
]
