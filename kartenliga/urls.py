from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from leagues.api import views as api

urlpatterns = [
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/v1/calculate/", api.CalculateView.as_view(), name="api_calculate"),
    path("api/v1/bill-split/", api.BillSplitView.as_view(), name="api_bill_split"),
    path("api/v1/ping/", api.PingView.as_view(), name="api_ping"),
    path("api/v1/leagues/", api.LeagueListView.as_view(), name="api_leagues"),
    path("api/v1/leagues/<slug:slug>/export/", api.LeagueExportView.as_view(), name="api_league_export"),
    path("api/v1/leagues/<slug:slug>/meetings/<int:pk>/", api.MeetingView.as_view(), name="api_meeting"),
    path("api/v1/leagues/<slug:slug>/meetings/<int:pk>/hands/", api.MeetingHandsView.as_view(), name="api_hands"),
    path(
        "api/v1/leagues/<slug:slug>/meetings/<int:pk>/hands/<int:hand_pk>/",
        api.MeetingHandView.as_view(),
        name="api_hand",
    ),
    path(
        "api/v1/leagues/<slug:slug>/meetings/<int:pk>/hands/<int:hand_pk>/restore/",
        api.MeetingHandRestoreView.as_view(),
        name="api_hand_restore",
    ),
    path(
        "api/v1/leagues/<slug:slug>/meetings/<int:pk>/hands/<int:hand_pk>/replace/",
        api.MeetingHandReplaceView.as_view(),
        name="api_hand_replace",
    ),
    path("api/v1/schema/", SpectacularAPIView.as_view(), name="api_schema"),
    # The split view serves the Swagger UI's start script as a file (?script): the
    # Content-Security-Policy allows no inline script.
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="api_schema"), name="api_docs"),
    path("", include("leagues.urls")),
]

handler404 = "leagues.error_pages.page_not_found"
handler500 = "leagues.error_pages.server_error"
