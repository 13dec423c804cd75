"""Paying by scan: a transfer as an EPC QR code ("GiroCode"), which German and most European
banking apps read (name, IBAN, amount in euros, a reference). segno's EPC helper writes the
payload and picks the code's size and error correction as the EPC's guideline asks."""

from __future__ import annotations

import io
from dataclasses import dataclass
from decimal import Decimal

import segno
from django.utils import formats
from django.utils.translation import gettext as _
from segno import helpers

# The EPC's bounds: 140 characters of remittance text, a name of 70.
TEXT_MAX = 140
NAME_MAX = 70


@dataclass(frozen=True)
class Transfer:
    """Money owed to the holder of ``iban``: ``amount`` euros with ``text`` as reference."""

    name: str
    iban: str
    amount: Decimal
    text: str


def reference(*, league, meeting=None, season=None) -> str:
    """The transfer's reference: the league, and the evening (its date) or the season it
    settles, so the payee sees in his statement what the money is for."""
    if meeting is not None:
        what = _("evening of %(date)s") % {"date": formats.date_format(meeting.date, "SHORT_DATE_FORMAT")}
    elif season is not None:
        what = str(season)
    else:
        what = ""
    text = f"Kartenliga {league.name}" + (f", {what}" if what else "")
    return text[:TEXT_MAX]


def qr_code(transfer: Transfer) -> segno.QRCode:
    """The EPC QR code of ``transfer`` (segno.helpers.make_epc_qr)."""
    return helpers.make_epc_qr(
        name=transfer.name[:NAME_MAX], iban=transfer.iban, amount=transfer.amount, text=transfer.text
    )


def qr_svg(transfer: Transfer) -> str:
    """The code as an SVG document, dark on light whatever the page's colours (a banking app
    reads dark modules on a light ground best), with its quiet zone."""
    out = io.BytesIO()
    qr_code(transfer).save(out, kind="svg", scale=4, border=4, dark="#000", light="#fff", xmldecl=False)
    return out.getvalue().decode()


def formatted(iban: str) -> str:
    """The IBAN in groups of four, as banks print it."""
    return " ".join(iban[i : i + 4] for i in range(0, len(iban), 4))
