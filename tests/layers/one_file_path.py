#!/usr/bin/env python3
"""One way in, one way out: fails when a file is opened for writing, removed
or renamed anywhere but in the modules that guard it, or when text reaches
the terminal past the one printable-text path.

The guarded modules (each says why it writes where it does):
  lib/core/FileGuard.cpp      every output: scratch file beside it, renamed into place
  lib/core/FileLock.cpp       the survey file's lock file
  lib/core/SideFile.cpp       side files appended phase by phase beside the survey file
  lib/h5/JournalDriver.cpp    the survey file itself, written through its journal
  lib/h5/ResultFile.cpp       creates the survey file at the path FileGuard checked
  lib/history/Sqlite.cpp      the history archive (SQLite's own journal)
  analysis/file_guard.py      the Python report's twin of FileGuard

Usage: one_file_path.py SOURCE_DIR
"""
import pathlib
import re
import sys

ALLOWED_WRITERS = {
    "lib/core/FileGuard.cpp",
    "lib/core/FileLock.cpp",
    "lib/core/SideFile.cpp",
    "lib/core/SideFile.hpp",
    "lib/h5/JournalDriver.cpp",
    "lib/h5/ResultFile.cpp",
    "lib/history/Sqlite.cpp",
    "analysis/file_guard.py",
}

CPP_WRITES = re.compile(
    r"\bofstream\b|\bstd::fstream\b|\bfopen\s*\(|\bO_WRONLY\b|\bO_RDWR\b|\bO_CREAT\b|\bH5Fcreate\b|"
    r"\bH5F_ACC_RDWR\b|\bH5F_ACC_TRUNC\b|\bsqlite3_open|\bmkstemp|\bmkdtemp|"
    r"(?:fs|filesystem)::(?:rename|remove|remove_all|copy_file|copy|create_symlink|resize_file)\b|"
    r"(?<![\w.])(?:std::|::)?(?:rename|unlink|remove)\s*\(\s*[\w.]+\.c_str\(\)")
PY_WRITES = re.compile(
    r"""open\([^)]*['"][wax]b?\+?['"]|\.savefig\(|\.write_text\(|\.write_bytes\(|"""
    r"""os\.(?:replace|rename|remove|unlink|mkfifo)\(|shutil\.(?:copy|copyfile|move|rmtree)""")
# std::cout and std::cerr pass the terminal filter that main() installs
# first (bws::guard_terminal_streams); C stdio and raw writes would bypass it.
CPP_PRINTS = re.compile(r"(?<![sn\w])printf\s*\(|\bputs\s*\(|\bfprintf\s*\(|\bfputs\s*\(|\bfwrite\s*\(|"
                        r"\bwrite\s*\(\s*(?:1|2|STDOUT_FILENO|STDERR_FILENO)\s*,")


def code_lines(path):
    """The lines of a source file without comments (// and #, and docstrings roughly)."""
    comment = "#" if path.suffix == ".py" else "//"
    for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
        stripped = line.strip()
        if (stripped.startswith(comment) or stripped.startswith("*") or stripped.startswith("/*")
                or stripped.startswith("#include")):
            continue
        if comment == "//" and "//" in line:
            line = line[: line.index("//")]
        yield number, line


def main():
    root = pathlib.Path(sys.argv[1])
    problems = []
    sources = [p for d in ("lib", "apps", "topology") for p in (root / d).rglob("*") if p.suffix in (".cpp", ".hpp")]
    sources += list((root / "analysis").rglob("*.py"))
    for path in sorted(sources):
        rel = path.relative_to(root).as_posix()
        writes = PY_WRITES if path.suffix == ".py" else CPP_WRITES
        for number, line in code_lines(path):
            if rel not in ALLOWED_WRITERS and writes.search(line):
                problems.append(f"{rel}:{number}: writes a file outside the guarded modules: {line.strip()}")
            if path.suffix != ".py" and CPP_PRINTS.search(line):
                problems.append(f"{rel}:{number}: prints past the terminal filter (use a C++ stream): "
                                f"{line.strip()}")
    for app in ("apps/bwsurvey.cpp", "apps/bwreport.cpp"):
        text = (root / app).read_text()
        main_at = text.find("int main(")
        if main_at < 0 or "guard_terminal_streams()" not in text[main_at:main_at + 400]:
            problems.append(f"{app}: main() does not begin with bws::guard_terminal_streams()")
    for p in problems:
        print(p)
    print(f"{len(sources)} files read, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
