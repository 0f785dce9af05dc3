"""index.html: what needs action first (<section id="bws-verdicts">), then
the cohort summary and the table of all nodes, then every section's picture
and tables, one block per file. Self-contained: inline style and script,
no external resource (it opens from file:// on a machine with no network)."""
import html

PAGE_STYLE = """
body { font-family: sans-serif; margin: 2em; max-width: 1400px; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em 0; font-size: 0.9em; }
th, td { border: 1px solid #bbb; padding: 2px 8px; text-align: right; }
th { background: #eee; } td:first-child, th:first-child { text-align: left; }
caption { text-align: left; font-weight: bold; padding: 4px 0; }
img { max-width: 100%; border: 1px solid #ddd; }
.note { color: #444; font-size: 0.9em; }
#bws-verdicts { border: 2px solid #c33; padding: 0 1em; margin-bottom: 2em; }
#bws-verdicts caption { color: #a00; }
tr.bws-flagged td { background: #fde8e8; }
table.bws-sortable th { cursor: pointer; }
.bws-wide { overflow-x: auto; }
"""

UNITS_NOTE = ("Units: bandwidth in GB/s (10^9 B/s) throughout, except where pmbw's own convention is used: "
              "there GiB/s (2^30 B/s), and the axis says so; sizes in KiB/MiB/GiB (2^10, 2^20, 2^30 B); "
              "latencies in µs or ns, as labelled.")


def table_html(t):
    # A wide table scrolls in its own box, not the whole page.
    out = [f'<div class="bws-wide"><table><caption>{html.escape(t.caption)}</caption><tr>']
    out += [f"<th>{html.escape(str(h))}</th>" for h in t.header]
    out.append("</tr>")
    for row in t.rows:
        out.append("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in row) + "</tr>")
    out.append("</table></div>")
    if t.note:
        out.append(f'<p class="note">{html.escape(t.note)}</p>')
    return "\n".join(out)


def section_html(s, level="h2"):
    parts = [f"<{level}>{html.escape(s.title)}</{level}>"]
    if s.png:
        parts.append(f'<p><img src="{html.escape(s.png)}" alt="{html.escape(s.title)}"></p>')
    for note in s.notes:
        parts.append(f'<p class="note">{html.escape(note)}</p>')
    parts += [table_html(t) for t in s.tables]
    for target, label in getattr(s, "links", []):
        parts.append(f'<p><a href="{html.escape(target)}">{html.escape(label)}</a></p>')
    if getattr(s, "html", ""):
        parts.append(s.html)
    return parts


def blocks_html(blocks):
    parts = []
    for heading, sections in blocks:
        if heading:
            parts.append(f"<h1>{html.escape(heading)}</h1>")
        for s in sections:
            parts += section_html(s)
    return parts


def write_page(output, title, blocks, verdicts=(), front=()):
    """blocks: [(heading, [Section])], the details. verdicts: [Section], one
    per file, in <section id="bws-verdicts"> right after the title; front:
    [(heading, [Section])] between them and the details (cohort summary,
    node table)."""
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
             f"<title>{html.escape(title)}</title><style>{PAGE_STYLE}</style></head><body>",
             f"<h1>{html.escape(title)}</h1>"]
    if verdicts:
        parts.append('<section id="bws-verdicts">')
        for s in verdicts:
            parts += section_html(s)
        parts.append(f'<p class="note">{html.escape(UNITS_NOTE)}</p>')
        parts.append("</section>")
    parts += blocks_html(front)
    parts += blocks_html(blocks)
    scripts = []
    for _, sections in list(front) + list(blocks):
        for s in sections:
            scripts += [code for code in getattr(s, "scripts", []) if code not in scripts]
    for s in verdicts:
        scripts += [code for code in getattr(s, "scripts", []) if code not in scripts]
    for code in scripts:
        parts.append("<script>" + code.replace("</", "<\\/") + "</script>")
    parts.append("</body></html>")
    # Through the report's file_guard.OutputDirectory: OUT/index.html when committed.
    output.put_text("index.html", "\n".join(parts) + "\n")
    return output.target("index.html")
