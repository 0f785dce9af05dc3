"""BS1-BS7 as the paper draws them: bandwidth against bytes on log-log
axes, one panel per test, the measured points (the median over the ranks,
with the min-max band up to 16 ranks and the 5-95 % band above, so that
20,000 ranks are one series), and the fit T(B) = T0 + B/Wmax of the rank
with the median Wmax drawn solid only over the sizes it was fitted on
(/bs/results `fitted`, from /bs/fits `first_fitted_bytes`) and dashed over
the other measured sizes; its T0, Wmax and Fischer-Brown point B0.8 (a
dotted vertical line) in the legend; L1/L2/L3 from /nodes/table marked (L1
and L2 at threads x their size, as the rank's threads share the bytes).
The fits of the ranks are in the table. One section per backend ("cpu",
or "ocl" for an OpenCL device)."""
import numpy as np

from . import axes as ax_
from .common import Section, Table, capped, check_units, fixed, giga, read_table, save, text

DRAWS = {"bs/results": "BS1-BS7 sweeps and fits"}  # the table it draws (with bs/fits), as the overview names it
ORDER = 20
TESTS = ["BS1", "BS2", "BS3", "BS4", "BS5", "BS6", "BS7"]
COLUMNS = ["rank", "backend", "test", "degree", "bytes", "bandwidth", "fitted", "threads"]


def sections(f, options):
    cols = ax_.read_columns(f, "bs/results", COLUMNS)
    if cols is None or not all(c in cols for c in ("rank", "test", "degree", "bytes", "bandwidth")) or len(cols["rank"]) == 0:
        return []
    check_units(f, "bs/results", {"bytes": "B", "bandwidth": "B/s"})
    fits = read_table(f, "bs/fits")
    if fits is not None:
        check_units(f, "bs/fits", {"T0_seconds": "s", "Wmax_Bps": "B/s", "B08_bytes": "B"})
    if "backend" not in cols:
        cols["backend"] = np.array(["cpu"] * len(cols["rank"]), dtype=object)
    fit_backend = None
    if fits is not None:
        fit_backend = ax_.texts(fits["backend"]) if "backend" in fits.dtype.names else np.full(len(fits), "cpu", object)
    caches, _ = ax_.cache_sizes(f)
    out = []
    for backend in sorted(set(cols["backend"]), key=lambda b: (b != "cpu", b)):
        keep = cols["backend"] == backend
        mine = {k: v[keep] for k, v in cols.items()}
        its_fits = None if fits is None else fits[fit_backend == backend]
        out.append(backend_section(options, backend, mine, its_fits, caches))
    return out


def median_fit(fits, fit_tests, test, degree):
    """The fit (a /bs/fits row) with the median Wmax among the ranks' valid
    fits of this test and degree (the lower median), or None."""
    if fits is None or len(fits) == 0:
        return None
    ok = (fit_tests == test) & (fits["degree"] == degree) & (fits["fitted"] != 0) & np.isfinite(fits["Wmax_Bps"]) & \
        (fits["Wmax_Bps"] > 0) & np.isfinite(fits["T0_seconds"])
    rows = fits[ok]
    if len(rows) == 0:
        return None
    order = np.argsort(rows["Wmax_Bps"], kind="stable")
    return rows[order[(len(rows) - 1) // 2]]


def fit_range(cols, series, fit):
    """(first, last) fitted bytes of the fit's rank in this series: from
    /bs/fits first_fitted_bytes to the largest size its /bs/results rows
    mark fitted."""
    mine = series & (cols["rank"] == int(fit["rank"]))
    sizes = cols["bytes"][mine].astype(float)
    if "fitted" in cols:
        fitted = sizes[cols["fitted"][mine] != 0]
    else:
        fitted = sizes[sizes >= float(fit["first_fitted_bytes"])]
    first = float(fit["first_fitted_bytes"]) if "first_fitted_bytes" in fit.dtype.names else float(fitted.min())
    last = float(fitted.max()) if len(fitted) else first
    return first, last


def model(B, T0, Wmax):
    return B / (T0 + B / Wmax) / 1e9


def backend_section(options, backend, cols, fits, caches):
    import matplotlib.pyplot as plt
    on = "" if backend == "cpu" else f" on {backend}"
    ranks = len(np.unique(cols["rank"]))
    (band_lo, band_hi), band_name = ax_.band_of(ranks)
    tests_col = cols["test"]
    tests = [t for t in TESTS if (tests_col == t).any()] + sorted(set(tests_col) - set(TESTS))
    threads = int(np.median(cols["threads"])) if "threads" in cols else 1
    marks = ax_.cache_marks(caches, threads)
    ncol = min(4, len(tests))
    nrow = (len(tests) + ncol - 1) // ncol
    fig, axes = plt.subplots(nrow, ncol, figsize=(4.2 * ncol, 3.5 * nrow + 0.5), squeeze=False)
    for ax in axes.flat[len(tests):]:
        ax.set_visible(False)
    panels = []
    fit_tests = None if fits is None else ax_.texts(fits["test"])
    lo_all, hi_all = float(cols["bytes"].min()), float(cols["bytes"].max())
    lo_x, hi_x = min([lo_all] + list(marks.values())), max([hi_all] + list(marks.values()))
    for ax, test in zip(axes.flat, tests):
        in_test = tests_col == test
        keys, counts, pct = ax_.group_percentiles(
            [cols["degree"][in_test].astype(np.int64), cols["bytes"][in_test].astype(np.int64)],
            cols["bandwidth"][in_test].astype(float) / 1e9, [band_lo, 50.0, band_hi])
        series_info = []
        for degree in sorted(int(d) for d in np.unique(keys[0])):
            s = keys[0] == degree
            x = keys[1][s].astype(float)
            name = f"N={degree}" if degree > 0 else "measured"
            what = "" if ranks == 1 else f" (median of {ranks} ranks, {band_name})"
            line, = ax.plot(x, pct[50.0][s], "o", markersize=3.5, label=name + what)
            colour = line.get_color()
            if ranks > 1:
                ax.fill_between(x, pct[band_lo][s], pct[band_hi][s], color=colour, alpha=0.2, linewidth=0)
            info = {"degree": degree, "sizes": x.tolist(), "median_GBps": pct[50.0][s].tolist(),
                    "low_GBps": pct[band_lo][s].tolist(), "high_GBps": pct[band_hi][s].tolist(), "fit": None}
            fit = median_fit(fits, fit_tests, test, degree)
            if fit is not None:
                info["fit"] = draw_fit(ax, cols, in_test & (cols["degree"] == degree), fit, x, colour, degree)
            series_info.append(info)
        ax_.draw_cache_marks(ax, marks)
        ax_.byte_axis(ax, lo_x, hi_x, "bytes per run", max_ticks=4)
        ax_.plain_log_y(ax)
        ax.set_ylabel("GB/s", fontsize=8)
        ax.set_title(test, fontsize=10)
        ax.tick_params(labelsize=7)
        ax.legend(fontsize=6, loc="lower right")
        panels.append({"test": test, "series": series_info, "cache_marks": marks, **ax_.x_tick_info(ax),
                       "lines": len(ax.lines), "bands": len(ax.collections)})
    fig.suptitle(f"BS1-BS7{on}: fit T(B) = T0 + B/Wmax solid over its fitted sizes, dashed beyond; "
                 f"dotted: B0.8; grey: L1/L2/L3", fontsize=10)
    fig.tight_layout()
    png = save(fig, options, "bs_bandwidth.png" if backend == "cpu" else f"bs_bandwidth_{backend}.png")
    ax_.record(options, png, {"kind": "bs", "backend": backend, "ranks": ranks, "band": band_name if ranks > 1 else None,
                              "threads": threads, "caches": caches, "panels": panels})
    return Section(title=f"BS1-BS7 bandwidth against bytes{on}", png=png, tables=[fits_table(fits, on)])


def draw_fit(ax, cols, series, fit, sizes, colour, degree):
    """The fit solid over [first, last] fitted bytes, dashed over the
    measured sizes outside it, B0.8 dotted; returns what it drew."""
    T0, Wmax, B08 = float(fit["T0_seconds"]), float(fit["Wmax_Bps"]), float(fit["B08_bytes"])
    first, last = fit_range(cols, series, fit)
    B = np.geomspace(first, last, 100) if last > first else np.array([first])
    prefix = f"N={degree} " if degree > 0 else ""
    label = (f"{prefix}fit, rank {int(fit['rank'])}: T0 {T0 * 1e6:.3g} µs, Wmax {Wmax / 1e9:.3g} GB/s, "
             f"B0.8 {ax_.binary_size(B08) if np.isfinite(B08) else 'n/a'}")
    ax.plot(B, model(B, T0, Wmax), "-", color=colour, linewidth=1.2, label=label)
    dashed = []
    lo, hi = float(np.min(sizes)), float(np.max(sizes))
    for a, b in ((lo, first), (last, hi)):
        if b > a:
            D = np.geomspace(a, b, 50)
            ax.plot(D, model(D, T0, Wmax), "--", color=colour, linewidth=0.9)
            dashed.append([a, b])
    if np.isfinite(B08) and B08 > 0:
        ax.axvline(B08, color=colour, linestyle=":", linewidth=0.8)
    return {"rank": int(fit["rank"]), "fitted_bytes": [first, last], "dashed_bytes": dashed, "T0_seconds": T0,
            "Wmax_Bps": Wmax, "B08_bytes": B08, "legend": label}


def fit_verdict(row):
    """The gate's verdict and reason ("withheld: R^2 0.78 < 0.9"); files
    written before the gate have no such columns: "not judged"."""
    names = row.dtype.names
    if "fit_verdict" not in names:
        return "not judged"
    verdict, reason = text(row["fit_verdict"]), text(row["fit_quality"])
    return f"{verdict}: {reason}" if reason else verdict


def withheld(row):
    return "fit_verdict" in row.dtype.names and text(row["fit_verdict"]) == "withheld"


def fits_table(fits, on):
    rows = []
    note = ""
    if fits is not None and len(fits):
        order = np.lexsort((fits["degree"], fits["test"], fits["rank"]))
        rows = [[int(r["rank"]), text(r["host"]), text(r["test"]), int(r["degree"]) or "-",
                 "-" if withheld(r) else giga(r["Wmax_Bps"]), fixed(r["T0_seconds"] * 1e6, 3),
                 fixed(r["B08_bytes"] / 1e3, 2),
                 fixed(r["r2"], 4), "yes" if r["fitted"] else "no", fit_verdict(r), "yes" if r["valid"] else "NO"]
                for r in fits[order[:201]]]
        rows, note = capped(rows)
        if len(fits) > 201:
            note = f"first 200 of {len(fits)} rows shown"
    return Table(f"/bs/fits (per rank{on})", ["rank", "host", "test", "N", "Wmax GB/s", "T0 us", "B0.8 KB", "R^2",
                                              "fitted", "fit", "valid"], rows, note)
