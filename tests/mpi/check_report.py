#!/usr/bin/python3
"""Checks a report directory: every expected PNG is a valid, non-empty PNG
(signature, IHDR with a size, IEND last), index.html references exactly the
PNGs in the directory, the unexpected ones are absent, and the page holds
the given texts.
usage: check_report.py DIR --png NAME... [--absent NAME...] [--text TEXT...]"""
import argparse
import os
import struct
import sys
import zlib


def check_png(path):
    data = open(path, "rb").read()
    if len(data) < 1000:
        return f"{path}: only {len(data)} bytes"
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        return f"{path}: no PNG signature"
    pos, chunks = 8, []
    while pos + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        crc = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])[0]
        if zlib.crc32(kind + body) != crc:
            return f"{path}: bad CRC in chunk {kind!r}"
        chunks.append((kind, body))
        pos += 12 + length
    if not chunks or chunks[0][0] != b"IHDR" or chunks[-1][0] != b"IEND":
        return f"{path}: chunks do not start with IHDR and end with IEND"
    width, height = struct.unpack(">II", chunks[0][1][:8])
    if width < 100 or height < 100:
        return f"{path}: {width}x{height} pixels"
    if not any(k == b"IDAT" for k, _ in chunks):
        return f"{path}: no image data"
    return None


def main():
    p = argparse.ArgumentParser()
    p.add_argument("dir")
    p.add_argument("--png", nargs="*", default=[])
    p.add_argument("--absent", nargs="*", default=[])
    p.add_argument("--text", nargs="*", default=[])
    a = p.parse_args()
    errors = []
    page_path = os.path.join(a.dir, "index.html")
    page = open(page_path, encoding="utf-8").read() if os.path.isfile(page_path) else ""
    if not page:
        errors.append(f"{page_path}: missing or empty")
    for name in a.png:
        path = os.path.join(a.dir, name)
        if not os.path.isfile(path):
            errors.append(f"{path}: missing")
            continue
        problem = check_png(path)
        if problem:
            errors.append(problem)
    for name in sorted(n for n in os.listdir(a.dir) if n.endswith(".png")):
        if f'src="{name}"' not in page:
            errors.append(f"index.html does not show {name}")
    for name in a.absent:
        if os.path.exists(os.path.join(a.dir, name)):
            errors.append(f"{name}: drawn, but its group is not in the file")
    for t in a.text:
        if t not in page:
            errors.append(f"index.html lacks {t!r}")
    for e in errors:
        print("check_report:", e)
    print(f"check_report: {a.dir}: {len(a.png)} PNGs expected, {len(errors)} problems")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
