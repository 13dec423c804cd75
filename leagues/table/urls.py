"""An evening at the table: starting it, the sheet, entering and correcting hands, its end,
undo and the offline outbox."""

from leagues.table.views import (
    evening_end,
    guest,
    hands,
    history,
    join,
    live,
    meeting,
    night_start,
    pwa,
    start,
    undo,
)

urlpatterns = [
    *start.urlpatterns,
    *night_start.urlpatterns,
    *meeting.urlpatterns,
    *live.urlpatterns,
    *hands.urlpatterns,
    *history.urlpatterns,
    *evening_end.urlpatterns,
    *undo.urlpatterns,
    *pwa.urlpatterns,
    *join.urlpatterns,
    *guest.urlpatterns,
]
