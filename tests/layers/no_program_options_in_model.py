#!/usr/bin/env python3
"""Boost.Program_options stays in the option layer: no translation unit of
lib/model (the numerics: fits, flags, references, topology readers) reads a
Boost.Program_options header, directly or through a header of core/. The
headers each file read are the build's own dependency files (as for
build_cost.py), so an include three headers deep counts as much as one in
the file itself. Options reach lib/model as plain text (core/Config.hpp,
core/OptionText.hpp).

Usage: no_program_options_in_model.py BUILD_DIR
"""
import json
import os
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from build_cost import dependencies  # noqa: E402
from layer_report import finish  # noqa: E402

LAYER = "/lib/model/"
FORBIDDEN = "boost/program_options"


def main():
    build_dir = pathlib.Path(sys.argv[1])
    entries = json.loads((build_dir / "compile_commands.json").read_text())
    model = [e for e in entries if LAYER in os.path.normpath(e["file"])]
    problems = []
    if not model:
        problems.append(f"no translation unit of {LAYER} in {build_dir}/compile_commands.json")
    for entry in model:
        pulled = sorted({os.path.normpath(p) for p in dependencies(entry) if FORBIDDEN in str(p)})
        if pulled:
            problems.append(f"{entry['file']} reads {len(pulled)} Boost.Program_options header(s), "
                            f"e.g. {pulled[0]}")
    return finish(problems, f"ok: {len(model)} translation units of lib/model read no Boost.Program_options header",
                  "FAIL: ")


if __name__ == "__main__":
    sys.exit(main())
