#!/usr/bin/env python3
"""The build's cost, measured so that machine load cannot change it: the
lines of source the compiler reads for every translation unit in
compile_commands.json (the file and every header it includes, as the
build's own dependency files list them), summed. A header that pulls Boost,
HDF5 or <regex> into every file shows here long before it shows in a CI
timing. Fails when the sum is past the budget; prints the sum and the ten
largest translation units either way.

Why not the preprocessed lines (g++ -E): that runs the preprocessor again
for all 353 files, about 210 s of CPU on this machine; the dependency files are
there after the build and reading them takes about a second, and the lines
read track the preprocessed lines (a header added to a common header adds
to both for every file that includes it).

The budget is the figure measured when it was set plus about 8-10 %, for
the Release build (a Debug or sanitizer build reads the same headers).
When a change needs more, raise it here with the new figure, the date and
why.

Usage: build_cost.py BUILD_DIR [--budget LINES]
"""
import argparse
import functools
import json
import os
import pathlib
import shlex
import subprocess
import sys

# Measured 2025-11-27 on the Release test build (GCC 12, Debian 12):
# 347 translation units, 64,577,520 lines read. Then 65,492,801 (352
# units) before the headers that only name Boost.Program_options' classes
# took core/ProgramOptionsFwd.hpp instead of options_description.hpp
# (about 77,000 lines of Boost in each of 201 units); after: 353 units,
# 48,560,938 lines. The budget is that plus about 8 %.
# 2026-11-27: 383 units, 52,919,129 lines, after bwreport undrain and
# verdict (two command units of about 240,000 lines each: Boost's
# options_description and HDF5, as every command), the scheduler lines and
# the b_eff ring probe; the new tests were folded into existing test units
# (about 560,000 lines saved). Raised to that plus about 5 %.
BUDGET_LINES = 55_500_000


def object_path(entry):
    words = shlex.split(entry["command"]) if "command" in entry else list(entry["arguments"])
    return pathlib.Path(entry["directory"]) / words[words.index("-o") + 1], words


def dependencies_from_compiler(words, directory):
    """The headers listed by the compiler itself (-M), for a build whose
    generator keeps no dependency file beside the object (Ninja)."""
    kept, skip = [], False
    for word in words:
        if skip:
            skip = False
        elif word in ("-o", "-MF", "-MT", "-MQ"):
            skip = True
        elif word not in ("-c", "-MD", "-MMD"):
            kept.append(word)
    result = subprocess.run(kept + ["-M"], cwd=directory, stdout=subprocess.PIPE, check=True)
    return result.stdout.decode()


def dependencies(entry):
    obj, words = object_path(entry)
    depfile = pathlib.Path(str(obj) + ".d")
    text = depfile.read_text() if depfile.exists() else dependencies_from_compiler(words, entry["directory"])
    # Make syntax: "target: dep dep \", spaces in names escaped as "\ ".
    body = text.split(":", 1)[1].replace("\\\n", " ").replace("\\ ", "\0")
    return [pathlib.Path(entry["directory"], word.replace("\0", " ")) for word in body.split()]


@functools.lru_cache(maxsize=None)
def lines_of(path):
    with open(path, "rb") as f:
        return sum(chunk.count(b"\n") for chunk in iter(lambda: f.read(1 << 20), b""))


def lines_read(entry):
    return sum(lines_of(os.path.normpath(p)) for p in set(dependencies(entry)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build_dir", type=pathlib.Path)
    parser.add_argument("--budget", type=int, default=BUDGET_LINES)
    args = parser.parse_args()
    entries = json.loads((args.build_dir / "compile_commands.json").read_text())
    lines = [lines_read(entry) for entry in entries]
    total = sum(lines)
    source = pathlib.Path(__file__).resolve().parents[2]
    print(f"{len(entries)} translation units, {total:,} lines read (budget {args.budget:,})")
    print("the ten largest:")
    for count, entry in sorted(zip(lines, entries), key=lambda p: -p[0])[:10]:
        name = pathlib.Path(entry["file"])
        shown = name.relative_to(source) if name.is_relative_to(source) else name
        print(f"  {count:>9,}  {shown}")
    if total > args.budget:
        print(f"FAIL: {total:,} lines read is over the budget of {args.budget:,}: a header now "
              f"pulls in more than it did; see the largest files above")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
