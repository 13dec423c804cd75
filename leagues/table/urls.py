"""An evening at the table: starting it, the sheet, entering and correcting hands, its end,
undo and the offline outbox; a club night's pages."""

from leagues.table.views import (
    evening_end,
    guest,
    guest_undo,
    hands,
    history,
    join,
    live,
    meeting,
    night,
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
    *night.urlpatterns,
    *hands.urlpatterns,
    *history.urlpatterns,
    *evening_end.urlpatterns,
    *undo.urlpatterns,
    *pwa.urlpatterns,
    *join.urlpatterns,
    *guest.urlpatterns,
    *guest_undo.urlpatterns,
]
