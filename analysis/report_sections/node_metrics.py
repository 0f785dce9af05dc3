"""The node metrics the flags judge, one value per node and metric group,
with each node's cohort and the flag rule's verdict, as bwsurvey's C++ code
makes them: read from `bwreport export --csv FILE --table nodes/verdicts`
(and nodes/cohorts: every node's hardware class). The metric declarations
(the benchmarks' catalog entries), the cohort rule (lib/model/Cohorts.cpp)
and the flag rule (lib/model/FlagRule.hpp) live in C++ only; nothing of them
is repeated here. The page's verdicts, cohort summary, node table and
distributions are built from these rows.

bwreport is $BWSURVEY_BWREPORT (bwreport plot sets it to itself), else
bwreport on PATH, else the build tree's (build/apps/bwreport)."""
import csv
import dataclasses
import io
import math
import os
import shutil
import subprocess

import numpy as np

from .common import printable, read_table, text


class BwreportMissing(RuntimeError):
    """The report cannot read the node verdicts without bwreport."""


class BwreportRefused(ValueError):
    """bwreport refused the file as bad input (its exit 2): its one line."""


def bwreport_program():
    given = os.environ.get("BWSURVEY_BWREPORT")
    if given:
        return given
    found = shutil.which("bwreport")
    if found:
        return found
    here = os.path.dirname(os.path.abspath(__file__))
    built = os.path.join(here, "..", "..", "build", "apps", "bwreport")
    if os.access(built, os.X_OK):
        return os.path.normpath(built)
    raise BwreportMissing("bwreport not found: set BWSURVEY_BWREPORT to its path, put it on PATH, or run the "
                          "report through `bwreport plot`")


_exported = {}  # (file name, table) -> {column: [text]}


def exported_table(f, table):
    """{column: [cell text]} of `bwreport export --csv FILE --table TABLE`;
    {} when the file has no such table (no node metrics)."""
    key = (os.path.abspath(f.filename), table)
    if key in _exported:
        return _exported[key]
    run = subprocess.run([bwreport_program(), "export", "--csv", f.filename, "--table", table],
                         capture_output=True, text=True)
    if run.returncode != 0:
        if "is not in" in run.stderr:
            _exported[key] = {}
            return {}
        if run.returncode == 2:
            line = run.stderr.strip().splitlines()[-1] if run.stderr.strip() else "bad input"
            raise BwreportRefused(line.removeprefix("bwreport: error: "))
        raise RuntimeError(f"bwreport export --table {table}: {run.stderr.strip() or f'exit {run.returncode}'}")
    rows = csv.reader(io.StringIO(run.stdout))
    header = next(rows, [])
    columns = {name: [] for name in header}
    lists = [columns[name] for name in header]
    for row in rows:  # text as the report shows the file's own (common.text): hosts match
        for cells, cell in zip(lists, row):
            cells.append(printable(cell))
    _exported[key] = columns
    return columns


def number(cell):
    try:
        return float(cell)
    except ValueError:
        return math.nan


@dataclasses.dataclass
class Metric:
    name: str            # with its group: "stream.triad[double]"
    unit: str
    values: dict         # host -> value (finite, > 0)
    cohort: dict         # host -> cohort label (lib/model NodeFlags cohort_of)
    limit: dict          # host -> the value at which the rule flags the node (NaN below 3 nodes)
    higher_is_better: bool = True
    base: str = ""       # the declared metric's name: "stream.triad"
    rule_limits: dict = dataclasses.field(default_factory=dict)  # rule -> {host: its limit}; NaN: not applied


_metrics = {}  # file name -> [Metric]: the node view, the distributions and STREAM read them (nobody changes one)


def metric_values(f):
    """[Metric] in the order of bwreport's rows (metric groups and cohorts in
    order of first appearance), made once per file."""
    key = os.path.abspath(f.filename)
    if key not in _metrics:
        _metrics[key] = read_metric_values(f)
    return list(_metrics[key])


def read_metric_values(f):
    rows = exported_table(f, "nodes/verdicts")
    out = {}
    if not rows:
        return []
    for host, metric, name, value, unit, higher, cohort, limit, fraction_limit, spread_limit in zip(
            rows["host"], rows["metric"], rows["name"], rows["value"], rows["unit"], rows["higher_is_better"],
            rows["cohort"], rows["limit"], rows["fraction_limit"], rows["spread_limit"]):
        m = out.get(metric)
        if m is None:
            m = out[metric] = Metric(metric, unit, {}, {}, {}, higher == "1", name, {"fraction": {}, "spread": {}})
        m.values[host] = float(value)
        m.cohort[host] = cohort
        m.limit[host] = number(limit)
        m.rule_limits["fraction"][host] = number(fraction_limit)
        m.rule_limits["spread"][host] = number(spread_limit)
    return list(out.values())


def node_cohorts(f):
    """{host: hardware class} of every node in /nodes/table (lib/model/Cohorts.cpp)."""
    rows = exported_table(f, "nodes/cohorts")
    return dict(zip(rows.get("host", []), rows.get("hardware_class", [])))


def in_unit(value, unit):
    """(number, unit text) as the page shows it: B/s in GB/s (1e9), seconds in µs."""
    if unit == "B/s":
        return value / 1e9, "GB/s"
    if unit == "s":
        return value * 1e6, "µs"
    return value, unit


def unit_suffix(unit):
    """The CSV header suffix of a unit: GB/s -> GBps, µs -> us."""
    return {"GB/s": "GBps", "µs": "us"}.get(unit, unit.replace("/", "p") or "value")


def show(value, unit, decimals=2):
    """'12.34 GB/s'; 'n/a' for a missing or NaN value."""
    if value is None or not np.isfinite(value):
        return "n/a"
    number, shown = in_unit(float(value), unit)
    return f"{number:.{decimals}f} {shown}".strip()


@dataclasses.dataclass
class CohortStats:
    nodes: int
    median: float
    mad: float
    p25: float
    p75: float
    low: float
    high: float


def stats_of(values):
    x = np.asarray(values, dtype=float)
    median = float(np.median(x))
    p25, p75 = (float(v) for v in np.percentile(x, [25, 75]))
    return CohortStats(len(x), median, float(np.median(np.abs(x - median))), p25, p75, float(x.min()), float(x.max()))


@dataclasses.dataclass
class NodeView:
    """What the verdicts, the cohort summary and the node table share."""
    metrics: list        # [Metric]
    hosts: list          # every node: /nodes/table's and any with a metric value, in host order
    cohort: dict         # (metric name, host) -> cohort label
    cohort_ids: dict     # label -> "C1" (most nodes first)
    stats: dict          # (metric name, label) -> CohortStats over all its nodes
    flagged: dict        # (host, metric name) -> the /flags row
    host_cohort: dict    # host -> its hardware class (/nodes/table)

    def cohort_id(self, label):
        return self.cohort_ids.get(label, label)


def node_view(f):
    from .common import host_key
    metrics = metric_values(f)
    hosts_cohort = node_cohorts(f)
    hosts = set(hosts_cohort)
    cohort, members = {}, {}
    for m in metrics:
        hosts |= set(m.values)
        for host, value in m.values.items():
            label = m.cohort[host]
            cohort[(m.name, host)] = label
            members.setdefault((m.name, label), []).append(value)
    stats = {key: stats_of(values) for key, values in members.items()}
    sizes = {}
    for label in hosts_cohort.values():
        sizes[label] = sizes.get(label, 0) + 1
    for (_, label), values in members.items():
        sizes[label] = max(sizes.get(label, 0), len(values))
    ordered = sorted(sizes, key=lambda label: (-sizes[label], label))
    flagged = {}
    flags = read_table(f, "flags")
    if flags is not None and {"host", "metric"} <= set(flags.dtype.names):
        for r in flags:
            flagged[(text(r["host"]), text(r["metric"]))] = r
    ids = {label: f"C{i + 1}" for i, label in enumerate(ordered)}
    return NodeView(metrics, sorted(hosts, key=host_key), cohort, ids, stats, flagged, hosts_cohort)
