#!/usr/bin/python3
"""The HTML report in a real browser: headless Chromium (Debian's
`chromium`) driven through the DevTools protocol (tests/report/cdp.py)
opens OUT/index.html (file://) at 1280x800 and checks
  - no JavaScript error: no exception, no console.error/assert, no
    browser log entry of level error, no failed load, no request that
    leaves the machine (only file:, data:, blob:, about:);
  - the verdicts first: every flagged host of the file's /flags (read
    with h5py; the first 20 when there are more) is named by visible text
    in <section id="bws-verdicts"> within the first screen (top < 800 px);
  - the node table works: a click on a <th data-sort> of
    table.bws-sortable#bws-nodes changes the first row (a "num" column
    comes out ordered), a second click reverses it; typing a host into
    #bws-nodes-filter leaves only rows naming it, a name no row has leaves
    none, clearing it brings every row back;
  - a screenshot of the first screen (WORK/report-NAME.png; also into
    --screenshots DIR, for docs/images/).
The driver is tested first on fixture pages written here to the page
contract: a good page passes, a page with a JavaScript error, a broken
sort or an external URL fails, a page without the contract's elements fails.
Then the report of a real survey (bwsurvey --quick on this machine, a
/flags row added for its host) and of every --survey NAME=FILE given.
Fixture mode (--fixture-mode or BWS_BROWSER_FIXTURE_MODE=1): a contract
element absent from a real report is listed as SKIPPED instead of failing
(for report pages written before the contract).
usage: browser_test.py SOURCE WORK BWSURVEY BWREPORT [--survey NAME=FILE]...
       [--screenshots DIR] [--fixture-mode]       (exit 77: no chromium or h5py)"""
import argparse
import base64
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cdp  # noqa: E402
from browser_fixtures import fixture_page  # noqa: E402

try:
    import h5py
    import numpy as np
except ImportError:
    print("browser_test: h5py or numpy missing: skipped")
    sys.exit(77)

WIDTH_PX, HEIGHT_PX = 1280, 800
FIRST_SCREEN_HOSTS = 20  # beyond this many flags, 20 of them must be on the first screen
LOCAL_SCHEMES = ("file:", "data:", "blob:", "about:")
TRIAD = "stream.triad[double]"


class Page:
    """The findings on one page: failures, and contract elements skipped."""

    def __init__(self, name, fixture_mode):
        self.name, self.fixture_mode = name, fixture_mode
        self.failures, self.skipped = [], []

    def fail(self, what):
        self.failures.append(f"{self.name}: {what}")

    def absent(self, what):
        if self.fixture_mode:
            self.skipped.append(f"{self.name}: {what} (fixture mode)")
        else:
            self.fail(what)


def browser_errors(events):
    """One line per JavaScript error, console error, error log entry,
    failed load or non-local request among the CDP events."""
    errors = []
    for method, p in events:
        if method == "Runtime.exceptionThrown":
            d = p.get("exceptionDetails", {})
            text = d.get("exception", {}).get("description") or d.get("text", "")
            errors.append(f"exception: {text.splitlines()[0][:200] if text else '?'}")
        elif method == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
            args = " ".join(str(a.get("value", a.get("description", ""))) for a in p.get("args", []))
            errors.append(f"console.{p['type']}: {args[:200]}")
        elif method == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
            e = p["entry"]
            errors.append(f"log error: {e.get('text', '')[:200]} {e.get('url', '')[:100]}")
        elif method == "Network.requestWillBeSent":
            url = p.get("request", {}).get("url", "")
            if not url.startswith(LOCAL_SCHEMES):
                errors.append(f"request leaves the machine: {url[:200]}")
        elif method == "Network.loadingFailed" and not p.get("canceled"):
            errors.append(f"load failed: {p.get('errorText', '')}")
    return errors


FIND_HOSTS_JS = r"""
(() => {
  const section = document.getElementById('bws-verdicts');
  if (!section) return null;
  const hosts = %s;
  const found = {};
  const walker = document.createTreeWalker(section, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const host of hosts) {
      if (host in found) continue;
      const esc = host.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      const m = new RegExp('(^|[^A-Za-z0-9_.-])(' + esc + ')($|[^A-Za-z0-9_.-])').exec(node.data);
      if (!m) continue;
      const range = document.createRange();
      const start = m.index + m[1].length;
      range.setStart(node, start);
      range.setEnd(node, start + host.length);
      const r = range.getBoundingClientRect();
      if (r.width > 0 && r.height > 0) found[host] = {top: r.top, bottom: r.bottom};
    }
  }
  return found;
})()
"""

TABLE_JS = r"""
window.bwsRows = () => {
  const t = document.getElementById('bws-nodes');
  const rows = t.tBodies.length ? [...t.tBodies].flatMap(b => [...b.rows])
                                : [...t.rows].slice(1);
  return rows.filter(r => r.getClientRects().length > 0 && !r.querySelector('th'));
};
window.bwsCell = (row, i) => {
  const c = row.cells[i];
  if (!c) return '';
  return c.dataset.value !== undefined ? c.dataset.value : c.textContent.trim();
};
(() => {
  const t = document.getElementById('bws-nodes');
  if (!t) return null;
  const heads = [...t.querySelectorAll('th[data-sort]')];
  const rows = window.bwsRows();
  return {sortable: t.classList.contains('bws-sortable'), rows: rows.length,
          heads: heads.map(h => ({kind: h.dataset.sort, index: h.cellIndex, text: h.textContent.trim(),
                                  distinct: new Set(rows.map(r => window.bwsCell(r, h.cellIndex))).size}))};
})()
"""


def wait_frames(b):
    b.evaluate("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def click(b, selector_js):
    """A real mouse click (pressed, released) at the centre of an element."""
    rect = b.evaluate(f"(() => {{ const e = {selector_js}; e.scrollIntoView({{block: 'center'}});"
                      " const r = e.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; })()")
    for kind in ("mousePressed", "mouseReleased"):
        b.call("Input.dispatchMouseEvent", {"type": kind, "x": rect[0], "y": rect[1], "button": "left", "clickCount": 1})
    wait_frames(b)


def wait_change(b, expression, old, timeout_s=2.0):
    """The value of expression once it differs from old, or after
    timeout_s (a page may re-render on a timer)."""
    deadline = time.monotonic() + timeout_s
    while True:
        value = b.evaluate(expression)
        if value != old or time.monotonic() > deadline:
            return value
        time.sleep(0.05)


def set_filter(b, text):
    """Clears #bws-nodes-filter and types text, key by key."""
    b.evaluate("(() => { const f = document.getElementById('bws-nodes-filter'); f.focus(); f.select(); })()")
    b.call("Input.dispatchKeyEvent", {"type": "keyDown", "key": "Backspace", "code": "Backspace",
                                      "windowsVirtualKeyCode": 8})
    b.call("Input.dispatchKeyEvent", {"type": "keyUp", "key": "Backspace", "code": "Backspace",
                                      "windowsVirtualKeyCode": 8})
    for ch in text:
        b.call("Input.dispatchKeyEvent", {"type": "keyDown", "key": ch, "text": ch})
        b.call("Input.dispatchKeyEvent", {"type": "keyUp", "key": ch})
    wait_frames(b)
    return b.evaluate("window.bwsRows().map(r => r.textContent)")


def ordered(values, kind):
    """'ascending', 'descending' or None for a num column's values (cells
    without a number ignored); text columns are not judged."""
    if kind != "num":
        return "any"
    nums = []
    for v in values:
        m = re.search(r"[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?", v.replace(",", ""))
        if m:
            nums.append(float(m.group(0)))
    if all(a <= b for a, b in zip(nums, nums[1:])):
        return "ascending"
    if all(a >= b for a, b in zip(nums, nums[1:])):
        return "descending"
    return None


def check_table(b, page):
    info = b.evaluate(TABLE_JS)
    if info is None:
        page.absent("no table#bws-nodes")
        return
    if not info["sortable"]:
        page.fail("table#bws-nodes lacks class bws-sortable")
    if not info["heads"]:
        page.fail("table#bws-nodes has no th[data-sort]")
        return
    usable = [h for h in info["heads"] if h["distinct"] >= 2]
    if not usable:
        # One node (a real survey of this machine): no sort can change the first row.
        print(f"NOTE: {page.name}: sort not judged: {info['rows']} row(s), no column with 2 distinct values")
    else:
        head = next((h for h in usable if h["kind"] == "num"), usable[0])
        sel = f"document.querySelectorAll('#bws-nodes th[data-sort]')[{info['heads'].index(head)}]"
        column = f"window.bwsRows().map(r => window.bwsCell(r, {head['index']}))"
        top_row = "window.bwsRows()[0].textContent"
        before = b.evaluate(top_row)
        click(b, sel)
        first = wait_change(b, top_row, before)
        order1 = ordered(b.evaluate(column), head["kind"])
        click(b, sel)
        second = wait_change(b, top_row, first)
        order2 = ordered(b.evaluate(column), head["kind"])
        what = f"sort by '{head['text']}' ({head['kind']})"
        if first == before and second == before:
            page.fail(f"{what}: two clicks left the first row as it was")
        if first == second:
            page.fail(f"{what}: a second click did not change the first row")
        if order1 is None or order2 is None or (order1 != "any" and order1 == order2):
            page.fail(f"{what}: the column is not ordered, then reversed ({order1}, {order2})")
        print(f"{page.name}: {what}: first row {before[:40]!r} -> {first[:40]!r} -> {second[:40]!r}")
    if not b.evaluate("!!document.getElementById('bws-nodes-filter')"):
        page.absent("no input#bws-nodes-filter")
        return
    everything = b.evaluate("window.bwsRows().length")
    host = b.evaluate("window.bwsRows()[0].cells[0].textContent.trim()") if everything else ""
    if host:
        rows = set_filter(b, host)
        if not rows or any(host not in r for r in rows):
            page.fail(f"filter '{host}': {len(rows)} rows, not all naming it")
        rows = set_filter(b, "zz-no-such-node")
        if rows:
            page.fail(f"filter 'zz-no-such-node': {len(rows)} rows left")
        rows = set_filter(b, "")
        if len(rows) != everything:
            page.fail(f"filter cleared: {len(rows)} rows of {everything}")
        print(f"{page.name}: filter '{host}' and a name no row has: ok ({everything} rows)")


def check_verdicts(b, page, hosts):
    found = b.evaluate(FIND_HOSTS_JS % json.dumps(list(hosts)))
    if found is None:
        page.absent("no section#bws-verdicts")
        return
    top = b.evaluate("(() => { const v = document.getElementById('bws-verdicts');"
                     " const before = [...document.querySelectorAll('img, table, section')]"
                     ".filter(e => e !== v && (e.compareDocumentPosition(v) & Node.DOCUMENT_POSITION_FOLLOWING));"
                     " return [v.getBoundingClientRect().top + window.scrollY, before.length]; })()")
    if top[0] >= HEIGHT_PX or top[1]:
        page.fail(f"section#bws-verdicts is not at the top of <body> (at {top[0]:.0f} px, "
                  f"after {top[1]} image(s), table(s) or section(s))")
    need = min(len(hosts), FIRST_SCREEN_HOSTS)
    first_screen = [h for h in hosts if h in found and 0 <= found[h]["top"] < HEIGHT_PX]
    for h in hosts:
        if h not in found:
            page.fail(f"flagged host {h} not named (visibly) in #bws-verdicts")
    if len(first_screen) < need:
        late = [h for h in hosts if h not in first_screen]
        page.fail(f"flagged hosts below the first screen ({HEIGHT_PX} px): {', '.join(late[:5])}"
                  + (f" and {len(late) - 5} more" if len(late) > 5 else ""))
    print(f"{page.name}: {len(first_screen)} of {len(hosts)} flagged host(s) on the first screen")


def check_page(b, index_html, hosts, page, screenshot=None):
    """Opens index_html in a fresh tab of browser b and runs every check;
    page collects the findings."""
    started = time.monotonic()
    try:
        open_and_check(b, index_html, hosts, page, screenshot)
    except cdp.CdpError as e:
        page.fail(f"driving the page: {e}")
    for error in browser_errors(b.events):
        page.fail(error)
    print(f"{page.name}: checked in {time.monotonic() - started:.1f} s")


def open_and_check(b, index_html, hosts, page, screenshot):
    b.open_page()
    for domain in ("Runtime", "Log", "Page", "Network"):
        b.call(f"{domain}.enable")
    b.call("Emulation.setDeviceMetricsOverride", {"width": WIDTH_PX, "height": HEIGHT_PX,
                                                  "deviceScaleFactor": 1, "mobile": False})
    b.call("Page.navigate", {"url": "file://" + os.path.abspath(index_html)})
    b.wait_event("Page.loadEventFired", timeout_s=60)
    wait_frames(b)
    if screenshot:
        shot = b.call("Page.captureScreenshot", {"format": "png"}, timeout_s=60)
        with open(screenshot, "wb") as f:
            f.write(base64.b64decode(shot["data"]))
    check_verdicts(b, page, hosts)
    check_table(b, page)
    wait_frames(b)


def test_fixtures(b, work):
    """The driver's own test: it passes a good page and catches each fault."""
    failures = []
    flagged = ["node-007", "node-012"]
    rows = [(f"node-{i:03d}", 10.0 + (i * 37) % 11) for i in range(1, 30)]
    cases = [  # name, fixture options, fixture mode, a failure that must be found (None: none)
        ("good", {}, False, None),
        ("js-error", {"js_error": "\nundefinedFunction();"}, False, "exception"),
        ("console-error", {"js_error": "\nconsole.error('broken');"}, False, "console.error"),
        ("broken-sort", {"broken_sort": True}, False, "not ordered"),
        ("no-script", {"script": False}, False, ("two clicks left the first row", "filter 'zz-no-such-node'")),
        ("external-url", {"external": True}, False, "request leaves the machine"),
        ("flags-below-fold", {"filler_px": 1200}, False, "below the first screen"),
        ("no-contract", {"verdicts": False, "table": False}, False, "no section#bws-verdicts"),
        ("no-contract-fixture-mode", {"verdicts": False, "table": False}, True, None),
    ]
    for name, options, mode, expected in cases:
        page = Page(f"fixture {name}", mode)
        index = fixture_page(os.path.join(work, "fixture-" + name), flagged, rows, **options)
        check_page(b, index, flagged, page)
        if expected is None and page.failures:
            failures.append(f"fixture {name}: the driver failed a good page: {page.failures[0]}")
        for want in ((expected,) if isinstance(expected, str) else expected or ()):
            if not any(want in f for f in page.failures):
                failures.append(f"fixture {name}: the driver did not catch '{want}' (found: {page.failures[:2]})")
        if name == "no-contract-fixture-mode" and len(page.skipped) != 2:
            failures.append(f"fixture {name}: {len(page.skipped)} skipped checks listed, 2 expected")
    return failures


# ---- real reports ----

def flagged_hosts(survey):
    """The distinct hosts of /flags in file order (node rows: host names;
    link rows keep their a->b form)."""
    with h5py.File(survey, "r") as f:
        if "flags" not in f or f["flags"].shape[0] == 0:
            return []
        hosts = f["flags"]["host"]
    seen = []
    for h in hosts:
        h = h.decode() if isinstance(h, bytes) else str(h)
        if h not in seen:
            seen.append(h)
    return seen


def quick_survey(work, bwsurvey):
    """A real survey of this machine (STREAM and the load test, one process)
    with a /flags row for its host's Triad, so the verdicts have a host to
    show; and the plain survey (the synthetic file's template)."""
    plain = os.path.join(work, "survey.h5")
    if os.path.exists(plain):
        os.remove(plain)
    r = subprocess.run([bwsurvey, "--tests", "stream,load", "--quick", "--stream.elements", "1M",
                        "--load.elements", "100000", "--out", plain], capture_output=True, text=True, timeout=300)
    if r.returncode != 0:
        raise RuntimeError(f"bwsurvey exited {r.returncode}: {(r.stdout + r.stderr)[-300:]}")
    flagged = os.path.join(work, "survey-flagged.h5")
    shutil.copyfile(plain, flagged)
    with h5py.File(flagged, "r+") as f:
        host = f["nodes/table"][0]["host"]
        row = np.zeros(1, dtype=f["flags"].dtype)
        row["host"], row["metric"], row["value"], row["unit"] = host, TRIAD.encode(), 9e9, b"B/s"
        del f["flags"]
        f.create_dataset("flags", data=row)
    return flagged, plain


def synthetic(source, work, template, nodes, bwreport):
    """bench/synthetic_survey.py's file of `nodes` nodes from the real survey
    (its slow nodes judged by bwreport, so /flags has rows)."""
    out = os.path.join(work, f"synthetic-{nodes}.h5")
    r = subprocess.run([sys.executable, os.path.join(source, "bench", "synthetic_survey.py"), template, out,
                        "--nodes", str(nodes), "--links-nodes", "0", "--bwreport", bwreport],
                       capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        raise RuntimeError(f"synthetic_survey.py exited {r.returncode}: {(r.stdout + r.stderr)[-300:]}")
    return out


WIDENED_FACTORS = [1.00, 0.98, 1.03, 1.01, 0.97, 1.02, 0.99, 0.50]  # the last: flagged at 50 %


def widened(survey, work):
    """The real survey under 8 host names (its node and STREAM rows copied,
    bandwidths times WIDENED_FACTORS), with a /flags row for the slow one,
    so the node table has rows to sort."""
    path = os.path.join(work, "survey-widened.h5")
    shutil.copyfile(survey, path)
    with h5py.File(path, "r+") as f:
        nodes, stream = f["nodes/table"][...], f["stream/nodes"][...]
        first = nodes[0]["host"]
        template = stream[stream["host"] == first]
        new_nodes, new_stream = [], []
        for i, factor in enumerate(WIDENED_FACTORS):
            host = f"node{i + 1:02d}".encode()
            row = nodes[0].copy()
            row["host"], row["node_index"] = host, i
            new_nodes.append(row)
            for t in template:
                t = t.copy()
                t["host"], t["bandwidth"] = host, t["bandwidth"] * factor
                new_stream.append(t)
        for name, rows, dtype in (("nodes/table", new_nodes, nodes.dtype), ("stream/nodes", new_stream, stream.dtype)):
            f[name].resize((len(rows),))
            f[name][...] = np.array(rows, dtype=dtype)
        triad = {t["host"]: t["bandwidth"] for t in new_stream if t["kernel"] == b"Triad" and t["type"] == b"double"}
        value = triad.get(b"node08", 1e9)
        median = float(np.median([v for h, v in triad.items() if h != b"node08"] or [2e9]))
        flag = np.zeros(1, dtype=f["flags"].dtype)
        flag["host"], flag["metric"], flag["unit"], flag["cohort_nodes"] = b"node08", TRIAD.encode(), b"B/s", 8
        flag["value"], flag["median"], flag["threshold"] = value, median, 0.75 * median
        flag["percent_of_median"], flag["rule"], flag["status"] = 100 * value / median, b"fraction", b"confirmed"
        flag["reason"], flag["retest_median"] = b"below 0.75 x cohort median", value
        flag["retest_values"] = f"{value:.6g}".encode()
        del f["flags"]
        f.create_dataset("flags", data=flag, maxshape=(None,))
    return path


def test_report(b, work, bwreport, name, survey, fixture_mode, screenshots):
    page = Page(name, fixture_mode)
    out = os.path.join(work, "report-" + name)
    shutil.rmtree(out, ignore_errors=True)
    r = subprocess.run([bwreport, "plot", survey, "-o", out], capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        page.fail(f"bwreport plot exited {r.returncode}: {(r.stdout + r.stderr)[-300:]}")
        return page
    shot = os.path.join(work, f"report-{name}.png")
    check_page(b, os.path.join(out, "index.html"), flagged_hosts(survey), page, shot)
    if screenshots:
        os.makedirs(screenshots, exist_ok=True)
        shutil.copyfile(shot, os.path.join(screenshots, f"report-{name}.png"))
    return page


def main():
    p = argparse.ArgumentParser()
    p.add_argument("source")
    p.add_argument("work")
    p.add_argument("bwsurvey")
    p.add_argument("bwreport")
    p.add_argument("--survey", action="append", default=[], metavar="NAME=FILE",
                   help="also check the report of FILE (screenshot report-NAME.png)")
    p.add_argument("--screenshots", metavar="DIR", help="copy the screenshots into DIR (docs/images)")
    p.add_argument("--synthetic-nodes", type=int, default=0, metavar="N",
                   help="also check the report of a synthetic survey of N nodes (bench/synthetic_survey.py on "
                        "the real survey; default 0: none)")
    p.add_argument("--fixture-mode", action="store_true",
                   default=os.environ.get("BWS_BROWSER_FIXTURE_MODE", "") not in ("", "0"))
    a = p.parse_args()
    binary = cdp.find_chromium()
    if not binary:
        print("browser_test: chromium not installed: skipped")
        return 77
    os.makedirs(a.work, exist_ok=True)
    # ctest's timeout sends SIGTERM: leave through the with, which kills the browser.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    started = time.monotonic()
    try:
        browser = cdp.Browser(binary, WIDTH_PX, HEIGHT_PX)
    except cdp.CdpError as e:
        print(f"FAILED: chromium ({binary}) did not start: {e}")
        return 1
    with browser as b:
        failures = test_fixtures(b, a.work)
        surveys = []
        try:
            real, plain = quick_survey(a.work, a.bwsurvey)
            surveys += [("real", real), ("real-widened", widened(real, a.work))]
            if a.synthetic_nodes:
                started_synthetic = time.monotonic()
                surveys.append((f"synthetic-{a.synthetic_nodes}",
                                synthetic(a.source, a.work, plain, a.synthetic_nodes, a.bwreport)))
                print(f"synthetic file of {a.synthetic_nodes} nodes: {time.monotonic() - started_synthetic:.1f} s")
        except (RuntimeError, subprocess.TimeoutExpired) as e:
            failures.append(f"real: {e}")
        for item in a.survey:
            name, _, path = item.partition("=")
            surveys.append((name, path))
        for name, survey in surveys:
            page = test_report(b, a.work, a.bwreport, name, survey, a.fixture_mode, a.screenshots)
            failures += page.failures
            for s in page.skipped:
                print("SKIPPED:", s)
    print(f"browser_test: {time.monotonic() - started:.1f} s in all")
    for f in failures:
        print("FAILED:", f)
    print("browser_test:", "FAILED" if failures else "passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
