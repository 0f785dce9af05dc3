"""Scaling of b_eff with the number of ranks, for a scaling study: a merged
file holds one group per run (each with its own beff/summary), or several
survey files of different sizes are given. Each run's natural ring gives
b_eff(n); the linear model is n x the per-rank reference of the smallest
run (as stored in its beff/summary); a stored least-squares slope (a
dataset with a slope_Bps_per_rank column) is drawn too when the file has
one. Drawn only with two or more runs of different n."""
import numpy as np

from .common import Section, Table, fixed, read_table, save, text


def runs_in(f, label):
    """[(run name, natural-ring row)] of every beff/summary in the file."""
    found = []

    def visit(name, obj):
        if name.endswith("beff/summary") and hasattr(obj, "dtype") and obj.dtype.names:
            rows = obj[...]
            natural = [r for r in rows if text(r["ring_kind"]) == "natural"]
            if natural:
                run = name[: -len("beff/summary")].strip("/") or label
                found.append((run, natural[0]))

    f.visititems(visit)
    return found


def stored_slope(f):
    slope = []

    def visit(name, obj):
        if hasattr(obj, "dtype") and obj.dtype.names and "slope_Bps_per_rank" in obj.dtype.names and not slope:
            values = obj["slope_Bps_per_rank"]
            if len(values) and np.isfinite(values[0]):
                slope.append(float(values[0]))

    f.visititems(visit)
    return slope[0] if slope else None


def sections(files, options):
    """files: [(label, h5py.File)] of all files given."""
    runs, slope = [], None
    for label, f in files:
        runs += runs_in(f, label)
        slope = slope if slope is not None else stored_slope(f)
    if len(set(int(r["ranks"]) for _, r in runs)) < 2:
        return []
    import matplotlib.pyplot as plt

    runs.sort(key=lambda x: int(x[1]["ranks"]))
    n = np.array([int(r["ranks"]) for _, r in runs], float)
    b = np.array([r["b_eff_Bps"] for _, r in runs])
    reference = float(runs[0][1]["reference_per_rank_Bps"])
    fig, ax = plt.subplots(figsize=(7, 4.8))
    ax.plot(n, b / 1e9, "o", label="b_eff(n), natural ring")
    grid = np.linspace(0, n.max() * 1.05, 50)
    if np.isfinite(reference) and reference > 0:
        ax.plot(grid, grid * reference / 1e9, "--", label=f"linear model n × {reference / 1e9:.3g} GB/s")
    if slope is not None:
        ax.plot(grid, grid * slope / 1e9, ":", label=f"least-squares line through 0 (stored): {slope / 1e9:.3g} GB/s per rank")
    ax.set_xlabel("ranks n")
    ax.set_ylabel("b_eff (GB/s, all ranks)")
    ax.set_xlim(left=0)
    ax.set_ylim(bottom=0)
    ax.set_title("b_eff scaling")
    ax.legend(fontsize=8)
    fig.tight_layout()
    rows = [[run, int(r["ranks"]), f"{r['b_eff_Bps']:.4g}", f"{r['b_eff_per_rank_Bps']:.4g}", fixed(r["efficiency"], 3)]
            for run, r in runs]
    return [Section(title="b_eff scaling study", png=save(fig, options, "beff_scaling.png"),
                    tables=[Table("runs (natural ring of each)", ["run", "ranks", "b_eff B/s", "per rank B/s",
                                                                  "E(n) as stored"], rows)])]
