"""How distributions.py's pictures are drawn cheaply at 10,000 nodes: a
few artists per panel whatever the number of nodes.

matplotlib's cost is per artist and per text, not per data point: a bar is
one Rectangle patch (its own transform, limits update and draw call), a
tick label is a Tick of five artists, and tight_layout measures every text
twice. So here
  - bars are one PolyCollection per panel (one artist for 300 bars);
  - host names beside the worst/best bars and under the leaf boxes are
    plain texts, not ticks (a Tick is two lines, a grid line and two
    labels, each made and measured);
  - the panels are placed from the measured width of their longest label,
    not by tight_layout, and titles at a fixed height;
  - one figure and its axes per layout, emptied and drawn again for each
    picture (an axes with its ticks costs more to make than to draw);
  - an ECDF's legend sits in the empty corner beside the median
    (ecdf_legend_corner) instead of 'best', which tests every vertex.
Small surveys keep ticks and 'best' (they are cheap there)."""
import numpy as np

FIG_HEIGHT_IN = 4.4
PANEL_WIDTH_IN = 5.2
TOP_IN = 0.62       # suptitle and panel titles
RIGHT_PAD_IN = 0.15
NUMERIC_LEFT_IN = 0.72  # numeric tick labels and a y label
PLAIN_BOTTOM_IN = 0.5   # numeric tick labels and an x label


def text_width_in(fig, labels, fontsize):
    """Width in inches of the widest label as the renderer draws it (one
    measurement per distinct label: the host names differ in glyphs)."""
    from matplotlib.font_manager import FontProperties
    if not len(labels):
        return 0.0
    renderer = fig.canvas.get_renderer()
    prop = FontProperties(size=fontsize)
    widest = max(renderer.get_text_width_height_descent(str(s), prop, ismath=False)[0] for s in set(labels))
    return widest / fig.dpi


_figures = {}  # (panels, kinds, dpi) -> (figure, axes), drawn again for every picture of that layout


def figure(kinds, dpi):
    """(figure, axes) for panels of the given kinds, emptied: the figure
    and its axes are made once per layout and reused (making an axes and its
    ticks costs more than drawing a panel); placed by place()."""
    key = (tuple(kinds), dpi)
    if key not in _figures:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
        fig = Figure(figsize=(PANEL_WIDTH_IN * len(kinds), FIG_HEIGHT_IN), dpi=dpi)
        FigureCanvasAgg(fig)
        _figures[key] = (fig, [fig.add_axes([0.1, 0.1, 0.8, 0.8]) for _ in kinds])
    fig, axes = _figures[key]
    for ax in axes:
        for artist in [*ax.lines, *ax.collections, *ax.patches, *ax.texts]:
            artist.remove()
        if ax.get_legend() is not None:
            ax.get_legend().remove()
        ax.relim()  # forget the last picture's data limits
        ax.set_autoscale_on(True)
    return fig, axes


def place(fig, axes, left_in, bottom_in):
    """Each panel's axes with left_in[i] inches of labels to its left and
    bottom_in inches under all of them."""
    width_in, height_in = fig.get_size_inches()
    for i, (ax, left) in enumerate(zip(axes, left_in)):
        x0 = (i * PANEL_WIDTH_IN + left) / width_in
        w = max(PANEL_WIDTH_IN - left - RIGHT_PAD_IN, 1.0) / width_in
        h = max(height_in - TOP_IN - bottom_in, 1.0) / height_in
        ax.set_position([x0, bottom_in / height_in, w, h])


def title(ax, label):
    """A panel title at a fixed height (matplotlib's automatic height
    measures every tick label of the axes to place it)."""
    ax.set_title(label, fontsize=9, y=1.0)


def bars(ax, position, base, length, colors, width=0.8, horizontal=False, **kwargs):
    """Bars from base to base + length at each position, as one
    PolyCollection (ax.bar makes a Rectangle per bar)."""
    from matplotlib.collections import PolyCollection
    p = np.asarray(position, np.float64)
    b = np.broadcast_to(np.asarray(base, np.float64), p.shape)
    e = b + np.asarray(length, np.float64)
    lo, hi = p - width / 2.0, p + width / 2.0
    if horizontal:
        verts = np.stack([np.c_[b, lo], np.c_[e, lo], np.c_[e, hi], np.c_[b, hi]], axis=1)
    else:
        verts = np.stack([np.c_[lo, b], np.c_[hi, b], np.c_[hi, e], np.c_[lo, e]], axis=1)
    kwargs.setdefault("linewidths", 0)
    collection = PolyCollection(verts, facecolors=colors, **kwargs)
    ax.add_collection(collection)
    ax.autoscale_view()
    return collection


def y_labels(ax, y, labels, fontsize, colors=None):
    """Labels left of the axes at data heights y, as texts, not ticks."""
    import matplotlib.transforms as mtransforms
    ax.set_yticks([])
    offset = mtransforms.ScaledTranslation(-3 / 72, 0, ax.figure.dpi_scale_trans)
    where = mtransforms.blended_transform_factory(ax.transAxes, ax.transData) + offset
    for i, (yy, label) in enumerate(zip(y, labels)):
        ax.text(0, yy, label, transform=where, ha="right", va="center", fontsize=fontsize,
                color=colors[i] if colors is not None else "black", clip_on=False)


def x_labels(ax, x, labels, fontsize):
    """Labels under the axes at data positions x, rotated, as texts."""
    import matplotlib.transforms as mtransforms
    ax.set_xticks([])
    offset = mtransforms.ScaledTranslation(0, -3 / 72, ax.figure.dpi_scale_trans)
    where = mtransforms.blended_transform_factory(ax.transData, ax.transAxes) + offset
    for xx, label in zip(x, labels):
        ax.text(xx, 0, label, transform=where, ha="center", va="top", rotation=90, fontsize=fontsize,
                clip_on=False)


STRIP_NAMED_MAX = 60    # up to this many nodes every bar has its host name
WORST_BEST = 20
LEAVES_MAX = 30         # leaf boxes drawn (the worst by median)
HOST_CHARS = 20
LEAF_CHARS = 16


def rule_marks(ax, v, vertical):
    """The flag rules' lines and the median line across the panel."""
    mark = ax.axvline if vertical else ax.axhline
    for _, at, color, _ in v["lines"]:
        mark(at, color=color, ls="--", lw=1)
    mark(100.0, color="tab:green", lw=1)


def draw_distribution(ax, v, histogram_max_nodes):
    """The distribution in % of the cohort median: a histogram of few
    nodes, else the ECDF as one step line; the labelled nodes marked."""
    from .common import plot_text
    percent, n, labelled = v["percent"], v["n"], v["labelled_idx"]
    if n > histogram_max_nodes:
        xs = np.sort(percent)
        ax.step(xs, np.arange(1, n + 1) / n, where="post", color="tab:blue", lw=1.2, label=f"ECDF, {n} nodes")
        py = np.searchsorted(xs, percent[labelled], side="right") / n
        ax.set_ylabel("fraction of nodes at or below")
    else:
        ax.hist(percent, bins=max(5, min(20, n)), color="tab:blue", alpha=0.7, histtype="stepfilled",
                label=f"{n} nodes")
        ax.plot(percent, np.zeros(n), "|", color="black", ms=12)
        py = np.zeros(len(labelled))
        ax.set_ylabel("nodes")
    for label, x, color, _ in v["lines"]:
        ax.axvline(x, color=color, ls="--", lw=1, label=f"{label}: {x:.1f} %")
    ax.axvline(100.0, color="tab:green", lw=1, label=f"median {v['median'] / v['scale']:.4g} {v['shown_unit']}")
    if labelled:
        px = percent[labelled]
        ax.plot(px, py, "o", color="tab:red", ms=5, label="flagged / lowest")
        for j, i in enumerate(labelled):
            up = py[j] < 0.8 or n <= histogram_max_nodes  # near the top: below, not over the title
            ax.annotate(plot_text(v["hosts"][i], 24), (px[j], py[j]),
                        xytext=(6, 6 + 9 * (j % 4)) if up else (6, -12 - 9 * (j % 4)),
                        textcoords="offset points", fontsize=7,
                        color="tab:red" if v["is_flagged"][i] else "black")
    ax.set_xlabel(f"% of cohort median{v['direction']}")
    ax.legend(fontsize=7, loc="best" if n <= histogram_max_nodes else ecdf_legend_corner(v))
    title(ax, plot_text(f"{v['title']}: distribution", 70))


def ecdf_legend_corner(v):
    """An ECDF left of the median is below 0.5 and right of it above: the
    upper left and the lower right are empty; the wider one holds the
    legend ('best' would test every vertex of the line)."""
    xs = np.r_[v["percent"], [x for _, x, _, _ in v["lines"]], 100.0]
    lo, hi = float(xs.min()), float(xs.max())
    return "upper left" if 100.0 - lo >= hi - 100.0 else "lower right"


def strip_layout(fig, v):
    """(left inches, bottom inches, draw(ax) -> hosts in drawn order): every
    node as a bar, ordered by value, host names under the bars of up to
    STRIP_NAMED_MAX nodes, else under the flagged ones."""
    from .common import plot_text
    n, hosts = v["n"], v["hosts"]
    if n <= STRIP_NAMED_MAX:
        named, fontsize = np.arange(n), (6 if n > 20 else 8)
    else:
        named, fontsize = np.flatnonzero(v["is_flagged"])[:20], 6
    labels = [plot_text(hosts[i], HOST_CHARS) for i in named]
    bottom = 0.45 + text_width_in(fig, labels, fontsize) + (0.1 if labels else 0.0)

    def draw(ax):
        colors = np.where(v["is_flagged"], "tab:red", "tab:blue")
        bars(ax, np.arange(n), 100.0, v["percent"] - 100.0, colors, width=0.8 if n < 100 else 1.0)
        ax.set_xlim(-0.6, n - 0.4)
        ax.set_xticks(named, labels, rotation=90, fontsize=fontsize)
        ax.set_xlabel("nodes, worst first")
        ax.set_ylabel(f"% of cohort median{v['direction']}")
        rule_marks(ax, v, vertical=False)
        title(ax, f"per node, ordered by value ({n} nodes)")
        return list(hosts)
    return NUMERIC_LEFT_IN, max(PLAIN_BOTTOM_IN, bottom), draw


def worst_best_layout(fig, v):
    """The worst and the best WORST_BEST nodes as bars from the median, their
    host names beside them (a 5 % deviation is visible)."""
    from .common import plot_text
    n = v["n"]
    pick = np.r_[np.arange(WORST_BEST), np.arange(n - WORST_BEST, n)]
    labels = [plot_text(h, HOST_CHARS) for h in v["hosts"][pick]]
    left = text_width_in(fig, labels, 5.5) + 0.12

    def draw(ax):
        y = np.r_[np.arange(WORST_BEST), np.arange(WORST_BEST + 1, 2 * WORST_BEST + 1)]
        colors = np.where(v["is_flagged"][pick], "tab:red", "tab:blue")
        bars(ax, y, 100.0, v["percent"][pick] - 100.0, colors, width=0.8, horizontal=True)
        ax.set_ylim(2 * WORST_BEST + 0.6, -0.6)  # worst on top
        y_labels(ax, y, labels, 5.5, colors=["tab:red" if c == "tab:red" else "black" for c in colors])
        rule_marks(ax, v, vertical=True)
        ax.set_xlabel(f"% of cohort median{v['direction']}")
        title(ax, f"worst {WORST_BEST} (top) and best {WORST_BEST} of {n} nodes")
        return list(v["hosts"][pick])
    return left, PLAIN_BOTTOM_IN, draw


def leaf_layout(fig, v, leaf):
    """A box per leaf switch (quartiles, range, every node as a point), the
    LEAVES_MAX lowest by median: one collection each, whatever the count."""
    from .common import plot_text
    known = leaf != ""
    names, inverse = np.unique(leaf[known].astype(str), return_inverse=True)
    shown_pct, shown_flag = v["percent"][known], v["is_flagged"][known]
    order = np.argsort(inverse, kind="stable")
    starts = np.r_[0, np.cumsum(np.bincount(inverse, minlength=len(names)))]
    grouped = shown_pct[order]
    quartiles = np.array([np.percentile(grouped[starts[j]:starts[j + 1]], [0, 25, 50, 75, 100])
                          for j in range(len(names))])
    worst = np.argsort(quartiles[:, 2], kind="stable")[:LEAVES_MAX]
    leaf_names = [str(names[j]) for j in worst]
    labels = [plot_text(s, LEAF_CHARS) for s in leaf_names]
    bottom = 0.15 + text_width_in(fig, labels, 6)

    def draw(ax):
        x = np.arange(1, len(worst) + 1)
        q = quartiles[worst]
        ax.vlines(x, q[:, 0], q[:, 4], color="gray", lw=0.8)
        bars(ax, x, q[:, 1], q[:, 3] - q[:, 1], "lightsteelblue", width=0.6, edgecolors="steelblue",
             linewidths=1.0)
        ax.hlines(q[:, 2], x - 0.3, x + 0.3, color="black", lw=1.2)
        position = np.full(len(names), -1)
        position[worst] = np.arange(len(worst))
        member = position[inverse] >= 0
        px = position[inverse][member] + 1 + (np.random.default_rng(0).random(member.sum()) - 0.5) * 0.4
        ax.scatter(px, shown_pct[member], s=4, c=np.where(shown_flag[member], "tab:red", "black"), zorder=3,
                   linewidths=0)
        ax.set_xlim(0.4, len(worst) + 0.6)
        x_labels(ax, x, labels, 6)
        rule_marks(ax, v, vertical=False)
        ax.set_ylabel(f"% of cohort median{v['direction']}")
        more = f", the {LEAVES_MAX} lowest of {len(names)}" if len(names) > LEAVES_MAX else ""
        title(ax, f"per leaf switch{more}")
        return leaf_names
    return NUMERIC_LEFT_IN, max(PLAIN_BOTTOM_IN, bottom), draw
