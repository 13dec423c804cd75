"""Guest scorers: a scorekeeper makes a link for a guest without an account, who enters the
hands of that one table for that one evening by it (leagues/table/views/guest.py).

The address carries a token signed with the site's key under a salt of its own
(``django.core.signing``), naming the link's id and nonce: a token is not guessed or
altered, and it names one ``ScorerLink`` row, which says whether it still works. A link stops
working

- when a scorekeeper revokes it;
- at its expiry: six in the morning after the evening's date (the site's time zone), so a
  link made for tonight works through a long night and never the next evening;
- once its table's evening is closed, for good: a reopening (an admin's correction) does
  not bring the links made before it back.

Its writes (``make_link``, ``revoke_link``) and its check (``usable_link``) are here;
the table's list of links is ``links_of``.
"""

from __future__ import annotations

import datetime

import segno
from django.core import signing
from django.db.models import Exists, OuterRef
from django.utils import timezone
from django.utils.translation import gettext as _

from leagues.clubs.names import NameProblem, clean_name
from leagues.exceptions import InvalidInput
from leagues.models import Meeting, MeetingReopening, ScorerLink

SALT = "kartenliga.scorer-link"
# The link works until this hour of the morning after the evening's date.
MORNING_AFTER = datetime.time(6, 0)

# Why a link does not open (the guest's refusal page says it in words).
INVALID, OTHER_TABLE, REVOKED, ENDED, EXPIRED = "invalid", "other_table", "revoked", "ended", "expired"
ACTIVE = "active"


class LinkRefused(Exception):
    """A guest's link that enters no hand: ``why`` is one of the codes above."""

    def __init__(self, why: str):
        super().__init__(why)
        self.why = why


def _signer() -> signing.Signer:
    return signing.Signer(salt=SALT)


def token_of(link: ScorerLink) -> str:
    """The token of ``link`` for its address: ``<id>.<nonce>:<signature>``."""
    return _signer().sign(f"{link.pk}.{link.nonce}")


def _read_token(token: str) -> tuple[int, str]:
    """(id, nonce) of a token signed here; LinkRefused(INVALID) for anything else."""
    try:
        value = _signer().unsign(token)
    except signing.BadSignature:
        raise LinkRefused(INVALID) from None
    pk, _dot, nonce = value.partition(".")
    if not (pk.isascii() and pk.isdigit()) or len(pk) > 18 or not nonce:
        raise LinkRefused(INVALID)
    return int(pk), nonce


def expiry_for(meeting: Meeting) -> datetime.datetime:
    """When a link of ``meeting`` expires: the morning after the evening's date."""
    morning = datetime.datetime.combine(meeting.date + datetime.timedelta(days=1), MORNING_AFTER)
    return timezone.make_aware(morning)


def _closed_since():
    """Whether the link's evening was closed after the link was made (and reopened since)."""
    closings = MeetingReopening.objects.filter(meeting=OuterRef("meeting"), was_closed_at__gte=OuterRef("created_at"))
    return Exists(closings)


def usable_link(*, token: str, now=None) -> ScorerLink:
    """The link ``token`` names, with its meeting and league, if it still enters hands (one
    query); LinkRefused saying why not. Whether it is the link of the table asked about is
    the caller's to check (``for_table``)."""
    pk, nonce = _read_token(token)
    links = ScorerLink.objects.select_related("meeting__league").annotate(closed_since=_closed_since())
    link = links.filter(pk=pk).first()
    if link is None or link.nonce != nonce:
        raise LinkRefused(INVALID)
    state = link_state(link, now=now)
    if state != ACTIVE:
        raise LinkRefused(state)
    return link


def for_table(link: ScorerLink, *, pk: int) -> None:
    """LinkRefused(OTHER_TABLE) unless ``link`` is the link of the meeting ``pk``."""
    if link.meeting_id != pk:
        raise LinkRefused(OTHER_TABLE)


def link_state(link: ScorerLink, *, now=None) -> str:
    """ACTIVE, or why ``link`` no longer works: REVOKED, ENDED (its evening closed since it
    was made: ``closed_since`` annotated) or EXPIRED, in that order."""
    if link.revoked_at is not None:
        return REVOKED
    if link.meeting.closed_at is not None or link.closed_since or link.meeting.imported_totals:
        return ENDED
    if (now or timezone.now()) >= link.expires_at:
        return EXPIRED
    return ACTIVE


def make_link(*, meeting: Meeting, name: str, by, now=None) -> ScorerLink:
    """A new link for the guest called ``name`` at ``meeting``'s table, made ``by`` a
    scorekeeper. InvalidInput naming ``name`` (empty, too long, invisible characters) or
    ``meeting`` (closed, copied from paper, or its date long past)."""
    try:
        name = clean_name(name)
    except NameProblem as problem:
        raise InvalidInput([{"hand": None, "field": "name", "message": problem.message}]) from None
    if meeting.closed_at is not None or meeting.imported_totals:
        message = _("This evening has ended: nobody enters hands at its table any more.")
        raise InvalidInput([{"hand": None, "field": "meeting", "message": message}])
    expires = expiry_for(meeting)
    if expires <= (now or timezone.now()):
        message = _("This evening's date has passed: a scorer link for it would no longer work.")
        raise InvalidInput([{"hand": None, "field": "meeting", "message": message}])
    return ScorerLink.objects.create(meeting=meeting, name=name, created_by=by, expires_at=expires)


def revoke_link(*, link: ScorerLink, by, now=None) -> ScorerLink:
    """Stop ``link`` from entering hands, ``by`` a scorekeeper; a link revoked already stays
    as it was (who revoked it first, and when)."""
    now = now or timezone.now()
    if ScorerLink.objects.filter(pk=link.pk, revoked_at=None).update(revoked_at=now, revoked_by=by):
        link.revoked_at, link.revoked_by = now, by
    else:
        link.refresh_from_db(fields=["revoked_at", "revoked_by"])
    return link


def links_of(*, meeting: Meeting) -> list[ScorerLink]:
    """The links made for ``meeting``'s table, newest first, with who made and revoked them
    and whether the evening closed since (one query; ``link_state`` reads them)."""
    links = ScorerLink.objects.filter(meeting=meeting).select_related("created_by", "revoked_by")
    found = list(links.annotate(closed_since=_closed_since()).order_by("-created_at", "-id"))
    for link in found:
        link.meeting = meeting
    return found


def qr_svg(address: str, *, title: str) -> str:
    """``address`` as a QR code, inline SVG that scales to its box (``title`` for screen
    readers), dark on light whatever the page's colours, with its quiet zone."""
    code = segno.make(address, error="m")
    return code.svg_inline(scale=1, border=4, dark="#000", light="#fff", omitsize=True, svgclass="scan-qr", title=title)
