from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/", include("leagues.api.urls")),
    path("", include("leagues.urls")),
]

handler404 = "leagues.error_pages.page_not_found"
handler500 = "leagues.error_pages.server_error"
