"""What the anchor plots (pmbw, BS1-BS7, roofline, b_eff) share: byte axes
labelled in KiB/MiB/GiB, log axes with a labelled tick every decade, the
cache sizes of the stored topology, per-size quantiles over many ranks
computed without a Python loop per rank, and the sidecar plots.json that
says what each image drew (for tests and for tools reading the report)."""
import json

import numpy as np

from .common import check_read_size, text

# Above this many ranks a plot draws the median and the 5-95 % band per
# size, not one curve per rank (20,000 ranks would be 20,000 lines).
MANY_RANKS = 16
BAND_MANY = (5.0, 95.0)
BAND_FEW = (0.0, 100.0)
MAX_SIZE_TICKS = 8
_UNITS = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"]


def band_of(ranks):
    """(low, high) percentiles of the band and its name, by the rank count."""
    if ranks > MANY_RANKS:
        return BAND_MANY, "5-95 %"
    return BAND_FEW, "min-max"


def binary_size(n_bytes):
    """'32 KiB', '1.5 MiB': powers of 1024, as pmbw labels its sizes."""
    value, unit = float(n_bytes), 0
    while value >= 1024 and unit < len(_UNITS) - 1:
        value /= 1024
        unit += 1
    return f"{value:.0f} {_UNITS[unit]}" if value == int(value) else f"{value:.3g} {_UNITS[unit]}"


def size_ticks(lo, hi, max_ticks=MAX_SIZE_TICKS):
    """Powers of two from lo to hi, every 2^step with the smallest step that
    keeps at most MAX_SIZE_TICKS of them (a step that is a multiple of 10,
    i.e. whole KiB/MiB/GiB, once the range is wide)."""
    lo_exp = int(np.floor(np.log2(max(lo, 1))))
    hi_exp = int(np.ceil(np.log2(max(hi, 1))))
    for step in (1, 2, 4, 10, 20, 30):
        first = -(-lo_exp // step) * step
        exps = list(range(first, hi_exp + 1, step))
        if len(exps) <= max_ticks:
            return [float(2 ** e) for e in exps]
    return [float(2 ** e) for e in range(lo_exp, hi_exp + 1, max(1, (hi_exp - lo_exp) // max_ticks))]


def byte_axis(ax, lo, hi, label, max_ticks=MAX_SIZE_TICKS):
    """A log2 x axis from lo to hi bytes with KiB/MiB/GiB tick labels; returns the ticks."""
    ax.set_xscale("log", base=2)
    ticks = size_ticks(lo, hi, max_ticks)
    ax.set_xticks(ticks)
    ax.set_xticklabels([binary_size(t) for t in ticks], fontsize=7)
    ax.minorticks_off()
    ax.set_xlim(lo / 1.2, hi * 1.2)
    ax.set_xlabel(label, fontsize=8)
    return ticks


def decade_ticks(lo, hi):
    """10^k for every k from the decade at or below lo to the one at or above hi."""
    return [10.0 ** k for k in range(int(np.floor(np.log10(lo))), int(np.ceil(np.log10(hi))) + 1)]


def decade_label(value):
    return f"{value:g}"


def decade_axis(ax, axis, lo, hi):
    """Log10 axis ('x' or 'y') from lo to hi with a labelled tick at every
    decade (plain numbers: math text is off in the report); returns the ticks."""
    from matplotlib.ticker import LogLocator, NullFormatter
    ticks = decade_ticks(lo, hi)
    target = ax.xaxis if axis == "x" else ax.yaxis
    (ax.set_xscale if axis == "x" else ax.set_yscale)("log")
    (ax.set_xticks if axis == "x" else ax.set_yticks)(ticks)
    (ax.set_xticklabels if axis == "x" else ax.set_yticklabels)([decade_label(t) for t in ticks])
    target.set_minor_locator(LogLocator(base=10, subs=np.arange(2, 10), numticks=100))
    target.set_minor_formatter(NullFormatter())
    (ax.set_xlim if axis == "x" else ax.set_ylim)(ticks[0], ticks[-1])
    return ticks


def x_tick_info(ax):
    ticks, labels = drawn_ticks(ax.xaxis)
    return {"x_ticks": ticks, "x_tick_labels": labels}


def drawn_ticks(axis):
    """(positions, labels) of an axis's major ticks as the figure has them."""
    return [float(t) for t in axis.get_majorticklocs()], [t.get_text() for t in axis.get_majorticklabels()]


def plain_log_y(ax):
    """Log y axis labelled at 1, 2 and 5 per decade in plain numbers (math
    text is off in the report, so matplotlib's 10^k labels would be raw)."""
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter
    ax.set_yscale("log")
    ax.yaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0), numticks=30))
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _pos: f"{v:g}"))
    ax.yaxis.set_minor_formatter(NullFormatter())


def read_columns(f, path, names):
    """{column: array} of the named columns that the table has, the numbers
    read a million rows at a time (a 27-million-row table of 128-byte host
    names is never read whole), text as str per row; None when the table
    is absent."""
    if path not in f or getattr(f[path], "dtype", None) is None or f[path].dtype.names is None:
        return None
    obj = f[path]
    check_read_size(obj, path)
    numeric = [n for n in names if n in obj.dtype.names and obj.dtype[n].kind not in "SUO"]
    out = {n: np.empty(obj.shape[0], obj.dtype[n]) for n in numeric}
    if numeric:
        for start in range(0, obj.shape[0], CHUNK_ROWS):
            chunk = obj.fields(numeric)[start:start + CHUNK_ROWS]
            for n in numeric:
                out[n][start:start + len(chunk)] = chunk[n] if len(numeric) > 1 else chunk
    for n in names:
        if n in obj.dtype.names and n not in out:
            out[n] = text_column(f, path, n)
    return out


CHUNK_ROWS = 1 << 20


def text_codes(f, path, name):
    """A text column as (distinct values as str, int32 code per row), read
    a million rows at a time (27 million 32-byte names are not read whole,
    nor turned into 27 million Python strings). Rows of a table come in
    runs of one value, so only each run's first value is looked up."""
    obj = f[path]
    names, codes = [], np.empty(obj.shape[0], np.int32)
    index = {}
    for start in range(0, obj.shape[0], CHUNK_ROWS):
        chunk = obj.fields(name)[start:start + CHUNK_ROWS]
        if len(chunk) == 0:
            break
        run_starts = np.flatnonzero(np.r_[True, chunk[1:] != chunk[:-1]])
        uniq, inverse = np.unique(chunk[run_starts], return_inverse=True)
        mapped = np.empty(len(uniq), np.int32)
        for i, u in enumerate(uniq):
            key = text(u)
            if key not in index:
                index[key] = len(names)
                names.append(key)
            mapped[i] = index[key]
        run_lengths = np.diff(np.r_[run_starts, len(chunk)])
        codes[start:start + len(chunk)] = np.repeat(mapped[inverse], run_lengths)
    return np.array(names, dtype=object), codes


def text_column(f, path, name):
    """A text column as str per row (see text_codes)."""
    names, codes = text_codes(f, path, name)
    return names[codes]


def texts(values):
    """Text cells as str, decoding each distinct value once."""
    uniq, inverse = np.unique(values, return_inverse=True)
    return np.array([text(u) for u in uniq], dtype=object)[inverse]


def cache_sizes(f, hosts=None):
    """{'L1': bytes, 'L2': bytes, 'L3': bytes} from /nodes/table (l1_bytes,
    l2_bytes, llc_bytes): the median over the nodes (those in hosts when
    given) with a known size, and {'L1': (min, max), ...} as the spread.
    Empty dicts when the file has no topology."""
    cols = read_columns(f, "nodes/table", ["host", "l1_bytes", "l2_bytes", "llc_bytes"])
    sizes, spread = {}, {}
    if cols is None:
        return sizes, spread
    keep = slice(None)
    if hosts is not None and "host" in cols:
        keep = np.isin(cols["host"].astype(str), sorted(hosts))
    for level, column in (("L1", "l1_bytes"), ("L2", "l2_bytes"), ("L3", "llc_bytes")):
        if column not in cols:
            continue
        values = cols[column][keep].astype(float)
        values = values[values > 0]
        if len(values):
            sizes[level] = float(np.median(values))
            spread[level] = (float(values.min()), float(values.max()))
    return sizes, spread


def cache_marks(sizes, threads):
    """Where each level ends on an axis of all threads' bytes: L1 and L2 are
    per core, so threads x their size; the last level is shared."""
    marks = {}
    for level, size in sizes.items():
        marks[level] = size * threads if level in ("L1", "L2") else size
    return marks


def draw_cache_marks(ax, marks):
    styles = {"L1": ":", "L2": "--", "L3": "-."}
    for level, x in marks.items():
        ax.axvline(x, color="0.45", linestyle=styles.get(level, ":"), linewidth=0.8)
        ax.text(x, 0.98, f" {level}", transform=ax.get_xaxis_transform(), fontsize=6, color="0.35", va="top")


def group_percentiles(keys, values, percents):
    """Per distinct key row (keys: a list of equally long arrays), the given
    percentiles of values (numpy's linear interpolation), computed with one
    sort; NaN values are left out. Returns (unique key arrays, counts,
    {percent: array})."""
    finite = np.isfinite(values)
    if not finite.all():
        keys, values = [k[finite] for k in keys], values[finite]
    if len(values) == 0:
        return [k[:0] for k in keys], np.zeros(0, int), {p: np.zeros(0) for p in percents}
    # one int64 group id (mixed radix over each key's distinct values): a
    # two-key sort instead of one over every key column
    group = np.zeros(len(values), np.int64)
    for k in keys:
        uniq, inverse = np.unique(k, return_inverse=True)
        group *= len(uniq)
        group += inverse
        del inverse
    by_value = np.argsort(values, kind="stable")
    order = by_value[np.argsort(group[by_value], kind="stable")]  # by group, then value: lexsort's order, faster
    del by_value
    v = values[order]
    g = group[order]
    del group
    starts = np.flatnonzero(np.r_[True, g[1:] != g[:-1]])
    del g
    counts = np.diff(np.append(starts, len(v)))
    first_rows = order[starts]
    out = {}
    for p in percents:
        pos = (counts - 1) * (p / 100.0)
        lo = np.floor(pos).astype(int)
        hi = np.minimum(lo + 1, counts - 1)
        frac = pos - lo
        out[p] = v[starts + lo] + (v[starts + hi] - v[starts + lo]) * frac
    return [k[first_rows] for k in keys], counts, out


def record(options, png, info):
    """Adds what the image png drew to OUT/<prefix>plots.json (merged with
    what the other sections recorded)."""
    earlier = options.written_text("plots.json")  # what this run recorded so far
    data = {}
    if earlier:
        try:
            data = json.loads(earlier)
        except ValueError:
            data = {}
    data[png] = info
    options.put_text("plots.json", json.dumps(data, indent=1, sort_keys=True, default=float))
