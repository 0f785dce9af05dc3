#!/usr/bin/python3
"""The report's files in and out (analysis/file_guard.py).

    report_file_guard_test.py SOURCE WORKDIR [BWREPORT]

file_guard itself: an input that is a FIFO is refused without opening it;
an output name in the report's folder that is a symbolic link, a FIFO or
a folder, or that is an input (a hard link), is refused; a report that
fails leaves the folder as it was and removes the folders it made.

survey_report.py on a small survey made here with h5py (one node table in
B/s: one PNG): a symbolic link in OUT named like an output (index.html, the
PNG) pointing at the survey is refused with exit 2 and one line, the survey
byte-identical and the link as it was (a link is never replaced: the user
put it there); a good run replaces an earlier report's files. With BWREPORT:
`bwreport plot -o DIR --history DIR/history_changes.tsv` (the archive
itself) exits 2 and the archive is byte-identical."""
import hashlib
import os
import shutil
import subprocess
import sys

SOURCE, WORK = sys.argv[1], sys.argv[2]
BWREPORT = sys.argv[3] if len(sys.argv) > 3 else None
PYTHON = "/usr/bin/python3"
REPORT = os.path.join(SOURCE, "analysis", "survey_report.py")
sys.path[:0] = [os.path.join(SOURCE, "analysis")]

import file_guard  # noqa: E402

failures = []


def expect(condition, what):
    if not condition:
        failures.append(what)
        print(f"FAILED: {what}", file=sys.stderr)


def sha(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def refused(action, needle):
    try:
        action()
    except file_guard.UsageError as e:
        return needle in str(e) and "\n" not in str(e)
    return False


def leftovers(directory):
    return [n for n in os.listdir(directory) if n.startswith(".bwsurvey-report.")]


def test_guard():
    base = os.path.join(WORK, "guard")
    os.makedirs(base)
    fifo = os.path.join(base, "fifo")
    os.mkfifo(fifo)
    survey = os.path.join(base, "survey.h5")
    with open(survey, "wb") as f:
        f.write(b"\x89HDF\r\n\x1a\nsurvey")
    expect(refused(lambda: file_guard.read_input("FILE", fifo), "a FIFO"), "a FIFO input is refused (not opened)")
    expect(refused(lambda: file_guard.require_regular_input("FILE", base), "a directory"), "a folder input")

    out = os.path.join(base, "out")
    os.makedirs(out)
    os.symlink(survey, os.path.join(out, "index.html"))
    os.mkfifo(os.path.join(out, "a.png"))
    os.mkdir(os.path.join(out, "nodes.csv"))
    os.link(survey, os.path.join(out, "plots.json"))
    with open(os.path.join(out, "user.txt"), "wb") as f:
        f.write(b"\0binary of the user")
    guard = file_guard.OutputDirectory(out, [survey])
    for name, needle in (("index.html", "a symbolic link"), ("a.png", "a FIFO"), ("nodes.csv", "a directory"),
                         ("plots.json", "inputs"), ("user.txt", "not a text file")):
        expect(refused(lambda: guard.path(name), needle), f"OUT/{name}: refused ({needle})")
    guard.put_text("new.html", "page")
    expect(not os.path.exists(os.path.join(out, "new.html")), "nothing in OUT before commit")
    guard.commit()
    expect(open(os.path.join(out, "new.html")).read() == "page", "commit puts the file in place")
    expect(not leftovers(out) and os.path.islink(os.path.join(out, "index.html")), "commit leaves no scratch")

    made = os.path.join(base, "made", "deeper")
    guard = file_guard.OutputDirectory(made, [survey])
    guard.put_text("index.html", "half")
    guard.discard()
    expect(not os.path.exists(os.path.join(base, "made")), "a discarded report removes the folders it made")

    target = os.path.join(out, "link.png")
    os.symlink(survey, target)
    expect(refused(lambda: file_guard.write_file(target, b"png", [survey]), "a symbolic link"),
           "write_file refuses a link")
    expect(sha(survey) == hashlib.sha256(b"\x89HDF\r\n\x1a\nsurvey").hexdigest(), "the survey is as it was")
    single = os.path.join(out, "single.png")
    file_guard.write_file(single, b"\x89PNG\r\n\x1a\n", [survey])
    file_guard.write_file(single, b"\x89PNG\r\n\x1a\nagain", [survey])
    expect(open(single, "rb").read().endswith(b"again"), "write_file replaces its own PNG")


def small_survey(path):
    import h5py
    import numpy as np
    with h5py.File(path, "w") as f:
        for key, value in (("schema_version", "2.0"), ("tool_version", "test"), ("status", "complete"),
                           ("created_utc", "2025-01-31T12:00:00Z")):
            f.attrs[key] = value
        f.attrs["n_nodes"], f.attrs["n_ranks"] = np.int64(2), np.int64(2)
        rows = np.array([(b"n1", 1e10), (b"n2", 2e10)], dtype=[("host", "S16"), ("rate", "<f8")])
        f.create_dataset("toy/nodes", data=rows).attrs["column_units"] = np.array([b"", b"B/s"])


def report(out, *files, program=None):
    command = [program, "plot", *files, "-o", out] if program else [PYTHON, REPORT, "-o", out, *files]
    return subprocess.run(command, capture_output=True, text=True, errors="replace")


def test_report():
    base = os.path.join(WORK, "report")
    os.makedirs(base)
    survey = os.path.join(base, "survey.h5")
    small_survey(survey)
    digest = sha(survey)
    for name in ("index.html", "toy_nodes_rate.png"):
        out = os.path.join(base, "with-" + name)
        os.makedirs(out)
        os.symlink(survey, os.path.join(out, name))
        r = report(out, survey)
        expect(r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and "symbolic link" in r.stderr
               and r.stdout == "", f"OUT/{name} a link to the survey: exit {r.returncode} {r.stderr!r}")
        expect(sha(survey) == digest, f"OUT/{name} a link: the survey is byte-identical")
        expect(sorted(os.listdir(out)) == [name] and os.readlink(os.path.join(out, name)) == survey,
               f"OUT/{name} a link: OUT as it was: {os.listdir(out)}")

    out = os.path.join(base, "good")
    r = report(out, survey)
    expect(r.returncode == 0 and sorted(os.listdir(out)) == ["index.html", "toy_nodes_rate.png"],
           f"a good report: {r.returncode} {r.stderr} {os.listdir(out) if os.path.isdir(out) else None}")
    with open(os.path.join(out, "index.html"), "w") as f:
        f.write("an earlier report")
    r = report(out, survey)
    expect(r.returncode == 0 and "an earlier report" not in open(os.path.join(out, "index.html")).read(),
           "an earlier report's page is replaced")

    if BWREPORT:
        out = os.path.join(base, "history")
        os.makedirs(out)
        archive = os.path.join(out, "history_changes.tsv")
        with open(archive, "wb") as f:
            f.write(b"SQLite format 3\0years of surveys")
        before = sha(archive)
        r = subprocess.run([BWREPORT, "plot", survey, "-o", out, "--history", archive], capture_output=True, text=True)
        expect(r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and r.stdout == "",
               f"plot --history DIR/history_changes.tsv: exit {r.returncode} {r.stderr!r}")
        expect(sha(archive) == before and os.listdir(out) == ["history_changes.tsv"],
               "the archive in DIR is byte-identical and alone")


def main():
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)
    test_guard()
    try:
        import h5py  # noqa: F401
        import matplotlib  # noqa: F401
    except ImportError:
        print("h5py or matplotlib missing: the report part is skipped")
        return 77 if not failures else 1
    test_report()
    if failures:
        print(f"{len(failures)} failed", file=sys.stderr)
        return 1
    print("report file guard OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
