"""The installable app (issue 13): the web app manifest, the service worker and the page it
shows for a page never opened before while offline.

The service worker is a view, not a static file, for two reasons: a worker controls only the
pages under the folder its script is served from, and static files live under /static/ (the
``Service-Worker-Allowed: /`` header widens that); and its template names the static files it
keeps by their real URLs, hashed by collectstatic in production. Its cache version is a hash
of what it renders, so any change of those URLs or of its code makes browsers install the new
worker; ``KARTENLIGA_SW_REVISION`` (a setting, "" unless set) forces one without a change.
"""

import hashlib

from django.conf import settings
from django.http import HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import path, reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

VERSION_MARK = "__SW_VERSION__"


@require_GET
@never_cache
def service_worker(request):
    body = render_to_string(
        "pwa/sw.js",
        {"version": VERSION_MARK, "offline_url": reverse("offline"), "manifest_url": reverse("web_manifest")},
    )
    revision = str(getattr(settings, "KARTENLIGA_SW_REVISION", ""))
    version = hashlib.sha256((body + revision).encode()).hexdigest()[:12]
    response = HttpResponse(body.replace(VERSION_MARK, version), content_type="text/javascript; charset=utf-8")
    # Served from the root so it may control every page, the meeting pages included.
    response["Service-Worker-Allowed"] = "/"
    return response


@require_GET
def web_manifest(request):
    response = render(request, "pwa/manifest.webmanifest", content_type="application/manifest+json")
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def offline(request):
    """What the service worker shows for a page that was never opened while online."""
    return render(request, "pwa/offline.html")


urlpatterns = [
    path("sw.js", service_worker, name="service_worker"),
    path("manifest.webmanifest", web_manifest, name="web_manifest"),
    path("offline/", offline, name="offline"),
]
