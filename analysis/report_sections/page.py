"""index.html: every section's picture and tables, one block per file."""
import html
import os

PAGE_STYLE = """
body { font-family: sans-serif; margin: 2em; max-width: 1400px; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em 0; font-size: 0.9em; }
th, td { border: 1px solid #bbb; padding: 2px 8px; text-align: right; }
th { background: #eee; } td:first-child, th:first-child { text-align: left; }
caption { text-align: left; font-weight: bold; padding: 4px 0; }
img { max-width: 100%; border: 1px solid #ddd; }
.note { color: #444; font-size: 0.9em; }
"""


def table_html(t):
    out = [f"<table><caption>{html.escape(t.caption)}</caption><tr>"]
    out += [f"<th>{html.escape(str(h))}</th>" for h in t.header]
    out.append("</tr>")
    for row in t.rows:
        out.append("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in row) + "</tr>")
    out.append("</table>")
    if t.note:
        out.append(f'<p class="note">{html.escape(t.note)}</p>')
    return "\n".join(out)


def write_page(out_dir, title, blocks):
    """blocks: [(heading, [Section])]."""
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
             f"<title>{html.escape(title)}</title><style>{PAGE_STYLE}</style></head><body>",
             f"<h1>{html.escape(title)}</h1>"]
    for heading, sections in blocks:
        if heading:
            parts.append(f"<h1>{html.escape(heading)}</h1>")
        for s in sections:
            parts.append(f"<h2>{html.escape(s.title)}</h2>")
            if s.png:
                parts.append(f'<p><img src="{html.escape(s.png)}" alt="{html.escape(s.title)}"></p>')
            for note in s.notes:
                parts.append(f'<p class="note">{html.escape(note)}</p>')
            parts += [table_html(t) for t in s.tables]
    parts.append("</body></html>")
    path = os.path.join(out_dir, "index.html")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(parts) + "\n")
    return path
