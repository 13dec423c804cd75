"""Draws the app icons (the club on the league green) as PNGs with the standard library only
(the venv has no Pillow): `python static/icons/make_icons.py`. 4x4 samples a pixel for smooth
edges. The maskable icon keeps the club inside the middle 80 % that every launcher shows."""

import struct
import zlib
from pathlib import Path

GREEN = (0x14, 0x53, 0x2D)
WHITE = (0xFF, 0xFF, 0xFF)
HERE = Path(__file__).resolve().parent


def inside_club(x, y):
    """The club (three leaves and a stem) in a unit square, y downwards."""
    leaves = ((0.5, 0.30, 0.17), (0.31, 0.55, 0.17), (0.69, 0.55, 0.17))
    if any((x - cx) ** 2 + (y - cy) ** 2 <= r * r for cx, cy, r in leaves):
        return True
    if 0.40 <= y <= 0.86:  # the stem widens towards its foot
        half = 0.035 + (y - 0.40) * 0.22
        return abs(x - 0.5) <= half
    return False


def inside_rounded(x, y, radius):
    cx = min(max(x, radius), 1 - radius)
    cy = min(max(y, radius), 1 - radius)
    return (x - cx) ** 2 + (y - cy) ** 2 <= radius * radius


def draw(size, *, scale, rounded):
    rows = []
    n = 4
    for py in range(size):
        row = bytearray([0])  # filter type 0
        for px in range(size):
            club = shape = 0
            for sy in range(n):
                for sx in range(n):
                    x = (px + (sx + 0.5) / n) / size
                    y = (py + (sy + 0.5) / n) / size
                    in_shape = inside_rounded(x, y, 0.19) if rounded else True
                    shape += in_shape
                    ux, uy = (x - 0.5) / scale + 0.5, (y - 0.5) / scale + 0.5
                    club += in_shape and inside_club(ux, uy)
            a = shape / (n * n)
            w = club / shape if shape else 0
            color = [round(g * (1 - w) + c * w) for g, c in zip(GREEN, WHITE, strict=True)]
            row += bytes(color + [round(a * 255)])
        rows.append(bytes(row))
    return png(size, b"".join(rows))


def png(size, raw):
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


if __name__ == "__main__":
    (HERE / "icon-192.png").write_bytes(draw(192, scale=0.8, rounded=True))
    (HERE / "icon-512.png").write_bytes(draw(512, scale=0.8, rounded=True))
    (HERE / "icon-maskable-512.png").write_bytes(draw(512, scale=0.6, rounded=False))
    (HERE / "apple-touch-icon-180.png").write_bytes(draw(180, scale=0.7, rounded=False))
