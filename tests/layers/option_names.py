#!/usr/bin/python3
"""No benchmark option is named by a retyped string outside its schema.

A benchmark's options are declared once, in its *Options.cpp, with the
core's option builders (whole_option("stream.reps", ...), .alias("stream.ntimes"));
code elsewhere names an option through the typed struct
(o.flag(&StreamOptions::reps), o.defaulted(&StreamOptions::reps),
schema.name_of(&StreamOptions::elements)), so a renamed option cannot leave
a stale copy behind. This test collects every declared name (and old name)
from lib/ and apps/, then reads every string literal of every C++ source
there (comments skipped) and fails, naming file:line, on a literal that is
an option name ("stream.reps") or mentions one as a flag ("--links.max-time")
in a file other than the one that declares it. A line may say why a
literal that reads like an option is not one ("beff.model" is also a check's
name) with the comment "option-name-ok".

Names still retyped when this test came are listed, as "path option", in
option_names_known.txt beside it: they are to go, the list only shrinks (an
entry no longer found fails too, so that it is taken off).

usage: option_names.py SOURCE_DIR
"""
import os
import re
import sys

BUILDERS = r"(?:whole|bytes|bytes_list|real|one_of|list|flag|text)_option"
DECLARED = re.compile(BUILDERS + r'\(\s*"([a-z0-9-]+\.[a-z0-9.-]+)"')
ALIAS = re.compile(r'\.alias\(\s*"([a-z0-9-]+\.[a-z0-9.-]+)"')
SOURCE_SUFFIXES = (".cpp", ".hpp", ".cpp.in", ".hpp.in")


def literals(text):
    """(line, literal) of every string literal, comments skipped."""
    out, i, line, n = [], 0, 1, len(text)
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            line += text.count("\n", i, j)
            i = j
        elif text.startswith('R"', i):  # a raw string: R"delim( ... )delim"
            open_paren = text.find("(", i)
            delim = text[i + 2:open_paren]
            j = text.find(")" + delim + '"', open_paren)
            j = n if j < 0 else j
            out.append((line, text[open_paren + 1:j]))
            line += text.count("\n", i, j)
            i = j + len(delim) + 2
        elif c == '"' or c == "'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            if c == '"':
                out.append((line, text[i + 1:j]))
            i = j + 1
        else:
            i += 1
    return out


def sources(root):
    for top in ("lib", "apps"):
        for folder, _, names in os.walk(os.path.join(root, top)):
            for name in sorted(names):
                if name.endswith(SOURCE_SUFFIXES):
                    yield os.path.join(folder, name)


def main(root):
    texts = {}
    for path in sources(root):
        with open(path, encoding="utf-8", errors="replace") as f:
            texts[os.path.relpath(path, root)] = f.read()
    declared_in = {}  # option name -> the files that declare it
    for path, text in texts.items():
        for pattern in (DECLARED, ALIAS):
            for name in pattern.findall(text):
                declared_in.setdefault(name, set()).add(path)
    if len(declared_in) < 20:
        print(f"option_names.py: only {len(declared_in)} options found in {root}: the pattern no longer matches")
        return 1
    mention = re.compile(r"(?:^|--)(" + "|".join(re.escape(n) for n in sorted(declared_in, key=len, reverse=True))
                         + r")(?![A-Za-z0-9.-])")
    known_path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "option_names_known.txt")
    with open(known_path, encoding="utf-8") as f:
        known = {tuple(l.split()) for l in f if l.strip() and not l.startswith("#")}
    found_known = set()
    bad = []
    for path, text in sorted(texts.items()):
        lines = text.split("\n")
        for line, literal in literals(text):
            if "option-name-ok" in lines[line - 1]:
                continue
            for m in mention.finditer(literal):
                # the literal is the name itself, or names it as a flag
                whole = m.start() == 0 and m.end() == len(literal) and not literal.startswith("--")
                if not (whole or literal[m.start():].startswith("--")):
                    continue
                if path in declared_in[m.group(1)]:
                    continue
                if (path, m.group(1)) in known:
                    found_known.add((path, m.group(1)))
                else:
                    bad.append(f"{path}:{line}: \"{literal}\" names the option {m.group(1)}, declared in "
                               f"{', '.join(sorted(declared_in[m.group(1)]))}")
    for path, name in sorted(known - found_known):
        bad.append(f"{path}: {name} is no longer retyped there: take it off {os.path.basename(known_path)}")
    for b in bad:
        print(b)
    if bad:
        print(f"{len(bad)} retyped option names: name the option through its field "
              "(o.flag(&X::field), o.defaulted(&X::field), schema.name_of(&X::field))")
        return 1
    print(f"option_names.py: {len(declared_in)} declared options, no new retyped name in lib/ or apps/ "
          f"({len(known)} known ones left to remove)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "."))
