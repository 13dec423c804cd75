"""An evening at the table: starting it, the sheet, entering and correcting hands, its end,
undo and the offline outbox."""

from leagues.table.views import evening_end, meetings, pwa, undo

urlpatterns = [
    *meetings.urlpatterns,
    *evening_end.urlpatterns,
    *undo.urlpatterns,
    *pwa.urlpatterns,
]
