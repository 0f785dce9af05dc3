#!/usr/bin/python3
"""The report page's order and its node table, on a real quick survey
(bwsurvey, one process) edited with h5py (four more nodes, a confirmed and
a not retested flag, a failed model check) and on a synthetic 2,000-node
copy (two cohorts, noise, flags):

  - <section id="bws-verdicts"> is the first thing after the title; it
    names the confirmed flag's node with its value in GB/s and its % of the
    cohort median as /flags holds them, the evidence (reason) and the
    retest; the failed check; "Nothing needs action" only when nothing does;
  - the cohort summary's nodes, median, MAD, min and max equal numpy's over
    the file's Triad values grouped by (cpu_model, cores, memory) here;
  - the node table (<tr> rows, or the JSON block above 500 nodes) holds
    every node once, with sortable <th data-sort> headers and the filter box;
  - nodes.csv parses with the csv module, unit-suffixed headers, its values
    equal the file's / 1e9;
  - index.html loads nothing from the network and stays < 2 MB at 2,000 nodes.
usage: report_page_test.py SOURCE_DIR WORK_DIR BWSURVEY   (exit 77: no h5py/matplotlib)"""
import csv
import html
import json
import os
import re
import shutil
import subprocess
import sys

try:
    import h5py
    import matplotlib  # noqa: F401 - the report draws with it
    import numpy as np
except ImportError:
    print("report_page_test: h5py, numpy or matplotlib missing: skipped")
    sys.exit(77)

REPORT = "analysis/survey_report.py"
TRIAD = "stream.triad[double]"
failures = []


def expect(condition, what):
    if not condition:
        failures.append(what)
        print("FAILED:", what)


def text(value):
    return value.decode() if isinstance(value, bytes) else str(value)


def replace_rows(dataset, rows):
    dataset.resize((len(rows),))
    dataset[...] = rows


def flag_row(dtype, host, value, median, status, reason, retest_median=float("nan"), metric=TRIAD):
    row = np.zeros((), dtype=dtype)
    row["host"], row["metric"], row["unit"], row["rule"] = host.encode(), metric.encode(), b"B/s", b"fraction"
    row["value"], row["median"], row["mad"], row["robust_z"] = value, median, 1e9, -9.0
    row["percent_of_median"], row["threshold"] = 100.0 * value / median, 0.75 * median
    row["reason"], row["status"], row["retest_median"] = reason.encode(), status.encode(), retest_median
    if status == "confirmed":
        row["retest_values"] = f"{retest_median:.6g}".encode()
    return row


def grow(path, hosts_gbs, models, flags, fail_check):
    """Replaces the file's nodes by hosts_gbs {host: Triad GB/s} (models:
    {host: cpu_model}); adds the flag rows and, when fail_check, fails one
    check as kind model."""
    with h5py.File(path, "r+") as f:
        nodes = f["nodes/table"][...]
        stream = f["stream/nodes"][...]
        first = stream["host"][0]
        template = stream[stream["host"] == first]
        new_nodes, new_stream = [], []
        for i, (host, gbs) in enumerate(hosts_gbs.items()):
            row = nodes[0].copy()
            row["host"], row["node_index"], row["cpu_model"] = host.encode(), i, models[host].encode()
            new_nodes.append(row)
            for s in template:
                s = s.copy()
                s["host"] = host.encode()
                if text(s["kernel"]) == "Triad" and text(s["type"]) == "double":
                    s["bandwidth"] = gbs * 1e9
                new_stream.append(s)
        replace_rows(f["nodes/table"], np.array(new_nodes, dtype=nodes.dtype))
        replace_rows(f["stream/nodes"], np.array(new_stream, dtype=stream.dtype))
        table = f["flags"]
        replace_rows(table, np.array([flag_row(table.dtype, *args) for args in flags], dtype=table.dtype))
        if fail_check:
            checks = f["checks"][...]
            checks[0]["passed"], checks[0]["kind"], checks[0]["check"] = 0, b"model", b"page.test_check"
            f["checks"][...] = checks


def report(source, survey, out):
    run = subprocess.run(["/usr/bin/python3", os.path.join(source, REPORT), "-o", out, survey],
                         capture_output=True, text=True, timeout=300)
    expect(run.returncode == 0, f"report of {survey} exits 0 (got {run.returncode}: {run.stderr.strip()[-300:]})")
    with open(os.path.join(out, "index.html"), encoding="utf-8") as f:
        return f.read()


def verdict_block(page):
    m = re.search(r"<body>\s*<h1>[^<]*</h1>\s*<section id=\"bws-verdicts\">(.*?)</section>", page, re.S)
    expect(m is not None, "the verdicts section comes right after the title")
    return m.group(1) if m else ""


def cohort_rows(page):
    """{(cohort id, metric): cells} of the cohort summary, and {label: id}."""
    summary = page[page.index("<h2>Cohort summary</h2>"):page.index("<h2>All nodes</h2>")]
    rows = [re.findall(r"<td>(.*?)</td>", r) for r in re.findall(r"<tr><td>.*?</tr>", summary)]
    stats = {(r[0], r[1]): r for r in rows if len(r) == 10}
    ids = {r[1].replace("&quot;", '"'): r[0] for r in rows if len(r) == 2}
    return stats, ids


def check_summary(page, survey, label_of):
    """The summary's figures against numpy's over the file's Triad double values."""
    with h5py.File(survey, "r") as f:
        stream = f["stream/nodes"][...]
        nodes = f["nodes/table"][...]
    klass = {text(r["host"]): label_of(r) for r in nodes}
    triad = stream[(stream["kernel"] == b"Triad") & (stream["type"] == b"double")]
    groups = {}
    for r in triad:
        groups.setdefault(klass[text(r["host"])], []).append(r["bandwidth"] / 1e9)
    stats, ids = cohort_rows(page)
    for label, values in groups.items():
        x = np.array(values)
        cohort = next((i for name, i in ids.items() if name.startswith(label + ", ")), None)  # "model, N cores, M GiB"
        expect(cohort is not None, f"the summary names cohort {label!r}")
        row = stats.get((cohort, TRIAD))
        expect(row is not None, f"the summary has {TRIAD} of {label!r}")
        if row is None:
            continue
        median = np.median(x)
        expect(int(row[2]) == len(x), f"{label}: {row[2]} nodes, expected {len(x)}")
        for column, want in ((3, median), (4, np.median(np.abs(x - median))), (6, x.min()), (7, x.max())):
            expect(abs(float(row[column]) - want) <= 0.006,
                   f"{label}: column {column} {row[column]}, expected {want:.3f}")
        expect(row[8] == "GB/s", f"{label}: unit {row[8]}")
    return groups


def node_table_rows(page):
    """The node table's rows: the JSON block when the page has one, else its <tr> rows."""
    m = re.search(r'<script type="application/json" id="bws-nodes-data">(.*?)</script>', page, re.S)
    if m:
        return json.loads(m.group(1)), True
    table = re.search(r'<table class="bws-sortable" id="bws-nodes"[^>]*>(.*?)</table>', page, re.S)
    expect(table is not None, "the page has the node table")
    body = table.group(1).split("<tbody>", 1)[1] if table else ""
    rows = [[html.unescape(c) for c in re.findall(r"<td>(.*?)</td>", r)] for r in re.findall(r"<tr.*?</tr>", body)]
    return rows, False


def check_common(page, out, hosts_gbs, large):
    head = re.search(r'<table class="bws-sortable" id="bws-nodes"[^>]*><thead><tr>(.*?)</tr></thead>', page, re.S)
    expect(head is not None and head.group(1).count('data-sort="num"') >= 2 and 'data-sort="text"' in head.group(1),
           "the node table's headers carry data-sort")
    expect('<input id="bws-nodes-filter"' in page, "the filter box is there")
    rows, in_json = node_table_rows(page)
    expect(in_json == large, f"node rows as JSON: {in_json}, expected {large}")
    hosts = [r[0] for r in rows]
    expect(sorted(hosts) == sorted(hosts_gbs), f"the node table holds every node once ({len(hosts)} rows)")
    table = page[page.index('id="bws-nodes"'):]
    table = table[:table.index("</table>")]
    expect(table.count("<tr") == 1 + (100 if large else len(hosts_gbs)), "no <tr> per node above the limit")
    expect(not re.search(r"https?://", page), "index.html names no http:// or https:// resource")
    expect(not re.search(r'(src|href)="//', page), "no protocol-relative resource")
    with open(os.path.join(out, "nodes.csv"), newline="", encoding="utf-8") as f:
        table = list(csv.DictReader(f))
    expect(len(table) == len(hosts_gbs), f"nodes.csv has {len(table)} rows, expected {len(hosts_gbs)}")
    column = TRIAD + "_GBps"
    expect(table and column in table[0] and TRIAD + "_percent_of_cohort_median" in table[0],
           f"nodes.csv headers carry units: {list(table[0]) if table else []}")
    for r in table:
        want = hosts_gbs.get(r["host"])
        expect(want is not None and abs(float(r.get(column) or "nan") - want) <= 1e-6 * want,
               f"nodes.csv {r['host']}: {r.get(column)} GB/s, expected {want}")
    expect('href="nodes.csv"' in page, "the page links nodes.csv")


def quick_case(source, work, bwsurvey):
    survey = os.path.join(work, "quick.h5")
    run = subprocess.run([bwsurvey, "--tests", "stream", "--quick", "--threads", "1", "--stream.elements", "1M",
                          "--out", survey], capture_output=True, text=True, timeout=120)
    if run.returncode != 0:
        expect(False, f"the quick survey exits 0 (got {run.returncode}: {run.stderr.strip()[-300:]})")
        return
    clean = report(source, survey, os.path.join(work, "clean"))
    block = verdict_block(clean)
    with h5py.File(survey, "r") as f:
        flags_rows = len(f["flags"]) if "flags" in f else -1
        failed = sum(1 for r in f["checks"][...] if not r["passed"] and text(r["kind"]) != "warning")
    if flags_rows == 0 and failed == 0:
        expect("Nothing needs action" in block, "a survey with no flag and no failed check says nothing needs action")

    edited = os.path.join(work, "edited.h5")
    shutil.copyfile(survey, edited)
    hosts_gbs = {"node1": 40.0, "node2": 41.0, "node3": 42.0, "node4": 43.0, "node5": 21.5}
    models = {h: "Test CPU" for h in hosts_gbs}
    grow(edited, hosts_gbs, models,
         [("node5", 21.5e9, 41.5e9, "confirmed", "below 0.75 x cohort median", 21.0e9),
          ("node4", 43.0e9, 41.0e9, "not retested", "a test row, never flagged by the rule"),
          ("node3", 20.0e9, 41.0e9, "not confirmed (transient)", "below 0.75 x cohort median", 41.5e9),
          ("node1->node2", 5.0e9, 20.0e9, "not retested", "node1->node2: 25 % of the sender's median", float("nan"),
           "links.pair")], True)
    out = os.path.join(work, "edited")
    page = report(source, edited, out)
    block = verdict_block(page)
    confirmed = block[block.index("Confirmed flags"):block.index("Flags not confirmed")] \
        if "Flags not confirmed" in block else ""
    expect("<td>node5</td>" in confirmed, "the confirmed flag names node5")
    expect("21.50 GB/s" in confirmed, "with its value in GB/s")
    expect(f"{100 * 21.5 / 41.5:.1f} %" in confirmed, "and its % of the cohort median")
    expect("below 0.75 x cohort median" in confirmed, "and the evidence")
    expect("confirmed; retests&#x27; median 21.00 GB/s" in confirmed, "and the retest")
    expect("<td>node4</td>" in block[block.index("Flags not confirmed"):] if "Flags not confirmed" in block else False,
           "the unconfirmed flag is listed after the confirmed one")
    expect("page.test_check" in block, "the failed model check is a verdict")
    # The first paragraph counts node5 and node4 (flags that stand), not
    # node3, whose one flag the retest dismissed: it is named apart.
    listed = re.search(r"Flagged nodes, (\d+) of \d+, worst first[^:]*: ([^<]*)", block)
    expect(listed is not None and listed.group(1) == "2" and "node3 (" not in listed.group(2),
           f"the flagged nodes are node5 and node4, not node3: {listed.group(0) if listed else None}")
    expect(re.search(r"whose every flag the retest dismissed \(not counted\): node3\.", block) is not None,
           "node3, its flag dismissed by the retest, is named apart")
    links = block[block.index("Link verdicts"):] if "Link verdicts" in block else ""
    expect("<td>node1-&gt;node2</td>" in links and "5.00 GB/s" in links and "25.0 %" in links,
           "the link verdict is listed apart, with its value and %")
    expect("node1-&gt;node2" not in block[:block.index("Link verdicts")] if links else False,
           "the link verdict is not among the node flags")
    expect("Nothing needs action" not in block, "no 'nothing needs action' with flags")
    expect(page.count("GiB/s") <= 1 or "pmbw" in page, "GiB/s only for pmbw's convention")
    check_summary(page, edited, lambda r: text(r["cpu_model"]))
    check_common(page, out, hosts_gbs, large=False)


def synthetic(src, path, count, seed=17):
    """count nodes in two cohorts (3/4 'Model A' near 200 GB/s, 1/4 'Model B'
    near 100 GB/s, 2 % noise), n0007 at half its cohort's bandwidth, flagged."""
    shutil.copyfile(src, path)
    rng = np.random.default_rng(seed)
    hosts = [f"n{i:05d}" for i in range(1, count + 1)]
    models = {h: ("Model A" if i < 3 * count // 4 else "Model B") for i, h in enumerate(hosts)}
    hosts_gbs = {h: float(np.round((200.0 if models[h] == "Model A" else 100.0) * rng.normal(1.0, 0.02), 6))
                 for h in hosts}
    hosts_gbs["n00007"] = 100.0
    grow(path, hosts_gbs, models, [("n00007", 100e9, 200e9, "confirmed", "below 0.75 x cohort median", 99e9),
                                   ("n00011", hosts_gbs["n00011"] * 1e9, 200e9, "not retested", "spread rule")], False)
    return hosts_gbs


def synthetic_case(source, work):
    src = os.path.join(work, "edited.h5")
    if not os.path.exists(src):
        return
    path = os.path.join(work, "synthetic-2000.h5")
    hosts_gbs = synthetic(src, path, 2000)
    out = os.path.join(work, "synthetic")
    page = report(source, path, out)
    block = verdict_block(page)
    expect("<td>n00007</td>" in block and "100.00 GB/s" in block and "50.0 %" in block,
           "the 2,000-node page's verdicts name n00007 at 100.00 GB/s, 50.0 %")
    check_summary(page, path, lambda r: text(r["cpu_model"]))
    check_common(page, out, hosts_gbs, large=True)
    size = os.path.getsize(os.path.join(out, "index.html"))
    print(f"index.html at 2,000 nodes: {size} bytes")
    expect(size < 2 << 20, f"index.html at 2,000 nodes is {size} bytes, expected < 2 MiB")


def main():
    source, work, bwsurvey = sys.argv[1:4]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    if shutil.which("node"):  # the inline script parses (a syntax error would break the table in every browser)
        run = subprocess.run(["node", "--check", os.path.join(source, "analysis/report_sections/node_table.js")],
                             capture_output=True, text=True)
        expect(run.returncode == 0, f"node_table.js parses: {run.stderr.strip()[:300]}")
    quick_case(source, work, bwsurvey)
    synthetic_case(source, work)
    if failures:
        print(f"{len(failures)} failure(s)")
        return 1
    print("report page: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
