"""The project's URLs and, by its name, the night's page (``club_night``), which the night
start redirects to: another part of the app builds that page. Where the project has it, its
own pattern resolves first; reversing gives the same path either way."""

from django.http import HttpResponse
from django.urls import path

from kartenliga.urls import urlpatterns as project


def _night_page(request, slug, pk):
    return HttpResponse(f"night {pk}")


urlpatterns = [*project, path("l/<slug:slug>/n/<int:pk>/", _night_page, name="club_night")]
