"""Roofline per node (Williams et al.; Andreolli et al.): attainable FLOP/s = min(compute ceiling,
AI x Triad bandwidth) against arithmetic intensity, log-log, for the FMA
peak (solid) and GEMM (dashed) ceilings of each node as /roofline/nodes
stored them, each node's ridge (its machine balance) marked; with --ai the
kernel's intensity as a vertical line and what it attains per node in the
table and as a point on each roof drawn. Both axes log10 with a labelled
tick at every decade. Many nodes: the slowest, the median and the fastest by Triad."""
import numpy as np

from . import axes as ax_
from .common import Section, Table, capped, check_units, fixed, giga, has_columns, host_key, read_table, save, plot_text, text

DRAWS = {"roofline/nodes": "roofline per node"}
ORDER = 50
MAX_NODES_DRAWN = 8


def drawn_nodes(rows):
    if len(rows) <= MAX_NODES_DRAWN:
        return rows
    by_triad = sorted(rows, key=lambda r: r["triad_Bps"])
    return [by_triad[0], by_triad[len(by_triad) // 2], by_triad[-1]]


def sections(f, options):
    nodes = read_table(f, "roofline/nodes")
    if nodes is None or len(nodes) == 0 or not has_columns(nodes, "host", "triad_Bps"):
        return []
    import matplotlib.pyplot as plt
    check_units(f, "roofline/nodes", {"triad_Bps": "B/s", "fma_double_flop_per_s": "FLOP/s",
                                      "gemm_double_flop_per_s": "FLOP/s"})

    p = options.precision
    peak_col, gemm_col = f"fma_{p}_flop_per_s", f"gemm_{p}_flop_per_s"
    gemm_name = "DGEMM" if p == "double" else "SGEMM"
    rows = sorted(nodes, key=lambda r: host_key(text(r["host"])))
    shown = drawn_nodes(rows)

    balances = [r[peak_col] / r["triad_Bps"] for r in shown if r["triad_Bps"] > 0]
    lo = min([1 / 16] + [b / 8 for b in balances] + ([options.kernel_ai / 2] if options.kernel_ai else []))
    hi = max([64] + [b * 8 for b in balances] + ([options.kernel_ai * 2] if options.kernel_ai else []))
    ai = np.geomspace(lo, hi, 400)
    fig, ax = plt.subplots(figsize=(8, 5.2))
    for r in shown:
        host, bw = text(r["host"]), float(r["triad_Bps"])
        peak, gemm = float(r[peak_col]), float(r[gemm_col])
        line, = ax.plot(ai, np.minimum(peak, ai * bw) / 1e9, "-", label=f"{plot_text(host)}: FMA peak / Triad")
        color = line.get_color()
        if np.isfinite(gemm):
            ax.plot(ai, np.minimum(gemm, ai * bw) / 1e9, "--", color=color, label=f"{plot_text(host)}: {gemm_name} / Triad")
        ridge = r[f"balance_fma_{p}_flop_per_byte"]
        if np.isfinite(ridge):
            ax.plot([ridge], [peak / 1e9], "o", color=color)
    kernels = []
    if options.kernel_ai:
        ax.axvline(options.kernel_ai, color="black", linestyle=":", label=f"kernel AI {options.kernel_ai:g} FLOP/byte")
        for r in shown:
            attain = min(float(r[peak_col]), options.kernel_ai * float(r["triad_Bps"]))
            ax.plot([options.kernel_ai], [attain / 1e9], "kx", markersize=6)
            kernels.append({"host": text(r["host"]), "ai": options.kernel_ai, "attainable_flop_per_s": attain})
    roofs = [min(float(r[peak_col]), x * float(r["triad_Bps"])) for r in shown for x in (lo, hi)]
    finite = [v for v in roofs if np.isfinite(v) and v > 0]
    tops = [float(r[c]) for r in shown for c in (peak_col, gemm_col) if np.isfinite(r[c]) and r[c] > 0]
    y_lo, y_hi = min(finite) / 1e9, max(finite + tops) / 1e9
    x_ticks = ax_.decade_axis(ax, "x", lo, hi)
    y_ticks = ax_.decade_axis(ax, "y", y_lo, y_hi * 1.5)
    ax.set_xlabel("arithmetic intensity (FLOP/byte)")
    ax.set_ylabel(f"attainable GFLOP/s ({p})")
    title = f"Roofline per node ({p}); dots: machine balance (FMA peak / Triad)"
    if options.kernel_ai:
        title += "; x: the kernel"
    if len(shown) < len(rows):
        title += f"\n{len(shown)} of {len(rows)} nodes: slowest, median and fastest Triad"
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=7)
    ax.grid(True, which="major", alpha=0.4)
    ax.grid(True, which="minor", alpha=0.15)
    fig.tight_layout()
    png = save(fig, options, "roofline.png")
    (x_ticks, x_labels), (y_ticks, y_labels) = ax_.drawn_ticks(ax.xaxis), ax_.drawn_ticks(ax.yaxis)
    ax_.record(options, png, {"kind": "roofline", "precision": p, "x_ticks": x_ticks, "y_ticks": y_ticks,
                              "x_tick_labels": x_labels, "y_tick_labels": y_labels,
                              "x_range": [lo, hi], "nodes": [text(r["host"]) for r in shown],
                              "ceilings": [{"host": text(r["host"]), "peak_flop_per_s": float(r[peak_col]),
                                            "gemm_flop_per_s": float(r[gemm_col]), "triad_Bps": float(r["triad_Bps"])}
                                           for r in shown],
                              "kernels": kernels})

    header = ["host", "ranks", "threads", "isa", "peak DP GFLOP/s", "peak SP GFLOP/s", "DGEMM GFLOP/s",
              "SGEMM GFLOP/s", "Triad GB/s", "balance peak DP FLOP/B", "balance DGEMM FLOP/B", "valid"]
    if options.kernel_ai:
        header += [f"kernel at AI {options.kernel_ai:g}: FMA-peak roof GFLOP/s", f"{gemm_name} roof GFLOP/s"]
    table_rows = []
    for r in rows:
        row = [text(r["host"]), int(r["ranks"]), int(r["threads"]), text(r["isa"]), giga(r["fma_double_flop_per_s"]),
               giga(r["fma_float_flop_per_s"]), giga(r["gemm_double_flop_per_s"]), giga(r["gemm_float_flop_per_s"]),
               giga(r["triad_Bps"]), fixed(r["balance_fma_double_flop_per_byte"]),
               fixed(r["balance_gemm_double_flop_per_byte"]), "yes" if r["valid"] else "NO"]
        if options.kernel_ai:
            bound = options.kernel_ai * r["triad_Bps"]
            row += [giga(min(r[peak_col], bound)), giga(min(r[gemm_col], bound)) if np.isfinite(r[gemm_col]) else "n/a"]
        table_rows.append(row)
    table_rows, cap_note = capped(table_rows)
    notes = []
    if not np.isfinite(nodes[gemm_col]).any():
        notes.append(f"{gemm_name}: not available (the survey was built without a BLAS).")
    notes.append("BLAS: " + text(rows[0]["blas"]))
    return [Section(title="Roofline per node", png=png,
                    tables=[Table("/roofline/nodes", header, table_rows, cap_note)], notes=notes)]
