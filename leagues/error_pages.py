"""The site's error answers: JSON in the API's shape under /api/, the site's pages elsewhere.

A request under /api/ that Django answers before DRF (an address no URL pattern matches, such
as a meeting id that is not a number, or an error outside the view) would otherwise get an
HTML page where the schema promises {"errors": [{"hand", "field", "message"}]}.
"""

from django.http import JsonResponse
from django.utils.translation import gettext as _
from django.views import defaults


def _api(request):
    return request.path.startswith("/api/")


def _json(message, status):
    return JsonResponse({"errors": [{"hand": None, "field": None, "message": message}]}, status=status)


def page_not_found(request, exception):
    if _api(request):
        return _json(_("There is nothing at this address of the API."), 404)
    return defaults.page_not_found(request, exception)


def server_error(request):
    if _api(request):
        return _json(_("Something went wrong on our side. Nothing was saved; please try again."), 500)
    return defaults.server_error(request)
