#!/usr/bin/env python3
"""png_colors.py FILE.png RRGGBB...: how many pixels of the screenshot have each
colour, one count per line, and on a last line the pixels that are not the
page background (#f4f5f7) or white. Standard library only (zlib): the PNG's
IDAT is inflated and unfiltered here, so the test needs no imaging package."""
import struct
import sys
import zlib


def pixels(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit(f"{path}: byte offset 0: not a PNG file")
    pos, idat, width = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, color = struct.unpack(">IIBB", body[:10])
            if depth != 8 or color not in (2, 6):
                sys.exit(f"{path}: byte offset {pos}: only 8-bit RGB/RGBA PNGs are read")
            channels = 4 if color == 6 else 3
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    prev = bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        row = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = row[i - channels] if i >= channels else 0
            b = prev[i]
            c = prev[i - channels] if i >= channels else 0
            if f == 1:
                row[i] = (row[i] + a) & 255
            elif f == 2:
                row[i] = (row[i] + b) & 255
            elif f == 3:
                row[i] = (row[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                row[i] = (row[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        prev = row
        for x in range(0, stride, channels):
            yield bytes(row[x:x + 3])


def main():
    wanted = [bytes.fromhex(c) for c in sys.argv[2:]]
    counts = {c: 0 for c in wanted}
    background = {bytes.fromhex("f4f5f7"), bytes.fromhex("ffffff")}
    other = 0
    for p in pixels(sys.argv[1]):
        if p in counts:
            counts[p] += 1
        if p not in background:
            other += 1
    for c in wanted:
        print(counts[c])
    print(other)


main()
