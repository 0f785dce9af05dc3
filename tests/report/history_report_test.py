#!/usr/bin/python3
"""The Python side of the history archive: analysis/history_archive.py on a
small archive written with the schema of lib/history/ArchiveSchema.hpp
(tests/report/synthetic_archive.py) whose cohort medians and quartiles are
worked out by hand; analysis/history_plot.py (a valid PNG; unknown node or
metric, not an archive, a bad --changes file, a missing --out folder: exit 2,
one line, no file); and the report's History section on a real quick
survey (bwsurvey, one process) with a /flags row for its host, through
survey_report.py with a hand-written change-point TSV and through
`bwreport plot --history`.
usage: history_report_test.py SOURCE_DIR WORK_DIR BWSURVEY BWREPORT   (exit 77: no h5py/matplotlib)"""
import os
import shutil
import subprocess
import sys

try:
    import h5py
    import matplotlib  # noqa: F401 - the plot needs it
    import numpy as np
except ImportError:
    print("history_report_test: h5py, numpy or matplotlib missing: skipped")
    sys.exit(77)

SOURCE, WORK, BWSURVEY, BWREPORT = sys.argv[1:5]
sys.path[:0] = [os.path.join(SOURCE, "analysis"), os.path.join(SOURCE, "tests", "report"),
                os.path.join(SOURCE, "tests", "mpi")]
import history_archive as ha  # noqa: E402
from check_report import check_png  # noqa: E402
from synthetic_archive import make_archive  # noqa: E402

PYTHON = "/usr/bin/python3"
PLOT = os.path.join(SOURCE, "analysis", "history_plot.py")
REPORT = os.path.join(SOURCE, "analysis", "survey_report.py")
TRIAD = "stream.triad[double]"
METRICS = {TRIAD: ("B/s", True), "pmbw.latency": ("s", False)}
DAY = 86400
MARCH_1 = 1772323200  # 2026-03-01T00:00:00Z
HEADER = "host\tmetric\tchanged_utc\tsurvey_id\tchange_percent\tconfidence\tbefore\tafter\tunit\n"
failures = []


def expect(condition, what):
    if not condition:
        failures.append(what)
        print("FAILED:", what)


def series_surveys(hosts, target, extra_metrics=()):
    """Six daily surveys of cohort A: hosts[i] at (10 + i) GB/s; target
    (hosts[3]) drops to 9 GB/s and is flagged from the fourth survey on;
    hosts[1] has no valid value in the last; m1 (cohort B, 50 GB/s) must
    not enter A's figures. Latency (1 + i) us, never flagged."""
    surveys = []
    for k in range(6):
        values = {("m1", TRIAD): (50e9, "B", False)}
        for i, host in enumerate(hosts):
            value, flagged = (10 + i) * 1e9, False
            if host == target and k >= 3:
                value, flagged = 9e9, True
            if i == 1 and k == 5:
                value = None
            values[(host, TRIAD)] = (value, "A", flagged)
            values[(host, "pmbw.latency")] = ((1 + i) * 1e-6, "A", False)
            for m in extra_metrics:
                values[(host, m)] = (1e9 * (1 + i), "A", host == target)
        surveys.append((MARCH_1 + k * DAY, values))
    return surveys


def run(argv):
    return subprocess.run(argv, capture_output=True, text=True, timeout=120)


def test_series(archive):
    make_archive(SOURCE, archive, series_surveys(["n1", "n2", "n3", "n4"], "n4"), METRICS)
    conn = ha.open_archive(archive)
    s = ha.node_series(conn, "n4", TRIAD)
    # Cohort A per survey: {10,11,12,13}, then {9,10,11,12}, then {9,10,12}
    # (n2 not valid): median, 25th and 75th percentile (linear between ranks).
    expect(np.allclose(s.cohort_median, np.array([11.5, 11.5, 11.5, 10.5, 10.5, 10.0]) * 1e9),
           f"medians {s.cohort_median}")
    expect(np.allclose(s.cohort_q25, np.array([10.75, 10.75, 10.75, 9.75, 9.75, 9.5]) * 1e9), f"q25 {s.cohort_q25}")
    expect(np.allclose(s.cohort_q75, np.array([12.25, 12.25, 12.25, 11.25, 11.25, 11.0]) * 1e9), f"q75 {s.cohort_q75}")
    expect(list(s.cohort_count) == [4, 4, 4, 4, 4, 3], f"cohort counts {list(s.cohort_count)}")
    expect(list(s.flagged) == [False] * 3 + [True] * 3, f"flagged {list(s.flagged)}")
    expect(np.allclose(s.values, [13e9] * 3 + [9e9] * 3), f"values {s.values}")
    expect(s.started_utc[0] == "2026-03-01T00:00:00Z" and s.unit == "B/s", f"dates {s.started_utc[0]}, {s.unit}")
    n2 = ha.node_series(conn, "n2", TRIAD)
    expect(np.isnan(n2.values[-1]) and np.isfinite(n2.values[:-1]).all(), f"n2's invalid survey {n2.values}")
    expect(ha.extent(conn) == (6, "2026-03-01T00:00:00Z", "2026-03-06T00:00:00Z"), f"extent {ha.extent(conn)}")
    expect(ha.display_scale("s", [4e-6]) == (1e6, "µs") and ha.display_scale("B/s", [1e9]) == (1e-9, "GB/s"),
           "display units")
    for host, metric, word in (("zz", TRIAD, "--node"), ("n1", "nope", "--metric")):
        try:
            ha.node_series(conn, host, metric)
            expect(False, f"{host} {metric}: no error")
        except ha.ArchiveError as e:
            expect(str(e).startswith(word), f"{host} {metric}: {e}")
    conn.close()


def test_plot(archive, changes):
    out = os.path.join(WORK, "n4.png")
    r = run([PYTHON, PLOT, archive, "--node", "n4", "--changes", changes, "--out", out])
    expect(r.returncode == 0 and "2 panels" in r.stdout, f"plot n4: {r.returncode} {r.stdout} {r.stderr}")
    expect(os.path.isfile(out) and check_png(out) is None,
           f"n4.png: {check_png(out) if os.path.isfile(out) else 'none'}")
    one = os.path.join(WORK, "n4-latency.png")
    r = run([PYTHON, PLOT, archive, "--node", "n4", "--metric", "pmbw.latency", "--out", one])
    expect(r.returncode == 0 and "1 panels" in r.stdout and check_png(one) is None, f"latency plot: {r.stderr}")
    bad = os.path.join(WORK, "bad.png")
    not_tsv = os.path.join(WORK, "not.tsv")
    with open(not_tsv, "w") as f:
        f.write("a\tb\n")
    for argv, word in (([archive, "--node", "nobody"], "'nobody' is not in the archive"),
                       ([archive, "--node", "n1", "--metric", "nope"], "--metric"),
                       ([PLOT, "--node", "n1"], "not a history archive"),
                       ([archive, "--node", "n1", "--changes", not_tsv], "line 1 is not the header"),
                       ([archive, "--node", "n1", "--out", os.path.join(WORK, "no", "dir.png")], "--out")):
        r = run([PYTHON, PLOT] + argv + ([] if "--out" in argv else ["--out", bad]))
        lines = r.stderr.strip().splitlines()
        expect(r.returncode == 2 and len(lines) == 1 and word in lines[0],
               f"{argv[1:]}: exit {r.returncode}, stderr {r.stderr!r}")
        expect(not os.path.exists(bad), f"{argv[1:]}: wrote {bad}")


def quick_survey():
    """A real survey of this machine (STREAM, one process), with a /flags
    row for its host's Triad: (path, host)."""
    plain = os.path.join(WORK, "survey.h5")
    r = run([BWSURVEY, "--tests", "stream", "--quick", "--stream.elements", "1M", "--out", plain])
    if r.returncode != 0:
        expect(False, f"bwsurvey exited {r.returncode}: {(r.stdout + r.stderr)[-300:]}")
        return None, None
    flagged = os.path.join(WORK, "survey-flagged.h5")
    shutil.copyfile(plain, flagged)
    with h5py.File(flagged, "r+") as f:
        host = f["nodes/table"][0]["host"]
        row = np.zeros(1, dtype=f["flags"].dtype)
        row["host"], row["metric"], row["value"], row["unit"] = host, TRIAD.encode(), 9e9, b"B/s"
        del f["flags"]
        f.create_dataset("flags", data=row)
    return flagged, host.decode()


def test_section(survey, host):
    # The survey's host is n4 of the series above; the last survey is this file.
    archive = os.path.join(WORK, "with-survey.sqlite")
    make_archive(SOURCE, archive, series_surveys(["n1", "n2", "n3", host], host), METRICS,
                 sha256_of={5: ha.file_sha256(survey)})
    changes = os.path.join(WORK, "hand-changes.tsv")
    with open(changes, "w") as f:
        f.write(HEADER)
        f.write(f"{host}\tpmbw.latency\t2026-03-03T00:00:00Z\t3\t8.0\t0.9\t1e-6\t1.08e-6\ts\n")
        f.write(f"{host}\t{TRIAD}\t2026-03-04T00:00:00Z\t4\t-30.8\t0.99\t13e9\t9e9\tB/s\n")
        f.write(f"elsewhere\t{TRIAD}\t2026-03-04T00:00:00Z\t4\t-50.0\t0.99\t13e9\t6.5e9\tB/s\n")
    out = os.path.join(WORK, "report")
    r = run([PYTHON, REPORT, "-o", out, "--history", archive, "--history-changes", changes, survey])
    expect(r.returncode == 0, f"survey_report --history: {r.returncode} {r.stderr}")
    page = open(os.path.join(out, "index.html"), encoding="utf-8").read() if r.returncode == 0 else ""
    png = os.path.join(out, "history_flagged.png")
    expect(os.path.isfile(png) and check_png(png) is None, "history_flagged.png")
    expect("<h2>History</h2>" in page and "holds 6 surveys, from 2026-03-01T00:00:00Z to 2026-03-06T00:00:00Z" in page,
           "the archive's extent")
    expect("This survey is in it (survey id 6" in page, "this survey found by its sha256")
    expect(f"<td>{host}</td><td>{TRIAD}</td><td>2026-03-04T00:00:00Z</td><td>-30.8</td><td>0.990</td>" in page,
           "the change point row of the flagged host")
    expect(page.find("-30.8") < page.find("+8.0") and "+8.0" in page, "change points largest first")
    expect("elsewhere" not in page, "a change of a host not in this survey is left out")
    expect("history_flagged.png" in page, "the series picture on the page")

    # The same survey against an archive without it; 30 flagged metrics: 24 drawn.
    extra = [f"x.m{i:02d}" for i in range(30)]
    metrics = dict(METRICS, **{m: ("B/s", True) for m in extra})
    other = os.path.join(WORK, "without-survey.sqlite")
    make_archive(SOURCE, other, series_surveys(["n1", "n2", "n3", host], host, extra), metrics)
    many = os.path.join(WORK, "survey-many-flags.h5")
    shutil.copyfile(survey, many)
    with h5py.File(many, "r+") as f:
        rows = np.zeros(len(extra), dtype=f["flags"].dtype)
        rows["host"], rows["metric"] = host.encode(), [m.encode() for m in extra]
        del f["flags"]
        f.create_dataset("flags", data=rows)
    out2 = os.path.join(WORK, "report-many")
    r = run([PYTHON, REPORT, "-o", out2, "--history", other, many])
    page = open(os.path.join(out2, "index.html"), encoding="utf-8").read() if r.returncode == 0 else ""
    expect(r.returncode == 0 and "This survey is not in the archive" in page, f"not in the archive: {r.stderr}")
    expect("24 series drawn; 6 more flagged host-metric pairs left out" in page, "at most 24 series")
    expect("No history_changes.tsv" in page, "no change-point table without the TSV")

    # Through bwreport: --history passed on; a file that is not an archive: exit 2, no folder.
    out3 = os.path.join(WORK, "report-bwreport")
    r = run([BWREPORT, "plot", survey, "-o", out3, "--history", archive])
    page = open(os.path.join(out3, "index.html"), encoding="utf-8").read() if r.returncode == 0 else ""
    expect(r.returncode == 0 and "This survey is in it" in page and "history_flagged.png" in page,
           f"bwreport plot --history: {r.returncode} {r.stderr}")
    out4 = os.path.join(WORK, "report-not-archive")
    r = run([BWREPORT, "plot", survey, "-o", out4, "--history", survey])
    expect(r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and not os.path.exists(out4),
           f"bwreport plot --history on a survey file: {r.returncode} {r.stderr!r}")


def main():
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)
    archive = os.path.join(WORK, "series.sqlite")
    test_series(archive)
    changes = os.path.join(WORK, "changes.tsv")
    with open(changes, "w") as f:
        f.write(HEADER + f"n4\t{TRIAD}\t2026-03-04T00:00:00Z\t4\t-30.8\t0.99\t13e9\t9e9\tB/s\n")
    test_plot(archive, changes)
    survey, host = quick_survey()
    if survey:
        test_section(survey, host)
    if failures:
        print(f"history_report_test: {len(failures)} failures")
        return 1
    print("history_report_test: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
