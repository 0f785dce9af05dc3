#!/usr/bin/python3
"""The link map of the report (analysis/report_sections/links.py and
link_matrix.py): the display order and the worst-per-block down-sampling on
small matrices with hand-computed results; then the whole report on
synthetic files (tests/report/synthetic_links.py): N = 6 with two leaf
switches, a slow pair and its verdict; the same without a leaf column and
without verdicts (an older file); N = 3000 with one slow pair, whose block
must hold the smallest value; and a hosts table that does not match the
matrix (exit 2, one line).
usage: links_report_test.py SOURCE_DIR WORK_DIR   (exit 77: no h5py/matplotlib)"""
import os
import shutil
import subprocess
import sys

try:
    import h5py
    import matplotlib  # noqa: F401 - the report needs it
    import numpy as np
except ImportError:
    print("links_report_test: h5py, numpy or matplotlib missing: skipped")
    sys.exit(77)

SOURCE, WORK = sys.argv[1], sys.argv[2]
sys.path[:0] = [os.path.join(SOURCE, "analysis"), os.path.join(SOURCE, "tests", "report"),
                os.path.join(SOURCE, "tests", "mpi")]
from check_report import check_png  # noqa: E402
from report_sections import links  # noqa: E402
from report_sections.link_matrix import block_starts, display_order, worst_blocks  # noqa: E402
from synthetic_links import write_file  # noqa: E402

NAN = float("nan")
failures = []


def expect(condition, what):
    if not condition:
        failures.append(what)
        print("FAILED:", what)


def test_order():
    order, groups = display_order(["n10", "n2", "a1", "n3"], ["s2", "s1", "", "s1"])
    expect(list(order) == [1, 3, 0, 2], f"leaf order {list(order)}")
    expect(groups == [("s1", 0, 2), ("s2", 2, 3), ("", 3, 4)], f"leaf groups {groups}")
    order, groups = display_order(["n10", "n2", "n1"])
    expect(list(order) == [2, 1, 0] and groups == [], f"host order {list(order)} {groups}")
    order, groups = display_order(["b", "a"], ["", ""])
    expect(list(order) == [1, 0] and groups == [], f"no leaves {list(order)} {groups}")


M = np.array([[NAN, 5, 4, 3], [8, NAN, 2, 9], [7, 6, NAN, 1], [10, 11, 12, NAN]], dtype=np.float32)


def reader(matrix, seen):
    def read(a, b):
        seen.append(b - a)
        return matrix[a:b]
    return read


def same(a, b):
    return np.array_equal(np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64), equal_nan=True)


def test_blocks():
    starts, _ = block_starts(5, 2)
    expect(list(starts) == [0, 3], f"block starts of 5 in 2: {list(starts)}")
    seen = []
    blocks, median, stride = worst_blocks(reader(M, seen), 4, np.arange(4), "min", display=2, row_block=1)
    expect(same(blocks, [[5, 2], [6, 1]]), f"block minima {blocks.tolist()}")
    expect(median == 6.5 and stride == 1, f"median {median}, stride {stride}")
    expect(seen == [1, 1, 1, 1], f"row reads {seen}")
    blocks, _, _ = worst_blocks(reader(M, []), 4, np.array([3, 2, 1, 0]), "min", display=2, row_block=3)
    expect(same(blocks, [[1, 6], [2, 5]]), f"block minima, reversed order {blocks.tolist()}")
    blocks, _, _ = worst_blocks(reader(M, []), 4, np.arange(4), "max", display=2)
    expect(same(blocks, [[8, 9], [11, 12]]), f"block maxima {blocks.tolist()}")
    blocks, _, _ = worst_blocks(reader(M, []), 4, np.arange(4), "min", display=4)
    expect(same(blocks, M), "display as large as the matrix: the matrix itself")
    # stride 4: row r samples columns from r * 7919 mod 4 = 0, 3, 2, 1: NaN, 9, NaN, 11.
    _, median, stride = worst_blocks(reader(M, []), 4, np.arange(4), "min", display=2, median_cells=4)
    expect(stride == 4 and median == 10.0, f"sampled median {median}, stride {stride}")


def report(path, out, code=0):
    run = subprocess.run([sys.executable, os.path.join(SOURCE, "analysis", "survey_report.py"), "-o", out, path],
                         capture_output=True, text=True, timeout=300)
    expect(run.returncode == code, f"{path}: exit {run.returncode}, expected {code}: {run.stderr.strip()}")
    return run


def page_of(out):
    with open(os.path.join(out, "index.html"), encoding="utf-8") as f:
        return f.read()


def test_six_nodes():
    hosts = ["n10", "n2", "n3", "n1", "n4", "n5"]
    leaves = ["s2", "s1", "s2", "s1", "s1", "s2"]
    reason = "link n2->n4: 20.0 % of its expected figure"
    path = os.path.join(WORK, "six.h5")
    write_file(path, hosts, leaves, slow=[(1, 4)], flags=[("links.pair", "n2->n4", 2e9, 20.0, reason),
                                                          ("stream.triad[double]", "n3", 1e9, 50.0, "a node flag")],
               switches=[("s1", "top"), ("s2", "top")])
    with h5py.File(path, "r") as f:
        verdicts, fraction = links.link_verdicts(f)
        expect([(m, s) for m, s, _ in verdicts] == [("links.pair", "n2->n4")] and fraction == 0.75,
               f"verdicts {[(m, s) for m, s, _ in verdicts]}, fraction {fraction}")
        hosts_read, leaves_read = links.host_order_columns(f, 6)
        expect(links.slow_pairs(verdicts, hosts_read) == [(1, 4)], "slow pair n2->n4 is (1, 4)")
        expect(links.slow_pairs(verdicts, ["n2", "n2", "n3", "n4", "n4", "n5"]) == [],
               "a pair of shared host names names no cell")
        order, groups = display_order(hosts_read, leaves_read)
        # s1: n1 (3), n2 (1), n4 (4); s2: n3 (2), n5 (5), n10 (0)
        expect(list(order) == [3, 1, 4, 2, 5, 0], f"six-node order {list(order)}")
    out = os.path.join(WORK, "six")
    report(path, out)
    page = page_of(out)
    for name in ("links_send.png", "links_latency.png"):
        expect(f'src="{name}"' in page, f"index.html shows {name}")
        problem = check_png(os.path.join(out, name))
        expect(problem is None, f"{name}: {problem}")
        expect(os.path.getsize(os.path.join(out, name)) < 1 << 20, f"{name} under 1 MB")
    expect("n2-&gt;n4" in page and "links.pair" in page and "20.0 % of its expected figure" in page,
           "the verdict list names the pair and its reason")
    expect(page.index("Link verdicts") < page.index('src="links_send.png"'), "verdicts above the picture")
    expect("ordered by leaf switch" in page, "the caption says the order")


def test_older_file():
    path = os.path.join(WORK, "old.h5")
    write_file(path, [f"n{i}" for i in range(5)], None, latency=False)
    out = os.path.join(WORK, "old")
    report(path, out)
    page = page_of(out)
    expect("no link verdicts" in page and 'src="links_send.png"' in page, "older file: map, no verdicts")
    expect(not os.path.exists(os.path.join(out, "links_latency.png")), "no latency map without the matrix")


def test_3000_nodes():
    n, slow = 3000, (1234, 2345)
    path = os.path.join(WORK, "n3000.h5")
    write_file(path, [f"n{i}" for i in range(n)], None, slow=[slow], latency=False,
               flags=[("links.pair", "n1234->n2345", 2e9, 20.0, "slow link")])
    with h5py.File(path, "r") as f:
        seen = []
        ds = f["links/send_Bps"]
        blocks, median, _ = worst_blocks(lambda a, b: (seen.append(b - a), ds[a:b, :])[1], n, np.arange(n), "min")
    # 1234 * 512 // 3000 = 210, 2345 * 512 // 3000 = 400; the cells are 10e9 +- 1 %, the slow pair 2e9.
    expect(blocks.shape == (512, 512), f"display {blocks.shape}")
    expect(np.unravel_index(np.nanargmin(blocks), blocks.shape) == (210, 400), "the slow pair's block is the minimum")
    expect(blocks[210, 400] == np.float32(2e9), f"its value {blocks[210, 400]}")
    expect(np.nanmin(np.delete(blocks.ravel(), 210 * 512 + 400)) >= 9.9e9 * 0.999, "every other block near 10e9")
    expect(abs(median - 10e9) <= 0.01 * 10e9, f"median {median}")
    expect(max(seen) <= 256, f"row blocks of at most 256 rows: {max(seen)}")
    out = os.path.join(WORK, "n3000")
    report(path, out)
    page = page_of(out)
    size = os.path.getsize(os.path.join(out, "links_send.png"))
    expect('src="links_send.png"' in page and size < 1 << 20, f"3000-node map shown, {size} bytes")
    expect("Down-sampled: 3000 hosts shown as 512 x 512 blocks" in page, "the caption states the down-sampling")


def test_mismatch():
    path = os.path.join(WORK, "bad.h5")
    write_file(path, [f"n{i}" for i in range(4)], None, latency=False)
    with h5py.File(path, "a") as f:
        hosts = f["links/hosts"][...]
        del f["links/hosts"]
        f.create_dataset("links/hosts", data=hosts[:3])
    run = report(path, os.path.join(WORK, "bad"), code=2)
    lines = run.stderr.strip().splitlines()
    expect(len(lines) == 1 and "/links/hosts" in lines[0], f"one line naming /links/hosts: {run.stderr!r}")
    # 5000 x 5000 declared, no chunk written: refused before 10^8 fill values are read.
    path = os.path.join(WORK, "lie.h5")
    write_file(path, [f"n{i}" for i in range(5000)], None, latency=False)
    with h5py.File(path, "a") as f:
        del f["links/send_Bps"]
        f.create_dataset("links/send_Bps", shape=(5000, 5000), dtype="<f4", chunks=(50, 5000), compression="gzip")
    run = report(path, os.path.join(WORK, "lie"), code=2)
    lines = run.stderr.strip().splitlines()
    expect(len(lines) == 1 and "/links/send_Bps: declares 5000 x 5000" in lines[0], f"storage lie: {run.stderr!r}")


def test_empty_matrix():
    path = os.path.join(WORK, "empty.h5")
    write_file(path, [f"n{i}" for i in range(3)], None, latency=False)
    with h5py.File(path, "a") as f:
        del f["links/send_Bps"]
        f.create_dataset("links/send_Bps", shape=(0, 3), maxshape=(None, 3), dtype="<f4")
    out = os.path.join(WORK, "empty")
    report(path, out)
    expect("holds no rows" in page_of(out), "an empty matrix is named, not drawn")


def test_uplinks():
    groups = [("s1", 0, 3), ("s2", 3, 5), ("", 5, 6)]
    verdicts = [("links.uplink", "s1->s2", None), ("links.uplink", "s2->top", None), ("links.uplink", "x->s1", None),
                ("links.pair", "s1->s2", None)]
    regions = links.uplink_regions(verdicts, groups, 6)
    # s1->s2: rows 0..3 x columns 3..5; s2->top: rows 3..5 x all columns and all rows x
    # columns 3..5; x is no leaf; a pair is no uplink.
    expect(regions == [(3, 0, 2, 3), (0, 3, 6, 2), (3, 0, 2, 6)], f"uplink regions {regions}")


def main():
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)
    test_order()
    test_blocks()
    test_six_nodes()
    test_older_file()
    test_3000_nodes()
    test_mismatch()
    test_empty_matrix()
    test_uplinks()
    print(f"links_report_test: {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
