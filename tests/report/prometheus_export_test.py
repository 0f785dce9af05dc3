#!/usr/bin/python3
"""bwreport export --prometheus, tested for real on a quick survey (2 ranks)
and on a copy edited with h5py: three more hosts (one named with a quote,
one with a backslash), a CPU model with both (the cohort label), a float
Triad group, a NaN value (left out), a confirmed and a dismissed
(transient) flag, and a Slurm job id.

  promtool:      `promtool check metrics` accepts both outputs (exit 0,
                 nothing on stderr: its lint problems go there), and every
                 sample equals the value read from the HDF5 file with h5py.
  node-exporter: prometheus-node-exporter with only the textfile collector
                 on a temporary directory, bound to 127.0.0.1 and an unused
                 port, serves the gauges with the same values and labels,
                 and node_textfile_scrape_error is 0. A file written with
                 --prometheus-timestamps is what it refuses (scrape error 1).

usage: prometheus_export_test.py promtool|node-exporter MPIRUN BWSURVEY BWREPORT WORKDIR
Exit 77 (skipped) when promtool or prometheus-node-exporter is not installed."""
import calendar
import json
import math
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request

import h5py
import numpy as np

SKIP = 77
SAMPLE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)(?: (\S+))?$')
LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)",?')
TRIAD = "bwsurvey_stream_triad_bytes_per_second"


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def unescape(value):
    return re.sub(r'\\(.)', lambda m: {"n": "\n", "\\": "\\", '"': '"'}[m.group(1)], value)


def parse(text):
    """{(name, frozenset(labels)): (value, timestamp or None)} plus {name: type}."""
    samples, types = {}, {}
    for line in text.splitlines():
        if line.startswith("# TYPE "):
            _, _, name, kind = line.split(" ", 3)
            types[name] = kind
            continue
        if not line or line.startswith("#"):
            continue
        m = SAMPLE.match(line)
        if not m:
            fail("unparsable line: " + line)
        labels = frozenset((k, unescape(v)) for k, v in LABEL.findall(m.group(2) or ""))
        key = (m.group(1), labels)
        if key in samples:
            fail("duplicate sample: " + line)
        samples[key] = (float(m.group(3)), m.group(4))
    return samples, types


def text(value):
    return value.decode() if isinstance(value, bytes) else str(value)


def make_survey(mpirun, bwsurvey, work):
    path = os.path.join(work, "survey.h5")
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    run = subprocess.run([mpirun, "-np", "2", "--oversubscribe", bwsurvey, "--tests", "stream", "--quick", "--threads",
                          "1", "--stream.elements", "1M", "--out", path], env=env, capture_output=True, text=True)
    if run.returncode != 0:
        fail("the survey exited %d: %s" % (run.returncode, run.stderr[-2000:]))
    return path


def replace_rows(dataset, rows):
    """Puts `rows` (a structured array) in place of the dataset's, keeping its attributes."""
    dataset.resize((len(rows),))
    dataset[...] = rows


def make_synthetic(src, work):
    """A copy with hosts whose names need escaping, a float group, a NaN, two flags and a job id."""
    dst = os.path.join(work, "synthetic.h5")
    shutil.copyfile(src, dst)
    with h5py.File(dst, "r+") as f:
        nodes = f["stream/nodes"][...]
        first = nodes["host"][0]
        extra = []
        for number, host in enumerate([b'n"quote', b"n\\back", b"n4"]):
            for row in nodes[nodes["host"] == first]:
                row = row.copy()
                row["host"] = host
                row["bandwidth"] = row["bandwidth"] * (0.5 + 0.25 * number)
                extra.append(row)
        for row in nodes[(nodes["host"] == first) & (nodes["kernel"] == b"Triad")]:
            row = row.copy()
            row["type"] = b"float"
            row["bandwidth"] = 12345.5
            extra.append(row)
            nan_row = row.copy()
            nan_row["host"], nan_row["bandwidth"] = b"n-nan", float("nan")
            extra.append(nan_row)
        replace_rows(f["stream/nodes"], np.concatenate([nodes, np.array(extra, dtype=nodes.dtype)]))
        table = f["nodes/table"][...]
        copies = []
        for host in (b'n"quote', b"n\\back"):
            row = table[0].copy()
            row["host"] = host
            row["cpu_model"] = b'ACME "Fast" \\ CPU'
            copies.append(row)
        replace_rows(f["nodes/table"], np.concatenate([table, np.array(copies, dtype=table.dtype)]))
        flags = f["flags"]
        rows = np.zeros(2, dtype=flags.dtype)
        rows["host"] = [b"n\\back", b'n"quote']
        rows["metric"] = [b"stream.triad[double]", b"stream.triad[double]"]
        rows["status"] = [b"confirmed", b"not confirmed (transient)"]
        replace_rows(flags, rows)
        f["provenance"].attrs["slurm_job_id"] = '12"34'
    return dst


def expected_samples(path):
    """The gauges the file should give, read with h5py alone."""
    with h5py.File(path, "r") as f:
        attrs = {k: text(v) for k, v in f.attrs.items()}
        cpu = {text(r["host"]): text(r["cpu_model"]) for r in f["nodes/table"][...]}
        memory = {text(r["host"]): (int(r["cores"]), int(r["memory_bytes"])) for r in f["nodes/table"][...]}
        triad = {}
        for r in f["stream/nodes"][...]:
            if r["kernel"] == b"Triad" and r["backend"] == b"cpu" and math.isfinite(r["bandwidth"]):
                key = (text(r["host"]), text(r["type"]))
                triad[key] = triad.get(key, 0.0) + float(r["bandwidth"])
        flags = {(text(r["host"]), text(r["metric"])): text(r["status"]) for r in f["flags"][...]}
        job = text(f["provenance"].attrs.get("slurm_job_id", ""))
    expected = {}
    for (host, group), value in triad.items():
        labels = {("host", host), ("group", group)}
        expected[(TRIAD, frozenset(labels))] = value
        flag = flags.get((host, "stream.triad[" + group + "]"))
        expected[("bwsurvey_flagged", frozenset({("host", host), ("metric", "stream.triad[" + group + "]")}))] = \
            1.0 if flag in ("confirmed", "not retested") else 0.0
    expected[("bwsurvey_survey_info", frozenset({("job_id", job), ("version", attrs["tool_version"]),
                                                  ("commit", attrs["git_commit"])}))] = 1.0
    start = calendar.timegm(time.strptime(attrs["created_utc"], "%Y-%m-%dT%H:%M:%SZ"))
    expected[("bwsurvey_survey_start_time_seconds", frozenset())] = float(start)
    return expected, cpu, memory, start


def check_against_file(samples, path, where):
    """Every expected gauge is there with its value (the cohort label is
    checked to hold the host's CPU model); nothing else of bwsurvey's."""
    expected, cpu, _, _ = expected_samples(path)
    found = {}
    for (name, labels), (value, _) in samples.items():
        if not name.startswith("bwsurvey_"):
            continue
        d = dict(labels)
        if name == TRIAD:
            if d.get("host") not in cpu and d.get("cohort") != "unknown hardware":
                fail("%s: %s: a host without /nodes/table not in 'unknown hardware': %s" % (where, name, d))
            if d.get("host") in cpu and not d.get("cohort", "").startswith(cpu[d["host"]]):
                fail("%s: cohort %r of %s does not start with its CPU model %r" % (where, d.get("cohort"), d["host"],
                                                                                     cpu[d["host"]]))
            labels = frozenset((k, v) for k, v in labels if k != "cohort")
        found[(name, labels)] = value
    for key, value in expected.items():
        if key not in found:
            fail("%s: no sample %s %s; got %s" % (where, key[0], dict(key[1]), sorted(found)))
        if not math.isclose(found[key], value, rel_tol=1e-12):
            fail("%s: %s %s is %r, the file says %r" % (where, key[0], dict(key[1]), found[key], value))
    extra = set(found) - set(expected)
    if extra:
        fail("%s: samples the file does not have: %s" % (where, sorted(extra)))
    return len(expected)


def export(bwreport, path, *options):
    run = subprocess.run([bwreport, "export", "--prometheus", path, *options], capture_output=True)
    if run.returncode != 0:
        fail("bwreport export --prometheus %s exited %d: %s" % (path, run.returncode, run.stderr.decode()))
    return run.stdout.decode("utf-8")


def check_usage_errors(bwreport, path):
    """Conflicting options: exit 2, one stderr line naming the option, nothing on stdout."""
    for options, needle in ((["--prometheus", "--csv"], "--prometheus"),
                            (["--csv", "--prometheus-timestamps"], "--prometheus-timestamps"),
                            (["--prometheus", "--dir", "x"], "--dir"),
                            (["--prometheus", "--table", "flags"], "--table")):
        run = subprocess.run([bwreport, "export", *options, path], capture_output=True, text=True)
        if run.returncode != 2 or run.stdout or run.stderr.count("\n") != 1 or needle not in run.stderr:
            fail("export %s: exit %d, stdout %r, stderr %r" % (" ".join(options), run.returncode, run.stdout[:200],
                                                               run.stderr))


def check_promtool(bwreport, files):
    promtool = shutil.which("promtool")
    if not promtool:
        print("SKIP: promtool is not installed (Debian package prometheus; scripts/install-deps.sh)")
        sys.exit(SKIP)
    for path in files:
        output = export(bwreport, path)
        check = subprocess.run([promtool, "check", "metrics"], input=output.encode(), capture_output=True)
        if check.returncode != 0 or check.stderr.strip() or check.stdout.strip():
            fail("promtool check metrics on %s: exit %d: %s%s" % (path, check.returncode, check.stdout.decode(),
                                                                 check.stderr.decode()))
        samples, types = parse(output)
        for name in {n for n, _ in samples}:
            if types.get(name) != "gauge":
                fail("%s is not declared a gauge" % name)
        if any(stamp is not None for stamp, in [(v[1],) for v in samples.values()]):
            fail("samples carry timestamps without --prometheus-timestamps")
        n = check_against_file(samples, path, os.path.basename(path))
        # With timestamps: every sample at the survey's start, in ms.
        stamped = export(bwreport, path, "--prometheus-timestamps")
        check = subprocess.run([promtool, "check", "metrics"], input=stamped.encode(), capture_output=True)
        if check.returncode != 0 or check.stderr.strip():
            fail("promtool on the timestamped output: " + check.stderr.decode())
        start_ms = str(expected_samples(path)[3] * 1000)
        if {v[1] for v in parse(stamped)[0].values()} != {start_ms}:
            fail("--prometheus-timestamps: timestamps are not all %s" % start_ms)
        print("promtool accepts %s: %d gauges equal to the file's values" % (os.path.basename(path), n))


REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def check_contrib(bwreport, survey):
    """contrib/prometheus's alert rules pass `promtool check rules` and their
    own `promtool test rules`; every query of contrib/grafana's dashboard is
    valid PromQL (checked as recording rules) and names only metrics the
    export of a real survey holds (or node_exporter's textfile mtime)."""
    promtool = shutil.which("promtool")
    rules_dir = os.path.join(REPO, "contrib", "prometheus")
    for args in (["check", "rules", "bwsurvey-alerts.yml"], ["test", "rules", "bwsurvey-alerts-test.yml"]):
        run = subprocess.run([promtool, *args], cwd=rules_dir, capture_output=True, text=True)
        if run.returncode != 0:
            fail("promtool %s: exit %d: %s%s" % (" ".join(args), run.returncode, run.stdout, run.stderr))
    with open(os.path.join(REPO, "contrib", "grafana", "bwsurvey-dashboard.json")) as f:
        dashboard = json.load(f)
    exprs = [t["expr"] for p in dashboard["panels"] for t in p.get("targets", [])]
    if not exprs:
        fail("the dashboard has no queries")
    exported = {name for name, _ in parse(export(bwreport, survey))[0]}
    for expr in exprs:
        for name in re.findall(r"\b(bwsurvey_\w+|node_\w+)", expr):
            if name not in exported and name != "node_textfile_mtime_seconds":
                fail("the dashboard's query %r names %s, which the export does not hold" % (expr, name))
    rules = os.path.join(os.path.dirname(survey), "dashboard-queries.yml")
    with open(rules, "w") as f:
        f.write("groups:\n  - name: dashboard\n    rules:\n")
        for i, expr in enumerate(exprs):
            f.write("      - record: dashboard_query_%d\n        expr: %s\n" % (i, json.dumps(expr)))
    run = subprocess.run([promtool, "check", "rules", rules], capture_output=True, text=True)
    if run.returncode != 0:
        fail("the dashboard's queries are not valid PromQL: " + run.stdout + run.stderr)
    print("contrib: alert rules and their tests pass; %d dashboard queries are valid and name exported metrics"
          % len(exprs))


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_exporter(binary, directory, log):
    """Starts it on an unused port (a few tries: another process may take the
    port between picking and binding); returns (process, url)."""
    for _ in range(5):
        port = free_port()
        process = subprocess.Popen([binary, "--collector.disable-defaults", "--collector.textfile",
                                    "--collector.textfile.directory=" + directory,
                                    "--web.listen-address=127.0.0.1:%d" % port], stdout=log, stderr=log)
        url = "http://127.0.0.1:%d/metrics" % port
        for _ in range(200):  # up to 20 s on a loaded machine
            if process.poll() is not None:
                break
            try:
                urllib.request.urlopen(url, timeout=5).read()
                return process, url
            except OSError:
                time.sleep(0.1)
        if process.poll() is None:
            process.kill()
        process.wait()
    fail("prometheus-node-exporter did not start; its log: " + open(log.name).read()[-2000:])


def scrape(url):
    return parse(urllib.request.urlopen(url, timeout=10).read().decode("utf-8"))[0]


def check_node_exporter(bwreport, path, work):
    binary = shutil.which("prometheus-node-exporter") or shutil.which("node_exporter")
    if not binary:
        print("SKIP: prometheus-node-exporter is not installed (Debian package; scripts/install-deps.sh)")
        sys.exit(SKIP)
    directory = os.path.join(work, "textfile")
    os.makedirs(directory, exist_ok=True)
    # The README's recipe: a temporary name the collector ignores, then a rename.
    temp = os.path.join(directory, ".bwsurvey.prom.tmp")
    with open(temp, "w") as out:
        out.write(export(bwreport, path))
    os.rename(temp, os.path.join(directory, "bwsurvey.prom"))
    with open(os.path.join(work, "node_exporter.log"), "w") as log:
        process, url = start_exporter(binary, directory, log)
        try:
            samples = scrape(url)
            error = samples.get(("node_textfile_scrape_error", frozenset()))
            if error is None or error[0] != 0:
                fail("node_textfile_scrape_error is %s; log: %s" % (error, open(log.name).read()[-2000:]))
            n = check_against_file(samples, path, "node_exporter /metrics")
            # A file with timestamps is refused by the collector: what
            # --prometheus-timestamps is not for.
            with open(temp, "w") as out:
                out.write(export(bwreport, path, "--prometheus-timestamps"))
            os.rename(temp, os.path.join(directory, "bwsurvey.prom"))
            samples = scrape(url)
            if samples.get(("node_textfile_scrape_error", frozenset()), (None,))[0] != 1:
                fail("node_exporter accepted a textfile with timestamps (expected it to refuse)")
            if any(name.startswith("bwsurvey_") for name, _ in samples):
                fail("node_exporter served samples of a refused file")
        finally:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
    print("node_exporter serves %d gauges of %s with the file's values; scrape error 0" % (n, os.path.basename(path)))


def main():
    if len(sys.argv) != 6 or sys.argv[1] not in ("promtool", "node-exporter"):
        sys.exit(__doc__)
    mode, mpirun, bwsurvey, bwreport, work = sys.argv[1:]
    if mode == "promtool" and not shutil.which("promtool"):
        print("SKIP: promtool is not installed (Debian package prometheus; scripts/install-deps.sh)")
        return SKIP
    if mode == "node-exporter" and not (shutil.which("prometheus-node-exporter") or shutil.which("node_exporter")):
        print("SKIP: prometheus-node-exporter is not installed (Debian package; scripts/install-deps.sh)")
        return SKIP
    # A SIGTERM (ctest's timeout) unwinds too, so the exporter is stopped.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    survey = make_survey(mpirun, bwsurvey, work)
    synthetic = make_synthetic(survey, work)
    if mode == "promtool":
        check_promtool(bwreport, [survey, synthetic])
        check_usage_errors(bwreport, survey)
        check_contrib(bwreport, survey)
    else:
        check_node_exporter(bwreport, synthetic, work)
    return 0


if __name__ == "__main__":
    sys.exit(main())
