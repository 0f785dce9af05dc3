#!/usr/bin/python3
"""Writes a synthetic survey file of N nodes x R ranks as bwsurvey stores it,
for the report's scale measurement (docs/PERFORMANCE.md, "The report at
10,000 nodes") and the terminal summary's tests:

    synthetic_survey.py TEMPLATE.h5 OUT.h5 [--nodes 10000] [--links-nodes 1000] [--seed 1]
                        [--slow-fraction 0.003] [--pmbw-all]

TEMPLATE is a real survey of ONE node (any rank count), e.g.
  mpirun -np 2 --oversubscribe bwsurvey --tests stream,bs,pmbw,roofline,beff,load,links --quick ...
Every table of it is replicated per node with its exact dtypes, column units
and attributes (never a schema of our own that could drift from the
writer's): the host, rank and node_index columns renumbered, every B/s and
FLOP/s column scaled by the node's factor (its hardware class's, times a
seeded normal noise of --noise (3 %) per node and 1 % per row; seconds
divided by it), the samples (/*/times) scaled the same. Three hardware
classes in /nodes/table (cohorts: 60 %, 35 %, 5 % of the nodes); a few slow
nodes (--slow-fraction, at 60-80 % of their class) with /flags rows as
bwsurvey's flag rule gives them (`bwreport export --table nodes/verdicts` on
the written file; the rule is not repeated here), confirmed by a retest; /links matrices for the first --links-nodes nodes.
The checks are all passed, status complete. pmbw keeps one routine per family
(scan read, scan write, permutation) unless --pmbw-all: all 23 routines x
10,000 nodes x 2 ranks is 20 million rows (5 GB), not a seconds-fast file.
Vectorised numpy: 5 s for 10,000 nodes (1.8 GB) on a quiet 2-core VM,
up to a minute when the disk is busy (docs/PERFORMANCE.md)."""
import argparse
import csv
import io
import os
import shutil
import subprocess
import sys
import time

import h5py
import numpy as np

CLASSES = [  # cpu_model, cores, memory GiB, share of the nodes, bandwidth factor
    ("AMD EPYC 7763 64-Core Processor", 128, 512, 0.60, 1.00),
    ("Intel(R) Xeon(R) Platinum 8380 CPU @ 2.30GHz", 80, 256, 0.35, 0.82),
    ("AMD EPYC 9654 96-Core Processor", 192, 1024, 0.05, 1.55),
]
PMBW_KEPT = (b"ScanRead64PtrUnrollLoop", b"ScanWrite64PtrUnrollLoop", b"PermRead64UnrollLoop")
SCALED_UNITS = {"B/s": 1, "FLOP/s": 1, "s": -1}
LINK_BASE_BPS = 12.5e9


def text(v):
    return v.decode() if isinstance(v, bytes) else str(v)


def units_of(ds):
    units = ds.attrs.get("column_units")
    return [text(u) for u in units] if units is not None else [""] * len(ds.dtype.names)


class Survey:
    def __init__(self, template, nodes, seed, noise, slow_fraction):
        self.t = template
        self.n = nodes
        self.rng = np.random.default_rng(seed)
        ranks = template["ranks/table"][...]
        self.template_host = ranks["host"][0]
        self.ranks_per_node = len(ranks)
        self.hosts = np.array([f"c{i // 1000:02d}n{i % 1000:03d}".encode() for i in range(nodes)])
        shares = np.array([c[3] for c in CLASSES])
        self.cls = np.repeat(np.arange(len(CLASSES)), np.diff(np.round(np.concatenate([[0], np.cumsum(shares)]) * nodes).astype(int)))
        self.cls = self.cls[self.rng.permutation(nodes)]
        factor = np.array([c[4] for c in CLASSES])[self.cls] * (1 + self.rng.normal(0, noise, nodes))
        n_slow = max(1, int(round(slow_fraction * nodes)))
        self.slow = np.sort(self.rng.choice(nodes, n_slow, replace=False))
        factor[self.slow] *= self.rng.uniform(0.60, 0.80, n_slow)
        self.factor = factor

    def replicate(self, ds, per_row_noise=0.01):
        """A per-node or per-rank table: its template rows once per node."""
        rows = ds[...]
        k = len(rows)
        out = np.tile(rows, self.n)
        node = np.repeat(np.arange(self.n), k)
        names = rows.dtype.names
        if "host" in names:
            out["host"] = self.hosts[node]
        if "rank" in names:
            out["rank"] = rows["rank"][np.tile(np.arange(k), self.n)] + node * self.ranks_per_node
        if "node_index" in names:
            out["node_index"] = node
        if "node" in names:
            out["node"] = node
        f = self.factor[node] * (1 + self.rng.normal(0, per_row_noise, len(out)))
        for name, unit in zip(names, units_of(ds)):
            power = SCALED_UNITS.get(unit)
            if power and out.dtype[name].kind == "f":
                out[name] = out[name] * f ** power
        return out, node, f

    def nodes_table(self, ds):
        out, node, _ = self.replicate(ds, 0)
        gib = 1024 ** 3
        for c, (model, cores, mem, _, _) in enumerate(CLASSES):
            m = self.cls[node] == c
            out["cpu_model"][m] = model.encode()
            out["cores"][m] = cores
            out["pus"][m] = 2 * cores
            out["memory_bytes"][m] = mem * gib
            out["n_ranks"][m] = self.ranks_per_node
        return out

    def cohort_labels(self):
        labels = []
        for model, cores, mem, _, _ in CLASSES:
            labels.append(f"{model}, {cores} cores, {mem} GiB".encode())
        return np.array(labels)[self.cls]


def copy_attrs(src, dst):
    for k, v in src.attrs.items():
        dst.attrs[k] = v


def write_table(f, path, ds, data):
    chunk = ds.chunks[0] if ds.chunks else 256
    out = f.create_dataset(path, data=data, maxshape=(None,) + data.shape[1:],
                           chunks=(max(1, min(chunk * 16, max(len(data), 1))),) + data.shape[1:])
    copy_attrs(ds, out)
    return out


def bwreport_program(given):
    """--bwreport, else $BWSURVEY_BWREPORT, else bwreport on PATH, else the
    build tree's."""
    if given:
        return given
    if os.environ.get("BWSURVEY_BWREPORT"):
        return os.environ["BWSURVEY_BWREPORT"]
    found = shutil.which("bwreport")
    if found:
        return found
    built = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "build", "apps", "bwreport")
    if os.access(built, os.X_OK):
        return built
    usage_error("bwreport not found: give --bwreport PATH (it judges the synthetic nodes by the flag rule)")


def flag_rows(bwreport, path, dtype):
    """/flags of the written file as bwsurvey's rule judges it (every node
    metric; `bwreport export --table nodes/verdicts`: the rule stays in C++),
    each flag confirmed by a retest at +-1 %."""
    run = subprocess.run([bwreport, "export", "--csv", path, "--table", "nodes/verdicts"],
                         capture_output=True, text=True)
    if run.returncode != 0:
        raise RuntimeError(f"bwreport export --table nodes/verdicts: {run.stderr.strip()}")
    rows = []
    for r in csv.DictReader(io.StringIO(run.stdout)):
        if not r["rule"]:
            continue
        value = float(r["value"])
        retest = value * np.array([0.99, 1.0, 1.01])
        reason = (f"{float(r['percent_of_median']):.3g} % of the median of its {int(r['cohort_nodes']) - 1} "
                  f"cohort peers ({r['rule']} rule)")
        rows.append((r["host"].encode(), r["cohort"].encode(), int(r["cohort_nodes"]), r["metric"].encode(), value,
                     float(r["median"]), float(r["mad"]), float(r["robust_z"]), float(r["percent_of_median"]),
                     float(r["limit"]), r["unit"].encode(), r["rule"].encode(), reason.encode(),
                     ",".join(f"{x:.6g}" for x in retest).encode(), float(np.median(retest)), b"confirmed"))
    rows.sort(key=lambda row: row[8])
    out = np.zeros(len(rows), dtype=dtype)
    for k, row in enumerate(rows):
        out[k] = row
    return out


def write_links(f, t, s, n):
    """/links for the first n nodes: noisy matrices (1 %), the slow nodes'
    rows and columns at their factor."""
    g = f.create_group("links")
    hosts_t = t["links/hosts"]
    hosts = np.zeros(n, dtype=hosts_t.dtype)
    hosts["index"] = np.arange(n)
    hosts["host"] = s.hosts[:n]
    hosts["rank"] = np.arange(n) * s.ranks_per_node
    if "leaf" in hosts.dtype.names:
        hosts["leaf"] = np.array([f"leaf{i // 40:03d}".encode() for i in range(n)])
    write_table(g, "hosts", hosts_t, hosts)
    node_f = np.minimum(1.0, s.factor[:n] / np.array([c[4] for c in CLASSES])[s.cls[:n]] / 0.97)
    for name in ("send_Bps", "recv_Bps", "latency_s"):
        if "links/" + name not in t:
            continue
        src = t["links/" + name]
        rows = max(1, min(n, (1 << 20) // (4 * n)))
        ds = g.create_dataset(name, shape=(n, n), maxshape=(None, n), dtype="<f4", chunks=(rows, n), shuffle=True,
                              compression="gzip", compression_opts=4, fillvalue=np.nan)
        copy_attrs(src, ds)
        for a in range(0, n, 256):
            b = min(n, a + 256)
            m = LINK_BASE_BPS * (1 + s.rng.normal(0, 0.01, (b - a, n)))
            m *= np.minimum(node_f[a:b, None], node_f[None, :])
            if name == "latency_s":
                m = LINK_BASE_BPS / m * 1.8e-6
            m = m.astype(np.float32)
            idx = np.arange(a, b)
            m[idx - a, idx] = np.nan
            ds[a:b, :] = m
    nodes_t = t["links/nodes"]
    nodes = np.zeros(n, dtype=nodes_t.dtype)
    nodes["node"] = np.arange(n)
    nodes["host"] = s.hosts[:n]
    nodes["rank"] = hosts["rank"]
    send = g["send_Bps"]
    out = np.zeros(n)
    worst = np.zeros(n)
    worst_peer = np.zeros(n, dtype=np.int64)
    for a in range(0, n, 256):
        b = min(n, a + 256)
        m = send[a:b, :].astype(np.float64)
        out[a:b] = np.nanmedian(m, axis=1)
        worst[a:b] = np.nanmin(m, axis=1)
        worst_peer[a:b] = np.nanargmin(m, axis=1)
    for col, v in (("out_Bps", out), ("in_Bps", out), ("worst_out_Bps", worst), ("worst_in_Bps", worst),
                   ("worst_out_peer", worst_peer), ("worst_in_peer", worst_peer), ("latency_s", 1.8e-6 * LINK_BASE_BPS / out)):
        if col in nodes.dtype.names:
            nodes[col] = v
    write_table(g, "nodes", nodes_t, nodes)
    write_table(g, "low_peers", t["links/low_peers"], np.zeros(0, dtype=t["links/low_peers"].dtype))


def generate(args):
    try:
        t = h5py.File(args.template, "r")
        n_nodes = int(t.attrs["n_nodes"])
    except (OSError, KeyError) as e:
        usage_error(f"TEMPLATE: {args.template!r} is not a bwsurvey file ({e}); allowed: a survey of one node")
    if n_nodes != 1:
        usage_error(f"TEMPLATE: a survey of {n_nodes} nodes; allowed: a survey of one node")
    s = Survey(t, args.nodes, args.seed, args.noise, args.slow_fraction)
    f = h5py.File(args.out, "w")
    copy_attrs(t, f)
    f.attrs["n_nodes"] = args.nodes
    f.attrs["n_ranks"] = args.nodes * s.ranks_per_node
    f.attrs["status"] = "complete"
    f.attrs["test_hooks"] = ""
    f.attrs["command_line"] = "synthetic_survey.py " + " ".join(sys.argv[1:])
    f.attrs["synthetic"] = f"bench/synthetic_survey.py seed {args.seed}: not a measurement"
    if "config" in t:
        f["config"] = t["config"][()]
    if "provenance" in t:
        copy_attrs(t["provenance"], f.create_group("provenance"))
    xml = t[f"nodes/{text(s.template_host)}/topology_xml"][()] if f"nodes/{text(s.template_host)}" in t else None
    done = {"links", "flags", "config"}
    beff_rings = None

    def visit(path, ds):
        nonlocal beff_rings
        if not isinstance(ds, h5py.Dataset) or path.split("/")[0] in done or path.endswith("topology_xml"):
            return
        if path == "checks":
            rows = ds[...]
            rows = rows[rows["passed"] == 1] if (rows["passed"] == 1).any() else rows
            data = np.tile(rows, args.nodes)
            node = np.repeat(np.arange(args.nodes), len(rows))
            data["subject"] = np.char.add(b"node ", s.hosts[node])
            data["passed"] = 1
            write_table(f, path, ds, data)
        elif path == "nodes/table":
            write_table(f, path, ds, s.nodes_table(ds))
        elif path in ("beff/sizes", "beff/summary"):  # one run over all ranks
            data = ds[...]
            data["ranks"] = args.nodes * s.ranks_per_node
            write_table(f, path, ds, data)
        elif path == "beff/rings":
            data = ds[...]
            n = args.nodes * s.ranks_per_node
            rings = []
            for ring in np.unique(data["ring"]):
                r0 = data[data["ring"] == ring][0]
                r = np.tile(r0, n)
                r["position"] = np.arange(n)
                r["rank"] = np.arange(n) if ring == 0 else s.rng.permutation(n)
                rings.append(r)
            write_table(f, path, ds, np.concatenate(rings))
        elif ds.dtype.names is not None and "host" in ds.dtype.names:
            rows = ds[...]
            if path.startswith("pmbw/results") and not args.pmbw_all:
                keep = np.isin(rows["routine"], PMBW_KEPT)
                rows = rows[keep]
                s.pmbw_keep = np.flatnonzero(keep)
            data, node, factor = replicate_rows(s, ds, rows)
            write_table(f, path, ds, data)
            samples = ds.attrs.get("samples")
            if samples is not None:
                sp = text(samples).lstrip("/")
                st = t[sp][...]
                if path.startswith("pmbw/results") and not args.pmbw_all:
                    st = st[s.pmbw_keep]
                sdata = np.tile(st, (args.nodes, 1)) / factor[:, None]
                write_table(f, sp, t[sp], sdata)
        elif path.endswith("/times"):
            return  # written with its results table
        else:
            write_table(f, path, ds, ds[...])

    t.visititems(visit)
    if xml is not None:
        for h in s.hosts:
            f.create_dataset(f"nodes/{text(h)}/topology_xml", data=xml)
    if "links" in t and args.links_nodes > 0:
        write_links(f, t, s, min(args.links_nodes, args.nodes))
    f.close()
    if "flags" in t:  # judged by bwreport on the file as written
        flags = flag_rows(bwreport_program(args.bwreport), args.out, t["flags"].dtype)
        with h5py.File(args.out, "r+") as f:
            out = write_table(f, "flags", t["flags"], flags)
            out.attrs["retest_rounds"] = 1
    return s


class OneLineParser(argparse.ArgumentParser):
    def error(self, message):
        usage_error(message)


def usage_error(message):
    print(f"synthetic_survey: error: {message}", file=sys.stderr)
    sys.exit(2)


def replicate_rows(s, ds, rows):
    class View:  # the template rows (a subset of ds) with ds's attributes
        def __init__(self, rows, attrs):
            self.rows, self.attrs = rows, attrs

        def __getitem__(self, _):
            return self.rows

        dtype = property(lambda self: self.rows.dtype)

    return s.replicate(View(rows, ds.attrs))


def main():
    p = OneLineParser(description=__doc__.split("\n\n")[0])
    p.add_argument("template", help="a real bwsurvey file of one node (the tables' dtypes, units and attributes)")
    p.add_argument("out")
    p.add_argument("--nodes", type=int, default=10000)
    p.add_argument("--links-nodes", type=int, default=1000, help="nodes in the /links matrices (default 1000)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--noise", type=float, default=0.03, help="per-node relative noise (default 0.03)")
    p.add_argument("--slow-fraction", type=float, default=0.003, help="share of slow nodes at 60-80 %% (default 0.003)")
    p.add_argument("--pmbw-all", action="store_true", help="keep every pmbw routine of the template")
    p.add_argument("--bwreport", help="the bwreport that judges the nodes for /flags (default: $BWSURVEY_BWREPORT, "
                                      "bwreport on PATH, build/apps/bwreport)")
    a = p.parse_args()
    if a.nodes < 1 or a.nodes > 100000:
        p.error("--nodes: 1..100000")
    if not 0 <= a.slow_fraction < 0.5:
        p.error("--slow-fraction: 0..0.5")
    start = time.time()
    try:
        s = generate(a)
    except BaseException:
        if os.path.exists(a.out):
            os.remove(a.out)  # never a half-written file
        raise
    print(f"{a.out}: {a.nodes} nodes x {s.ranks_per_node} ranks, {len(s.slow)} slow nodes, "
          f"{time.time() - start:.1f} s")


if __name__ == "__main__":
    main()
