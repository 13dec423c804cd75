"""The EPC QR code ("GiroCode") of a transfer, read back by a barcode reader (zxing-cpp):
its payload is the transfer. Neither Pillow nor numpy is installed, so the images are handed
to the reader as plain grey pixel buffers: segno's own PNG, unpacked here with zlib, and the
code's module matrix."""

import datetime
import struct
import zlib
from decimal import Decimal

import pytest
import zxingcpp
from django.urls import reverse

from leagues.cashbox import epc, services
from leagues.models import Membership, Player, Role
from tests.factories import LeagueFactory, meeting_for, member

TRANSFER = epc.Transfer(
    name="Jürgen Groß", iban="DE89370400440532013000", amount=Decimal("12.30"), text="Kartenliga Stammtisch, 20.11.26"
)


def payload(transfer):
    """The EPC QR payload (EPC069-12, version 002) the transfer should give: service tag,
    version, character set (ISO 8859-1), SEPA credit transfer, no BIC, name, IBAN, amount,
    no purpose, no structured reference, the text."""
    amount = f"EUR{transfer.amount.normalize():f}"
    return "\n".join(["BCD", "002", "2", "SCT", "", transfer.name, transfer.iban, amount, "", "", transfer.text])


def read(pixels, width, height):
    image = memoryview(pixels).cast("B", (height, width))
    found = zxingcpp.read_barcodes(image, formats=zxingcpp.BarcodeFormat.QRCode)
    assert len(found) == 1
    return found[0].text


def png_pixels(data):
    """A greyscale PNG of bit depth 1 (as segno writes it) as one byte a pixel."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    chunks, i = {}, 8
    while i < len(data):
        (size,) = struct.unpack(">I", data[i : i + 4])
        kind = data[i + 4 : i + 8]
        chunks[kind] = chunks.get(kind, b"") + data[i + 8 : i + 8 + size]
        i += 12 + size
    width, height, depth, colour = struct.unpack(">IIBB", chunks[b"IHDR"][:10])
    assert (depth, colour) == (1, 0)
    raw = zlib.decompress(chunks[b"IDAT"])
    stride = (width + 7) // 8
    pixels, above = bytearray(), bytes(stride)
    for row in range(height):
        line = raw[row * (stride + 1) : (row + 1) * (stride + 1)]
        bits = bytearray(line[1:])
        assert line[0] in (0, 1, 2)  # none, Sub, Up: what segno writes
        for x in range(stride):
            if line[0] == 1 and x:
                bits[x] = (bits[x] + bits[x - 1]) & 0xFF
            elif line[0] == 2:
                bits[x] = (bits[x] + above[x]) & 0xFF
        above = bytes(bits)
        pixels += bytes(255 if bits[x // 8] >> (7 - x % 8) & 1 else 0 for x in range(width))
    return bytes(pixels), width, height


def test_the_png_decodes_to_the_transfer():
    import io

    out = io.BytesIO()
    epc.qr_code(TRANSFER).save(out, kind="png", scale=4, border=4)
    assert read(*png_pixels(out.getvalue())) == payload(TRANSFER)


def test_the_matrix_decodes_to_the_transfer():
    rows = [bytes(0 if dark else 255 for dark in row) for row in epc.qr_code(TRANSFER).matrix_iter(scale=4, border=4)]
    assert read(b"".join(rows), len(rows[0]), len(rows)) == payload(TRANSFER)


@pytest.mark.django_db
def test_the_served_code_is_the_transfer_with_the_league_and_evening(client):
    league = LeagueFactory(name="Stammtisch Kreuz-Dame")
    meeting = meeting_for(league, ["Anna", "Ben", "Carl", "Dora"], date=datetime.date(2026, 11, 20))
    owner = member(league, Role.MEMBER, first_name="Jürgen")
    services.save_bank_account(
        membership=Membership.objects.get(user=owner), iban="DE89 3704 0044 0532 0130 00", holder="Jürgen Groß"
    )
    client.force_login(member(league, Role.ADMIN))  # an admin sees every member's IBAN
    player = Player.objects.get(user=owner)
    path = reverse("pay_qr", kwargs={"slug": league.slug, "player_id": player.pk})
    response = client.get(path, {"amount": "7.50", "meeting": meeting.pk})
    assert response.status_code == 200
    transfer = epc.Transfer(
        name="Jürgen Groß",
        iban="DE89370400440532013000",
        amount=Decimal("7.50"),
        text="Kartenliga Stammtisch Kreuz-Dame, evening of 11/20/2026",
    )
    assert response.content.decode() == epc.qr_svg(transfer)
    rows = [bytes(0 if dark else 255 for dark in row) for row in epc.qr_code(transfer).matrix_iter(scale=4)]
    assert read(b"".join(rows), len(rows[0]), len(rows)) == payload(transfer)
