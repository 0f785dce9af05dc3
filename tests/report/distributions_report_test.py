#!/usr/bin/python3
"""The report's distribution views (analysis/report_sections/distributions.py,
stream.py) on synthetic files (tests/report/synthetic_distributions.py):
12 and 5 nodes in one cohort with one flagged host (5: no spread
rule line), and 2,000 nodes in two
cohorts with three flagged hosts. From OUT/distributions.json: a picture
per metric and cohort, the flagged hosts labelled, the fraction and spread
thresholds as the flag rule gives them (each rule's per-node limits
against the node's peers, their median over the cohort: computed here
with numpy), the
nodes ordered by value at 12, the worst and best 20 at 2,000, and every
PNG under 300 KB. The 2,000-node report's time is printed, not asserted.
usage: distributions_report_test.py SOURCE_DIR WORK_DIR   (exit 77: no h5py/matplotlib)"""
import json
import math
import os
import shutil
import subprocess
import sys
import time

try:
    import h5py  # noqa: F401 - the generator needs it
    import matplotlib  # noqa: F401 - the report needs it
    import numpy as np
except ImportError:
    print("distributions_report_test: h5py, numpy or matplotlib missing: skipped")
    sys.exit(77)

SOURCE, WORK = sys.argv[1], sys.argv[2]
sys.path[:0] = [os.path.join(SOURCE, "tests", "report")]
from synthetic_distributions import write_file  # noqa: E402

MAX_PNG_BYTES = 300_000
METRICS = ["stream.triad[double]", "pmbw.scan_ram", "pmbw.perm_ram_latency"]
failures = []


def expect(condition, what):
    if not condition:
        failures.append(what)
        print("FAILED:", what)


def report(name, nodes, cohorts, flagged):
    path = os.path.join(WORK, name + ".h5")
    out = os.path.join(WORK, name)
    truth = write_file(path, nodes, cohorts, flagged)
    start = time.monotonic()
    run = subprocess.run([sys.executable, os.path.join(SOURCE, "analysis", "survey_report.py"), "-o", out, path],
                         capture_output=True, text=True)
    seconds = time.monotonic() - start
    expect(run.returncode == 0, f"{name}: survey_report exit {run.returncode}: {run.stderr.strip()[:300]}")
    with open(os.path.join(out, "distributions.json"), encoding="utf-8") as sidecar:
        entries = json.load(sidecar)
    return truth, entries, out, seconds


def rule_lines(rates, is_time, k=3.5, fraction=0.75):
    """(fraction line, spread line or None) in the metric's unit: per rule
    the median over the nodes of each node's own limit, judged against its
    peers without itself (lib/model/FlagRule.hpp, written again here)."""
    n = len(rates)
    mad = np.median(np.abs(rates - np.median(rates)))
    k_n = max(k - 3.2 / math.sqrt(n), k / 2)
    frac, spread = [], []
    for i in range(n):
        m = np.median(np.delete(rates, i))
        s = max(1.4826 * mad, 0.01 * m)
        frac.append(fraction * m)
        spread.append(min(m - k_n * s, 0.95 * m))
    as_unit = (lambda r: 1 / np.asarray(r)) if is_time else np.asarray
    return float(np.median(as_unit(frac))), (float(np.median(as_unit(spread))) if n >= 8 else None)


def metric_values(truth, metric, cohort):
    """(hosts, values, rates) of one cohort, as the generator wrote them."""
    column = {"stream.triad[double]": 1, "pmbw.scan_ram": 2, "pmbw.perm_ram_latency": 3}[metric]
    hosts = [h for h, t in truth.items() if t[0] == cohort]
    values = np.array([truth[h][column] for h in hosts])
    rates = 1 / values if metric == "pmbw.perm_ram_latency" else values
    return np.array(hosts), values, rates


def check(name, truth, entries, out, cohorts, flagged):
    cohort_texts = {0: "Synthetic CPU, 64 cores, 256 GiB", 1: "Synthetic CPU, 128 cores, 512 GiB"}
    for metric in METRICS:
        for c in range(cohorts):
            found = [e for e in entries if e["metric"] == metric and e["cohort"] == cohort_texts[c]]
            expect(len(found) == 1, f"{name}: one picture for {metric}, cohort {c} (found {len(found)})")
            if not found:
                continue
            e = found[0]
            png = os.path.join(out, e["image"])
            expect(os.path.isfile(png) and os.path.getsize(png) < MAX_PNG_BYTES,
                   f"{name}: {e['image']} exists and is under {MAX_PNG_BYTES} bytes")
            hosts, values, rates = metric_values(truth, metric, c)
            expect(e["nodes"] == len(hosts), f"{name} {metric} c{c}: {e['nodes']} nodes, expected {len(hosts)}")
            worst_first = list(hosts[np.argsort(rates, kind="stable")])
            fraction_line, spread_line = rule_lines(rates, metric == "pmbw.perm_ram_latency")
            expected_fraction = 100 * fraction_line / np.median(values)
            got = e["thresholds_percent"]["fraction"]
            expect(abs(got - expected_fraction) < 1e-3,
                   f"{name} {metric} c{c}: fraction line at {got}, expected {expected_fraction:.3f} %")
            if spread_line is None:  # the spread rule needs 8 nodes: no line
                expect("spread" not in e["thresholds_percent"], f"{name} {metric} c{c}: no spread line below 8")
                expected_spread = None
            else:
                expected_spread = 100 * spread_line / np.median(values)
            got = e["thresholds_percent"].get("spread")
            expect(expected_spread is None or (got is not None and abs(got - expected_spread) < 1e-3),
                   f"{name} {metric} c{c}: spread line {got}, expected {expected_spread} %")
            mine = [h for h in flagged if truth[h][0] == c] if metric == "stream.triad[double]" else []
            expect(sorted(e["flagged"]) == sorted(mine), f"{name} {metric} c{c}: flagged {e['flagged']} != {mine}")
            expect(set(mine) <= set(e["labelled"]), f"{name} {metric} c{c}: flagged hosts labelled")
            expect(worst_first[0] in e["labelled"], f"{name} {metric} c{c}: the lowest node labelled")
            if len(hosts) <= 300:
                expect(e["view"] == "strip" and e["order"] == worst_first,
                       f"{name} {metric} c{c}: strip ordered by value, worst first")
            else:
                expect(e["view"] == "worst_best" and e["worst"] == worst_first[:20] and e["best"] == worst_first[-20:],
                       f"{name} {metric} c{c}: worst and best 20")
                expect(len(e["leaves"]) > 0, f"{name} {metric} c{c}: per leaf switch view")


shutil.rmtree(WORK, ignore_errors=True)
os.makedirs(WORK)
truth, entries, out, seconds = report("n12", 12, 1, ["node00003"])
check("n12", truth, entries, out, 1, ["node00003"])
expect(len(entries) == 3, f"n12: 3 pictures (found {len(entries)})")
with open(os.path.join(out, "index.html"), encoding="utf-8") as page:
    expect("node00003" in page.read(), "n12: the flagged host named on the page")
print(f"12 nodes: {seconds:.2f} s")

truth, entries, out, seconds = report("n5", 5, 1, ["node00001"])
check("n5", truth, entries, out, 1, ["node00001"])

flagged = ["node00010", "node01500", "node01999"]
truth, entries, out, seconds = report("n2000", 2000, 2, flagged)
check("n2000", truth, entries, out, 2, flagged)
expect(len(entries) == 6, f"n2000: 6 pictures (found {len(entries)})")
sizes = [os.path.getsize(os.path.join(out, e["image"])) for e in entries]
print(f"2,000 nodes, 2 cohorts: {seconds:.2f} s for the report, PNGs {min(sizes)}..{max(sizes)} bytes")

if failures:
    print(f"{len(failures)} failed")
    sys.exit(1)
print("distributions_report_test: passed")
