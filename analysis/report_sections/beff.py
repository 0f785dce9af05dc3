"""b_eff: b(L), the bandwidth of the whole ring, against the message size L
per ring (natural, random, reference; host and device path), measured
points from /beff/sizes and the ring's Hockney fit t(L) = alpha + L/beta
from /beff/summary drawn as b(L) = n 2L / t(L) over the ring's sizes; the
latency (8 B, HPCC's ring latency) and alpha in µs in the legend. A fit
the quality gate withheld is drawn dashed, its legend and table cells give
the reason instead of its figures. /beff/summary as the table."""
import numpy as np

from . import axes as ax_
from .common import Section, Table, check_units, fixed, has_columns, read_table, save, text

DRAWS = {"beff/sizes": "b_eff per message size"}  # with beff/summary
ORDER = 40
MAX_RINGS_WITH_FIT = 8  # beyond: the other rings as thin grey points, without their fits


def ring_key(row):
    return (text(row["path"]) if "path" in row.dtype.names else "host", int(row["ring"]))


def summary_of(summary, key):
    if summary is None:
        return None
    for r in summary:
        if ring_key(r) == key:
            return r
    return None


def hockney_b(L, n, alpha, beta):
    """b(L) = n 2L / (alpha + L/beta) in B/s; NaN where t(L) <= 0 (a negative alpha)."""
    t = alpha + L / beta
    return np.where(t > 0, n * 2 * L / np.where(t > 0, t, 1), np.nan)


def hockney_verdict(row):
    """(verdict, reason) of a summary row's Hockney fit (the gate of
    lib/model/FitQuality: result, warning, withheld); files older than the
    verdict column: ("not judged", "") and the figures are shown with R²."""
    if row is None or "hockney_verdict" not in row.dtype.names:
        return "not judged", ""
    return text(row["hockney_verdict"]), text(row["hockney_quality"])


def hockney_fit_label(alpha, beta, verdict, reason):
    """The fit's legend: no figures for a withheld fit (its curve is still
    drawn, dashed, to show where it misses), "poor fit" for a warning."""
    if verdict == "withheld":
        return f"Hockney fit withheld: {reason}"
    label = f"Hockney fit: alpha {alpha * 1e6:.3g} µs, beta {beta / 1e9:.3g} GB/s"
    return label + (f" (poor fit: {reason})" if verdict == "warning" else "")


def sections(f, options):
    sizes = read_table(f, "beff/sizes")
    summary = read_table(f, "beff/summary")
    if sizes is None or len(sizes) == 0 or not has_columns(sizes, "ring", "ring_kind", "message_bytes", "b_Bps"):
        return []
    import matplotlib.pyplot as plt
    check_units(f, "beff/sizes", {"message_bytes": "B", "b_Bps": "B/s", "model_b_Bps": "B/s"})
    if summary is not None:
        check_units(f, "beff/summary", {"latency_8B_seconds": "s", "hockney_alpha_seconds": "s",
                                        "hockney_beta_Bps": "B/s"})

    keys = sorted({ring_key(r) for r in sizes})
    paths = {k[0] for k in keys}
    fig, ax = plt.subplots(figsize=(8.5, 5))
    drawn = []
    for i, key in enumerate(keys):
        mask = np.array([ring_key(r) == key for r in sizes])
        rows = np.sort(sizes[mask], order="message_bytes")
        kind, n = text(rows[0]["ring_kind"]), int(rows[0]["ranks"])
        L = rows["message_bytes"].astype(float)
        name = f"{kind} ring {key[1]}" + (f" ({key[0]})" if len(paths) > 1 else "") + f", {n} ranks"
        if i >= MAX_RINGS_WITH_FIT:
            ax.plot(L, rows["b_Bps"] / 1e9, ".", color="0.6", markersize=3,
                    label="other rings (no fit drawn)" if i == MAX_RINGS_WITH_FIT else None)
            drawn.append({"ring": key[1], "path": key[0], "kind": kind, "ranks": n, "sizes": list(L), "fit": None})
            continue
        s = summary_of(summary, key)
        latency = float(s["latency_8B_seconds"]) if s is not None and "latency_8B_seconds" in s.dtype.names else np.nan
        label = name + (f": latency {latency * 1e6:.3g} µs" if np.isfinite(latency) else "")
        line, = ax.plot(L, rows["b_Bps"] / 1e9, "o", markersize=4, label=label)
        info = {"ring": key[1], "path": key[0], "kind": kind, "ranks": n, "sizes": list(L),
                "latency_us": latency * 1e6 if np.isfinite(latency) else None, "legend": label, "fit": None}
        if s is not None and np.isfinite(s["hockney_alpha_seconds"]) and np.isfinite(s["hockney_beta_Bps"]) and \
                s["hockney_beta_Bps"] > 0:
            alpha, beta = float(s["hockney_alpha_seconds"]), float(s["hockney_beta_Bps"])
            grid = np.geomspace(L.min(), L.max(), 200)
            verdict, reason = hockney_verdict(s)
            fit_label = hockney_fit_label(alpha, beta, verdict, reason)
            ax.plot(grid, hockney_b(grid, n, alpha, beta) / 1e9, "--" if verdict == "withheld" else "-",
                    color=line.get_color(), linewidth=1, label=fit_label)
            info["fit"] = {"alpha_us": alpha * 1e6, "beta_Bps": beta, "bytes": [float(L.min()), float(L.max())],
                           "legend": fit_label, "verdict": verdict}
        drawn.append(info)
    all_L = sizes["message_bytes"].astype(float)
    ax_.byte_axis(ax, all_L.min(), all_L.max(), "message size L (bytes to each neighbour)")
    ax_.plain_log_y(ax)
    ax.set_ylabel("b(L), all ranks of the ring (GB/s)")
    ax.set_title("b_eff: bandwidth per message size and ring, with each ring's Hockney fit t(L) = alpha + L/beta",
                 fontsize=10)
    ax.legend(fontsize=7)
    ax.grid(True, which="major", alpha=0.3)
    fig.tight_layout()
    png = save(fig, options, "beff_sizes.png")
    ax_.record(options, png, {"kind": "beff", **ax_.x_tick_info(ax), "rings": drawn, "lines": len(ax.lines)})

    tables = []
    if summary is not None:
        rows = []
        for r in summary:
            verdict, reason = hockney_verdict(r)
            withheld = verdict == "withheld"
            quality = {"result": f"R² {r['hockney_r2']:.4g}", "warning": f"poor fit: {reason}",
                       "withheld": f"withheld: {reason}"}.get(verdict, f"R² {r['hockney_r2']:.4g} (not judged)")
            rows.append([int(r["ring"]), text(r["ring_kind"]), int(r["ranks"]), f"{r['b_eff_Bps'] / 1e9:.4g}",
                         f"{r['b_eff_per_rank_Bps'] / 1e9:.4g}", fixed(r["latency_8B_seconds"] * 1e6, 2),
                         "withheld" if withheld else fixed(r["hockney_alpha_seconds"] * 1e6, 2),
                         "withheld" if withheld else fixed(r["hockney_beta_Bps"] / 1e9, 3), quality,
                         fixed(r["efficiency"], 3), "yes" if r["valid"] else "NO"])
        tables.append(Table("/beff/summary", ["ring", "kind", "ranks", "b_eff GB/s", "per rank GB/s", "latency µs",
                                              "Hockney alpha µs", "beta GB/s", "Hockney fit", "E(n)", "valid"], rows))
    return [Section(title="b_eff per message size and ring", png=png, tables=tables)]
