"""The node metrics the flags judge, one value per node and group, read from
the file's tables as bwsurvey computes them (lib/model/NodeMetrics.cpp from
the benchmarks' registry entries: stream.triad, <backend>.triad, bs.wmax,
beff.per_rank), and each node's hardware cohort (lib/model/Cohorts.cpp).
The page's verdicts, cohort summary and node table are built from these.

The specs repeat the C++ registry's (StreamCatalogEntry, BsCatalogEntry,
BeffCatalogEntry): Python cannot call it, and the stored /flags rows give
values of the flagged nodes only."""
import dataclasses
import math

import numpy as np

from .common import check_units, read_table, text


@dataclasses.dataclass
class MetricSpec:
    name: str
    table: str
    column: str
    unit: str
    where: dict          # column -> text its cell must equal (a missing 'backend' column reads 'cpu')
    group_by: tuple = ()
    mean: bool = False   # per host: mean of its rows (else their sum)
    cohort_column: str = ""


def specs(f):
    found = [MetricSpec("stream.triad", "stream/nodes", "bandwidth", "B/s", {"kernel": "Triad", "backend": "cpu"},
                        ("type",))]
    nodes = read_table(f, "stream/nodes")
    if nodes is not None and "backend" in nodes.dtype.names:
        for backend in sorted({text(b) for b in np.unique(nodes["backend"])} - {"cpu"}):
            found.append(MetricSpec(f"{backend}.triad", "stream/nodes", "bandwidth", "B/s",
                                    {"kernel": "Triad", "backend": backend}, ("type",), cohort_column="device"))
    found.append(MetricSpec("bs.wmax", "bs/fits", "Wmax_Bps", "B/s", {"fitted": "1", "backend": "cpu"},
                            ("test", "degree")))
    found.append(MetricSpec("beff.per_rank", "beff/ranks", "b_eff_Bps", "B/s", {}, (), mean=True))
    return found


def cell_text(value):
    if isinstance(value, (bytes, str)):
        return text(value)
    if isinstance(value, (np.integer, int)):
        return str(int(value))
    return str(value)


def where_mask(table, where):
    """Rows whose cells equal the texts (a file without a 'backend' column
    holds CPU rows only: schema 1.x)."""
    mask = np.ones(len(table), dtype=bool)
    for column, want in where.items():
        if column not in table.dtype.names:
            mask &= column == "backend" and want == "cpu"
            continue
        cells = table[column]
        if cells.dtype.kind == "S":
            mask &= cells == want.encode()
        elif cells.dtype.kind in "iu":
            mask &= cells == int(want)
        else:
            mask &= np.array([cell_text(c) == want for c in cells], dtype=bool)
    return mask


@dataclasses.dataclass
class Metric:
    name: str            # with its group: "stream.triad[double]"
    unit: str
    values: dict         # host -> value (finite)
    detail: dict         # host -> cohort detail ("" or the device)


def metric_values(f):
    """[Metric] in the specs' order, groups in order of first appearance."""
    out = {}
    for spec in specs(f):
        table = read_table(f, spec.table)
        if table is None or "host" not in table.dtype.names or spec.column not in table.dtype.names:
            continue
        names = table.dtype.names
        if any(c not in names for c in spec.group_by):
            continue
        check_units(f, spec.table, {spec.column: spec.unit})  # UnitMismatch: the report's one-line error, exit 1
        table = table[where_mask(table, spec.where)]
        sums = {}
        for r in table:
            value = float(r[spec.column])
            if not math.isfinite(value):
                continue
            group = ",".join(cell_text(r[c]) for c in spec.group_by)
            metric = f"{spec.name}[{group}]" if spec.group_by else spec.name
            host = text(r["host"])
            acc = sums.setdefault(metric, {}).setdefault(host, [0.0, 0, ""])
            acc[0] += value
            acc[1] += 1
            if spec.cohort_column and spec.cohort_column in names:
                acc[2] = text(r[spec.cohort_column])
        for metric, hosts in sums.items():
            out[metric] = Metric(metric, spec.unit,
                                 {h: (a[0] / a[1] if spec.mean else a[0]) for h, a in hosts.items()},
                                 {h: a[2] for h, a in hosts.items()})
    return list(out.values())


def memory_class_gib(memory_bytes):
    gib = memory_bytes / 1024.0 ** 3
    if not gib > 0:
        return 0.0
    return 2.0 ** (round(math.log2(gib) * 4) / 4)  # C++ std::round: halves away from zero; log2*4 is rarely a half


def hardware_class(cpu_model, cores, memory_bytes):
    gib = memory_class_gib(memory_bytes)
    return f"{cpu_model or 'unknown CPU'}, {int(cores)} cores, {gib:.{1 if gib < 10 else 0}f} GiB"


def node_cohorts(f):
    """{host: hardware class} from /nodes/table (as lib/model/Cohorts.cpp)."""
    table = read_table(f, "nodes/table")
    if table is None or not {"host", "cores", "memory_bytes"} <= set(table.dtype.names):
        return {}
    has_model = "cpu_model" in table.dtype.names
    return {text(r["host"]): hardware_class(text(r["cpu_model"]) if has_model else "", r["cores"],
                                            int(r["memory_bytes"]))
            for r in table}


def cohort_of(cohorts, metric, host):
    label = cohorts.get(host, "unknown hardware")
    detail = metric.detail.get(host, "")
    return f"{label} / {detail}" if detail else label


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
            label = cohort_of(hosts_cohort, m, host)
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
