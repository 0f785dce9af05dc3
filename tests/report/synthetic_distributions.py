"""A small synthetic survey file for the distribution views (h5py only):
/nodes/table with one or two hardware cohorts, /stream/nodes (Triad and
Copy, double), /pmbw/nodes (scan bandwidth and latency), /links/hosts with
leaf switches, and /flags naming some hosts (their Triad set to 60 % of the
cohort's level). Values: seeded normal noise around a cohort level.
write_file(path, nodes, cohorts, flagged, seed) -> {host: (cohort index,
triad B/s, scan B/s, latency s)}."""
import h5py
import numpy as np

LEVEL_TRIAD_BPS = [200e9, 330e9]   # per cohort
LEVEL_SCAN_BPS = [150e9, 250e9]
LEVEL_LATENCY_S = [90e-9, 110e-9]
CORES = [64, 128]
MEMORY_BYTES = [256 << 30, 512 << 30]
CPU_MODEL = b"Synthetic CPU"
HOSTS_PER_LEAF = 16


def table(group, name, columns):
    """A compound dataset from [(column, dtype, values)]."""
    dtype = np.dtype([(c, t) for c, t, _ in columns])
    data = np.zeros(len(columns[0][2]), dtype)
    for c, _, values in columns:
        data[c] = values
    group.create_dataset(name, data=data)


def write_file(path, nodes, cohorts, flagged, seed=7):
    rng = np.random.default_rng(seed)
    hosts = [f"node{i:05d}" for i in range(nodes)]
    cohort = np.array([0 if i < nodes * (1 if cohorts == 1 else 0.6) else 1 for i in range(nodes)])
    triad = np.array([LEVEL_TRIAD_BPS[c] for c in cohort]) * rng.normal(1, 0.02, nodes)
    scan = np.array([LEVEL_SCAN_BPS[c] for c in cohort]) * rng.normal(1, 0.02, nodes)
    latency = np.array([LEVEL_LATENCY_S[c] for c in cohort]) * rng.normal(1, 0.02, nodes)
    for h in flagged:
        i = hosts.index(h)
        triad[i] = 0.6 * LEVEL_TRIAD_BPS[cohort[i]]
    with h5py.File(path, "w") as f:
        f.attrs["schema_version"] = "2.0"
        f.attrs["status"] = "complete"
        host_bytes = np.array([h.encode() for h in hosts], "S128")
        table(f.create_group("nodes"), "table", [
            ("host", "S128", host_bytes), ("node_index", "i8", np.arange(nodes)),
            ("cores", "i8", [CORES[c] for c in cohort]), ("memory_bytes", "i8", [MEMORY_BYTES[c] for c in cohort]),
            ("cpu_model", "S96", [CPU_MODEL] * nodes)])
        rows = 2 * nodes
        table(f.create_group("stream"), "nodes", [
            ("host", "S128", np.r_[host_bytes, host_bytes]), ("backend", "S16", [b"cpu"] * rows),
            ("kernel", "S16", [b"Triad"] * nodes + [b"Copy"] * nodes), ("type", "S16", [b"double"] * rows),
            ("ranks", "i8", [2] * rows), ("threads", "i8", [8] * rows),
            ("bandwidth", "f8", np.r_[triad, 0.9 * triad]), ("valid", "i8", [1] * rows)])
        table(f.create_group("pmbw"), "nodes", [
            ("host", "S128", host_bytes), ("scan_ram_Bps", "f8", scan), ("perm_ram_access_seconds", "f8", latency)])
        table(f.create_group("links"), "hosts", [
            ("index", "i8", np.arange(nodes)), ("host", "S128", host_bytes), ("rank", "i8", np.arange(nodes)),
            ("leaf", "S128", [f"leaf{i // HOSTS_PER_LEAF:03d}".encode() for i in range(nodes)])])
        table(f, "flags", [
            ("host", "S128", [h.encode() for h in flagged]),
            ("metric", "S64", [b"stream.triad[double]"] * len(flagged)),
            ("value", "f8", [triad[hosts.index(h)] for h in flagged]), ("unit", "S16", [b"B/s"] * len(flagged)),
            ("rule", "S16", [b"fraction"] * len(flagged))])
        f["flags"].attrs["k"] = 3.5
        f["flags"].attrs["fraction"] = 0.75
    return {h: (int(cohort[i]), triad[i], scan[i], latency[i]) for i, h in enumerate(hosts)}
