"""The API under /api/: the stateless calculators fixed by the spec, the leagues' own
operations, and the schema with its documentation page."""

from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from leagues.api import cashbox, nights, settlement
from leagues.api import views as api

urlpatterns = [
    path("v1/calculate/", api.CalculateView.as_view(), name="api_calculate"),
    path("v1/bill-split/", api.BillSplitView.as_view(), name="api_bill_split"),
    path("v1/ping/", api.PingView.as_view(), name="api_ping"),
    path("v1/leagues/", api.LeagueListView.as_view(), name="api_leagues"),
    path("v1/leagues/<slug:slug>/export/", api.LeagueExportView.as_view(), name="api_league_export"),
    path("v1/leagues/<slug:slug>/meetings/<int:pk>/", api.MeetingView.as_view(), name="api_meeting"),
    path("v1/leagues/<slug:slug>/meetings/<int:pk>/hands/", api.MeetingHandsView.as_view(), name="api_hands"),
    path(
        "v1/leagues/<slug:slug>/meetings/<int:pk>/hands/<int:hand_pk>/",
        api.MeetingHandView.as_view(),
        name="api_hand",
    ),
    path(
        "v1/leagues/<slug:slug>/meetings/<int:pk>/hands/<int:hand_pk>/restore/",
        api.MeetingHandRestoreView.as_view(),
        name="api_hand_restore",
    ),
    path(
        "v1/leagues/<slug:slug>/meetings/<int:pk>/hands/<int:hand_pk>/replace/",
        api.MeetingHandReplaceView.as_view(),
        name="api_hand_replace",
    ),
    path(
        "v1/leagues/<slug:slug>/meetings/<int:pk>/settlement/",
        settlement.SettlementView.as_view(),
        name="api_settlement",
    ),
    path(
        "v1/leagues/<slug:slug>/meetings/<int:pk>/settlement/payments/",
        settlement.SettlementPaymentsView.as_view(),
        name="api_settlement_payments",
    ),
    path("v1/leagues/<slug:slug>/club-nights/", nights.ClubNightsView.as_view(), name="api_club_nights"),
    path("v1/leagues/<slug:slug>/club-nights/<int:pk>/", nights.ClubNightView.as_view(), name="api_club_night"),
    path("v1/leagues/<slug:slug>/cashbox/", cashbox.CashboxView.as_view(), name="api_cashbox"),
    path("v1/leagues/<slug:slug>/cashbox/entries/", cashbox.CashboxEntriesView.as_view(), name="api_cashbox_entries"),
    path(
        "v1/leagues/<slug:slug>/cashbox/entries/<int:pk>/counter/",
        cashbox.CashboxCounterView.as_view(),
        name="api_cashbox_counter",
    ),
    path("v1/leagues/<slug:slug>/cashbox/counts/", cashbox.CashCountsView.as_view(), name="api_cashbox_counts"),
    path("v1/schema/", SpectacularAPIView.as_view(), name="api_schema"),
    # The split view serves the Swagger UI's start script as a file (?script): the
    # Content-Security-Policy allows no inline script.
    path("docs/", SpectacularSwaggerSplitView.as_view(url_name="api_schema"), name="api_docs"),
]
