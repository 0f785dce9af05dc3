"""Fixture pages for browser_test.py: a tiny index.html written by hand
to the report page's contract (<section id="bws-verdicts"> first naming the
flagged hosts, table.bws-sortable#bws-nodes with th[data-sort], the
#bws-nodes-filter box, a minimal inline sort and filter script), and the
same with one fault each, so the driver is seen to catch it."""
import os

SORT_SCRIPT = """
document.querySelectorAll('table.bws-sortable th[data-sort]').forEach(th => {
  th.addEventListener('click', () => {
    const body = th.closest('table').tBodies[0], i = th.cellIndex, num = th.dataset.sort === 'num';
    const up = th.dataset.dir !== 'asc'; th.dataset.dir = up ? 'asc' : 'desc';
    const key = r => num ? parseFloat(r.cells[i].dataset.value ?? r.cells[i].textContent) : r.cells[i].textContent;
    [...body.rows].sort((a, b) => { const x = key(a), y = key(b); return (x < y ? -1 : x > y ? 1 : 0) * (up ? 1 : -1); })
      .forEach(r => body.appendChild(r));%s
  });
});
document.getElementById('bws-nodes-filter').addEventListener('input', e => {
  const q = e.target.value.toLowerCase();
  document.querySelectorAll('#bws-nodes tbody tr').forEach(r => { r.hidden = !r.textContent.toLowerCase().includes(q); });
});
"""


def fixture_page(directory, flagged, rows, verdicts=True, table=True, js_error="", broken_sort=False,
                 external=False, filler_px=0, script=True):
    os.makedirs(directory, exist_ok=True)
    parts = ["<!DOCTYPE html><html><head><meta charset='utf-8'><title>fixture</title></head><body>"]
    if verdicts:
        parts.append("<section id='bws-verdicts'><h2>Verdicts</h2>"
                     f"<div style='height:{filler_px}px'></div><ul>"
                     + "".join(f"<li><b>{h}</b> stream.triad 9.0 GB/s (75 % of the cohort median)</li>"
                               for h in flagged) + "</ul></section>")
    if external:
        parts.append("<img src='https://example.invalid/logo.png' alt=''>")
    if table:
        parts.append("<input id='bws-nodes-filter' placeholder='filter'>"
                     "<table class='bws-sortable' id='bws-nodes'><thead><tr><th data-sort='text'>host</th>"
                     "<th data-sort='num'>Triad GB/s</th></tr></thead><tbody>"
                     + "".join(f"<tr><td>{h}</td><td data-value='{v}'>{v:.1f}</td></tr>" for h, v in rows)
                     + "</tbody></table>")
        extra = "\n      body.appendChild(body.rows[0]);" if broken_sort else ""
        if script:
            parts.append("<script>" + SORT_SCRIPT % extra + js_error + "</script>")
    parts.append("</body></html>")
    with open(os.path.join(directory, "index.html"), "w") as f:
        f.write("".join(parts))
    return os.path.join(directory, "index.html")
