"""The error answers of every API operation, in the schema (a drf-spectacular postprocessing
hook, SPECTACULAR_SETTINGS["POSTPROCESSING_HOOKS"]).

The views declare what is particular to them (the 400 of a bad hand, the 409 of a hand
number someone else took); the answers that come from the layers around every view are added
here, where they can occur, all in the one error shape ({"errors": [{hand, field, message}]}):

- 413 and 429 on every operation: the body size cap and the rate limits sit in front of all.
- 400 on every operation that takes a body: a body that is not JSON.
- 401 where a personal API token is accepted: the token is unknown, revoked or expired.
- 403 where a login is needed: not logged in, a role too low, or no CSRF token.
- 404 where the path names a league (and its meeting or hand): a member of another league
  gets a 404, not a 403, since a league's existence is its own business.
- 409 on every write to a league: another phone may have changed the meeting first.

What a view declares for a status is kept; only an empty description is filled in.
"""

from django.conf import settings
from django.utils.translation import gettext as _

ERRORS_REF = {"$ref": "#/components/schemas/Errors"}
WRITES = {"post", "put", "patch", "delete"}


def _limits():
    rates = settings.REST_FRAMEWORK.get("DEFAULT_THROTTLE_RATES", {})
    limits = [
        rates.get("anon") and _("%(rate)s per address without a login") % {"rate": rates["anon"]},
        rates.get("user") and _("%(rate)s per account") % {"rate": rates["user"]},
        rates.get("invalid_token")
        and _("%(rate)s unknown, revoked or expired tokens per address") % {"rate": rates["invalid_token"]},
    ]
    return ", ".join(limit for limit in limits if limit) or _("none on this server")


def _descriptions():
    return {
        "400": _("The request body is not valid JSON, or a field is wrong (the error names it)."),
        "401": _("The API token is unknown, revoked or expired."),
        "403": _("Not logged in, the role in the league is too low for this, or the CSRF token is missing."),
        "404": _("No such league, meeting or hand, or the league is not one of yours."),
        "409": _("Someone changed the meeting first: read it again and decide."),
        "413": _("The request body is larger than the server accepts."),
        "429": _("Too many requests (limits: %(limits)s). The Retry-After header says how many seconds to wait.")
        % {"limits": _limits()},
    }


def _needs_login(operation):
    """drf-spectacular lists an empty requirement ({}) when a call without a login is allowed."""
    security = operation.get("security")
    return bool(security) and {} not in security


def error_statuses(path, method, operation):
    """The error statuses that can answer ``method`` on ``path``, beyond what the view says."""
    statuses = {"413", "429"}
    if "requestBody" in operation or method in {"post", "put", "patch"}:
        statuses.add("400")
    if _needs_login(operation):
        statuses.add("403")
    if any("tokenAuth" in requirement for requirement in operation.get("security") or ()):
        statuses.add("401")  # a Bearer token that is unknown, revoked or expired (leagues/accounts/tokens.py)
    league_scoped = "{slug}" in path
    if league_scoped:
        statuses.add("404")
        if method in WRITES:
            statuses.add("409")
    return statuses


def document_errors(result, generator, request, public):
    descriptions = _descriptions()
    retry_after = {
        "Retry-After": {
            "schema": {"type": "integer", "minimum": 0},
            "description": _("Seconds until the next request is accepted."),
        }
    }
    for path, operations in result.get("paths", {}).items():
        for method, operation in operations.items():
            if method not in {"get", "put", "post", "delete", "patch", "head", "options", "trace"}:
                continue  # path-level "parameters" and the like
            responses = operation.setdefault("responses", {})
            for status in sorted(error_statuses(path, method, operation)):
                response = responses.setdefault(status, {})
                if not response.get("description"):
                    response["description"] = descriptions[status]
                response.setdefault("content", {"application/json": {"schema": ERRORS_REF}})
                if status == "429":
                    response.setdefault("headers", retry_after)
            # The view's own errors (a 400 or 409 it declares) get the general description too.
            for status, response in responses.items():
                if status in descriptions and not response.get("description"):
                    response["description"] = descriptions[status]
    return result
