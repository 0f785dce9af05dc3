"""The link map's numbers for the picture: the display order of the hosts
(leaf switch, then host name) and an N x N matrix read in row blocks and
reduced to at most DISPLAY x DISPLAY cells, each the worst value of its
block of hosts, so one slow pair stays visible at 10,000 nodes.

Memory: O(display^2 + row_block x N) floats, whatever N is (a 10,000-node
matrix is 400 MB; it is never held whole). Pure numpy; the reads go
through a read_rows(a, b) callable (an h5py slice in links.py)."""
import numpy as np

from .common import host_key

DISPLAY = 512       # the most display cells per side
ROW_BLOCK = 256     # rows read at a time
MEDIAN_CELLS = 1 << 22  # cells the median is taken over (every s-th cell beyond)
# The sample's first column in row r is r * SAMPLE_STEP mod s: a prime step,
# so the sampled pairs are not all at shift distances that are multiples of
# s (the pattern measures distance k at step k: one time slice of the run).
SAMPLE_STEP = 7919


def display_order(hosts, leaves=None):
    """(order, groups): order[p] = the matrix index shown at position p,
    sorted by leaf switch (natural order, hosts without a leaf last), then
    host name (n2 before n10), then index; groups = [(leaf, start, stop)]
    of the positions of each leaf ("" for the hosts without one), empty
    when no host has a leaf."""
    n = len(hosts)
    leaves = list(leaves) if leaves is not None else [""] * n
    keys = sorted(range(n), key=lambda i: (leaves[i] == "", host_key(leaves[i]), host_key(hosts[i]), i))
    order = np.array(keys, dtype=np.int64)
    groups = []
    if any(leaves):
        for p, i in enumerate(keys):
            if not groups or groups[-1][0] != leaves[i]:
                groups.append([leaves[i], p, p])
            groups[-1][2] = p + 1
    return order, [tuple(g) for g in groups]


def block_starts(n, display):
    """The first position of each display block: position p is in block
    p * d // n (d = min(n, display)); blocks differ in size by at most 1."""
    d = min(n, display)
    block_of = np.arange(n, dtype=np.int64) * d // n
    return np.searchsorted(block_of, np.arange(d)), block_of


def worst_blocks(read_rows, n, order, worst="min", display=DISPLAY, row_block=ROW_BLOCK,
                 median_cells=MEDIAN_CELLS):
    """(blocks, median, stride): blocks[r][c] = the worst (min, or max for
    times) finite value of the cells whose row and column positions fall in
    display blocks r and c (NaN when all are NaN); median = median of the
    finite cells, taken over every stride-th cell of each row (stride 1, all
    cells, up to median_cells; the first sampled column turns with the row). read_rows(a,
    b) returns rows a..b-1 in matrix (file) order."""
    reduce = {"min": np.fmin, "max": np.fmax}[worst]  # fmin/fmax ignore NaN
    d = min(n, display)
    starts, block_of = block_starts(n, display)
    position = np.empty(n, dtype=np.int64)
    position[order] = np.arange(n)
    blocks = np.full((d, d), np.nan, dtype=np.float32)
    stride = max(1, -(-n * n // median_cells))
    sample = []
    for a in range(0, n, row_block):
        b = min(n, a + row_block)
        rows = np.asarray(read_rows(a, b), dtype=np.float32)
        if rows.shape != (b - a, n):
            raise ValueError(f"rows {a}..{b - 1}: shape {rows.shape}, expected {(b - a, n)}")
        for k in range(b - a):
            cells = rows[k, (a + k) * SAMPLE_STEP % stride::stride]
            sample.append(cells[np.isfinite(cells)])
        by_column = reduce.reduceat(rows[:, order], starts, axis=1)  # (b - a) x d
        row_blocks = block_of[position[a:b]]
        sorted_rows = np.argsort(row_blocks, kind="stable")
        ids, first = np.unique(row_blocks[sorted_rows], return_index=True)
        merged = reduce.reduceat(by_column[sorted_rows], first, axis=0)
        blocks[ids] = reduce(blocks[ids], merged)
    finite = np.concatenate(sample) if sample else np.empty(0, dtype=np.float32)
    median = float(np.median(finite)) if finite.size else float("nan")
    return blocks, median, stride


def block_of_position(p, n, display=DISPLAY):
    """The display block holding position p."""
    return p * min(n, display) // n
