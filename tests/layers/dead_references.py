#!/usr/bin/env python3
"""No dead references in the words: fails when docs/*.md, README.md or a
comment in the sources names a repository path that does not exist, says
"seed NNN" where it should name the paper or tool (McCalpin's STREAM,
HPCC_FPGA, Rabenseifner's b_eff, Chalmers & Warburton, Bingmann's pmbw,
Williams' roofline), cites a DESIGN.md (not in the repository: its rules
live in docs/ARCHITECTURE.md, docs/design-notes.md and docs/hdf5-schema.md),
or cites a section of a document ('docs/design-notes.md, "Layers"') that
no heading or bold paragraph lead of that document starts with.

A path is a word that starts with one of the repository's top folders
(lib/, apps/, docs/, tests/, ...), or with a folder of lib/ and names a
file in it (core/FileGuard.hpp, run/PhasePlan: the sources' short form).
It exists when the path itself, or the path with some extension
(lib/model/Roofline for Roofline.hpp), does. Words with placeholders
(<name>, *, {a,b}, ...) are patterns, not paths; NOT_PATHS are words of
other tools that look like paths.

Usage: dead_references.py SOURCE_DIR
"""
import functools
import pathlib
import re
import sys

from layer_report import finish

TOP_FOLDERS = ("lib", "apps", "docs", "tests", "scripts", "analysis", "jobs", "topology", "packaging", "bench",
               "cmake", ".ci")
PATH_WORD = re.compile(r"(?<![\w./-])((?:%s)/[\w./+-]*)" % "|".join(re.escape(f) for f in TOP_FOLDERS))
PATTERN_CHARS = re.compile(r"[<>*{}\[\]$]|\.\.\.")
NOT_PATHS = {"topology/tree"}  # Slurm's TopologyPlugin name
SEED_WORDING = re.compile(r"\bseeds? ?0\d\d\b", re.IGNORECASE)
DESIGN_CITATION = re.compile(r"\bDESIGN\.md\b")

SOURCE_SUFFIXES = {".cpp", ".hpp", ".h", ".c", ".cl", ".py", ".sh", ".cmake", ".txt", ".list", ".ini", ".yml",
                   ".yaml", ".in"}
SOURCE_FOLDERS = ("lib", "apps", "tests", "scripts", "analysis", "jobs", "topology", "packaging", "bench", "cmake",
                  ".ci")


def comment_text(path, text):
    """The comments of a source file (// and # lines, /* */ blocks), as one text."""
    if path.suffix in (".cpp", ".hpp", ".h", ".c", ".cl"):
        parts = re.findall(r"//[^\n]*|/\*.*?\*/", text, re.DOTALL)
    else:
        parts = re.findall(r"#[^\n]*", text)
        parts += re.findall(r'"""[\s\S]*?"""', text) if path.suffix == ".py" else []
    return "\n".join(parts)


SECTION_CITATION = re.compile(r"((?:docs/)?[\w-]+\.md),?\s*\(?\"([A-Za-z`][^\"|]{0,79})\"")
TITLE = re.compile(r"^#+\s+(.*)$|^-?\s*\*\*([^*]+?)\.?\*\*", re.MULTILINE)


def normal(text):
    return re.sub(r"[`*]", "", " ".join(text.split())).lower()


@functools.lru_cache(maxsize=None)
def titles_of(root, document):
    path = root / "docs" / pathlib.Path(document).name
    if not path.exists():
        path = root / document
    if not path.exists():
        return None
    return [normal(a or b) for a, b in TITLE.findall(path.read_text(errors="replace"))]


def section_problems(root, rel, text):
    """Citations of a document's section by its title, across line breaks."""
    joined = " ".join(re.sub(r"^\s*(?://+|#+|\*+)", "", line) for line in text.splitlines())
    found = []
    for document, title in SECTION_CITATION.findall(joined):
        titles = titles_of(root, document)
        if titles is not None and not any(t.startswith(normal(title)) for t in titles):
            found.append(f'{rel}: cites {document}, "{title}", which has no such section')
    return found


@functools.lru_cache(maxsize=None)
def exists(root, word):
    for base in (root, root / "lib"):
        target = base / word
        if target.exists() or (target.parent.is_dir() and any(target.parent.glob(target.name + ".*"))):
            return True
    return False


@functools.lru_cache(maxsize=None)
def lib_path_word(root):
    """lib's folders followed by a file name: core/FileGuard, stream/StreamDevice.hpp."""
    folders = sorted(p.name for p in (root / "lib").iterdir() if p.is_dir())
    return re.compile(r"(?<![\w./-])((?:%s)/[A-Z][\w.+-]*)" % "|".join(folders))


def path_words(root, line):
    yield from PATH_WORD.finditer(line)
    yield from lib_path_word(root).finditer(line)


def problems_in(root, rel, text):
    found = []
    for line in text.splitlines():
        for match in path_words(root, line):
            word = match.group(1).rstrip(".,:;)")
            rest = line[match.end():match.end() + 1]
            if word in NOT_PATHS or PATTERN_CHARS.search(word) or rest in ("<", "*", "{", "$") or word.endswith("/."):
                continue
            if not exists(root, word):
                found.append(f"{rel}: names {word}, which does not exist")
        if SEED_WORDING.search(line):
            found.append(f"{rel}: says '{SEED_WORDING.search(line).group(0)}': name the paper or tool")
        if DESIGN_CITATION.search(line):
            found.append(f"{rel}: cites DESIGN.md, which is not in the repository")
    return found + section_problems(root, rel, text)


def main():
    root = pathlib.Path(sys.argv[1]).resolve()
    problems = []
    docs = sorted(root.glob("docs/*.md")) + [root / "README.md"]
    for path in docs:
        problems += problems_in(root, path.relative_to(root), path.read_text(errors="replace"))
    sources = [root / "CMakeLists.txt"]
    for folder in SOURCE_FOLDERS:
        sources += [p for p in sorted((root / folder).rglob("*"))
                    if p.is_file() and (p.suffix in SOURCE_SUFFIXES or p.name == "CMakeLists.txt")]
    this_file = pathlib.Path(__file__).resolve()
    for path in sources:
        if path.resolve() == this_file:
            continue
        text = comment_text(path, path.read_text(errors="replace"))
        problems += problems_in(root, path.relative_to(root), text)
    return finish(problems, f"ok: {len(docs)} documents and {len(sources)} source files name only paths that exist",
                  prefix="FAIL: ")


if __name__ == "__main__":
    sys.exit(main())
