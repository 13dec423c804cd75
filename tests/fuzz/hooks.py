"""schemathesis hooks for `make fuzz` (loaded through SCHEMATHESIS_HOOKS=tests.fuzz.hooks).

Path parameters drawn at random name no league, meeting or hand, so nearly every request
would end in a 404 before reaching the code that stores hands. Where the generated values are
well-formed, hypothesis may swap them for the ids of the demo league (its slug, its meetings,
their hands and hands of other meetings, its club nights), which the runner passes as
FUZZ_IDS. Malformed values (negative tests) are left alone, so that a request meant to be
invalid stays invalid.
"""

import json
import os
import re
import uuid

import schemathesis
from hypothesis import strategies as st

IDS = json.loads(os.environ.get("FUZZ_IDS", "{}"))
SLUG = re.compile(r"^[-a-zA-Z0-9_]+$")


def _well_formed(params):
    for name, value in params.items():
        if name == "slug" and not (isinstance(value, str) and SLUG.match(value)):
            return False
        if name in {"id", "hand_pk"} and not (isinstance(value, int) and not isinstance(value, bool)):
            return False
    return True


def _real(params, path=""):
    """Every combination of real ids for the parameters this operation (at ``path``) has."""
    slug, meetings = IDS.get("slug"), IDS.get("meetings", {})
    if not slug or "slug" not in params:
        return []
    if "id" not in params:
        return [{**params, "slug": slug}]
    if "/club-nights/" in path:
        return [{**params, "slug": slug, "id": int(n)} for n in IDS.get("club_nights", [])]
    if "hand_pk" not in params:
        return [{**params, "slug": slug, "id": int(m)} for m in meetings]
    every_hand = [h for hands in meetings.values() for h in hands]
    return [
        {**params, "slug": slug, "id": int(m), "hand_pk": h}
        for m, hands in meetings.items()
        # the meeting's own hands, and one of another meeting (must be a 404)
        for h in hands + every_hand[:1]
    ]


@schemathesis.hook
def flatmap_path_parameters(context, path_parameters):
    if not path_parameters or not _well_formed(path_parameters):
        return st.just(path_parameters)
    real = _real(path_parameters, context.operation.path if context.operation else "")
    if not real:
        return st.just(path_parameters)
    return st.one_of(st.just(path_parameters), st.sampled_from(real))


def _with_a_key(case):
    """An append names its number or an idempotency key, or it is a 400 before its hand is
    read (OpenAPI cannot say "one of two" across a body field and a header). A body that has
    neither gets a fresh key, as a client sends it, so that the generated hands go on to the
    service. It never makes a malformed request well-formed: whatever made it malformed (a
    path, a header, the body's payload) stays as it was."""
    if case.operation.definition.raw.get("operationId") != "meeting_hand_add" or not isinstance(case.body, dict):
        return
    headers = {name.lower() for name in case.headers or {}}
    if "number" in case.body or "idempotency_key" in case.body or "idempotency-key" in headers:
        return
    case.body = {**case.body, "idempotency_key": str(uuid.uuid4())}


@schemathesis.hook
def map_case(context, case):
    # The cookie half of Django's CSRF check (the header half is in schemathesis.toml).
    token = os.environ.get("FUZZ_CSRFTOKEN")
    if token:
        case.cookies = {**(case.cookies or {}), "csrftoken": token}
    _with_a_key(case)
    return case
