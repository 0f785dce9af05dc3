"""BS1-BS7: bandwidth against bytes of one rank's sweeps, each with its
fitted curve bandwidth(B) = B / (T0 + B/Wmax) drawn from the stored T0 and
Wmax (/bs/fits), its Wmax as a dashed line and its Fischer-Brown point
B0.8 = 4 T0 Wmax (stored) as a dotted one; fitted sizes filled, the others
hollow. The fits of every rank are in the table. One section per backend
(the backend column: "cpu", or "ocl" for an OpenCL device)."""
import numpy as np

from .common import Section, Table, capped, check_units, fixed, giga, has_columns, host_key, read_table, save, plot_text, text

DRAWS = {"bs/results": "BS1-BS7 sweeps and fits"}  # the table it draws (with bs/fits), as the overview names it
ORDER = 20
TESTS = ["BS1", "BS2", "BS3", "BS4", "BS5", "BS6", "BS7"]


def sections(f, options):
    results = read_table(f, "bs/results")
    fits = read_table(f, "bs/fits")
    if results is None or len(results) == 0 or not has_columns(results, "rank", "test", "degree", "bytes", "bandwidth"):
        return []
    import matplotlib.pyplot as plt
    check_units(f, "bs/results", {"bytes": "B", "bandwidth": "B/s"})
    if fits is not None:
        check_units(f, "bs/fits", {"T0_seconds": "s", "Wmax_Bps": "B/s", "B08_bytes": "B"})
    backends = sorted({backend_of(r) for r in results}, key=lambda b: (b != "cpu", b))
    sections_ = []
    for backend in backends:
        mine = results[np.array([backend_of(r) == backend for r in results])]
        its_fits = None if fits is None else fits[np.array([backend_of(r) == backend for r in fits], dtype=bool)]
        sections_.append(backend_section(options, backend, mine, its_fits))
    return sections_


def backend_of(row):
    return text(row["backend"]) if "backend" in row.dtype.names else "cpu"


def backend_section(options, backend, results, fits):
    import matplotlib.pyplot as plt
    on = "" if backend == "cpu" else f" on {backend}"
    rank = int(results["rank"].min())
    host = text(results[results["rank"] == rank][0]["host"])
    mine = results[results["rank"] == rank]
    tests = [t for t in TESTS if any(text(x) == t for x in mine["test"])]
    cols = min(4, len(tests))
    rows_n = (len(tests) + cols - 1) // cols
    fig, axes = plt.subplots(rows_n, cols, figsize=(4.2 * cols, 3.4 * rows_n), squeeze=False)
    for ax in axes.flat[len(tests):]:
        ax.set_visible(False)
    for ax, test in zip(axes.flat, tests):
        series = mine[np.array([text(x) == test for x in mine["test"]])]
        for degree in sorted(set(int(d) for d in series["degree"])):
            pts = np.sort(series[series["degree"] == degree], order="bytes")
            label = f"N={degree}" if degree > 0 else "sizes (filled: fitted)"
            fitted = pts["fitted"] != 0 if "fitted" in pts.dtype.names else np.zeros(len(pts), bool)
            line, = ax.plot(pts["bytes"], pts["bandwidth"] / 1e9, "o", mfc="none", label=label)
            ax.plot(pts["bytes"][fitted], pts["bandwidth"][fitted] / 1e9, "o", color=line.get_color())
            fit = matching_fit(fits, rank, test, degree)
            if fit is not None:
                draw_fit(ax, fit, pts["bytes"], line.get_color())
        ax.set_xscale("log")
        ax.set_ylim(bottom=0)
        ax.set_title(test, fontsize=10)
        ax.set_xlabel("bytes")
        ax.set_ylabel("GB/s")
        ax.legend(fontsize=7)
    fig.suptitle(f"BS1-BS7{on} of rank {rank} ({plot_text(host)}): fits T(B) = T0 + B/Wmax, dashed Wmax, dotted B0.8", fontsize=10)
    fig.tight_layout()
    png = save(fig, options, "bs_bandwidth.png" if backend == "cpu" else f"bs_bandwidth_{backend}.png")

    table_rows = []
    if fits is not None:
        for r in sorted(fits, key=lambda r: (host_key(text(r["host"])), int(r["rank"]), text(r["test"]), int(r["degree"]))):
            table_rows.append([int(r["rank"]), text(r["host"]), text(r["test"]), int(r["degree"]) or "-",
                               giga(r["Wmax_Bps"]), fixed(r["T0_seconds"] * 1e6, 3), fixed(r["B08_bytes"] / 1e3, 2),
                               fixed(r["r2"], 4), "yes" if r["fitted"] else "no", "yes" if r["valid"] else "NO"])
    table_rows, note = capped(table_rows)
    return Section(title=f"BS1-BS7 bandwidth against bytes{on}", png=png,
                   tables=[Table(f"/bs/fits (per rank{on})", ["rank", "host", "test", "N", "Wmax GB/s", "T0 us",
                                                          "B0.8 KB", "R^2", "fitted", "valid"], table_rows, note)])


def matching_fit(fits, rank, test, degree):
    if fits is None:
        return None
    for r in fits:
        if int(r["rank"]) == rank and text(r["test"]) == test and int(r["degree"]) == degree:
            return r if r["fitted"] and np.isfinite(r["Wmax_Bps"]) and r["Wmax_Bps"] > 0 else None
    return None


def draw_fit(ax, fit, sizes, color):
    T0, Wmax, B08 = float(fit["T0_seconds"]), float(fit["Wmax_Bps"]), float(fit["B08_bytes"])
    lo = min(float(sizes.min()), B08 if np.isfinite(B08) and B08 > 0 else float(sizes.min())) / 2
    B = np.geomspace(max(lo, 1.0), float(sizes.max()) * 1.5, 200)
    ax.plot(B, B / (T0 + B / Wmax) / 1e9, "-", color=color, linewidth=1)
    ax.axhline(Wmax / 1e9, color=color, linestyle="--", linewidth=0.8)
    if np.isfinite(B08) and B08 > 0:
        ax.axvline(B08, color=color, linestyle=":", linewidth=0.8)
