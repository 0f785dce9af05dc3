"""The run itself: the root attributes, which groups the file holds and
which it does not (a survey of only some tests), the checks that did not
pass, and the node flags when the file has them."""
from .common import Section, Table, capped, has_columns, read_table, text

ATTRIBUTES = ["status", "tool_version", "git_commit", "created_utc", "finished_utc", "n_nodes", "n_ranks", "tests",
              "completed_phases", "command_line", "mpi_library", "compiler"]
# What this module draws itself (problems()), besides the families' tables.
OWN = {"flags": "node flags"}


def overview(f, path, drawn):
    """drawn: {table: what is drawn from it} of the table families (catalog.py)."""
    drawn = {**drawn, **OWN}
    rows = [[name, text(f.attrs[name])] for name in ATTRIBUTES if name in f.attrs]
    present = [f"{what} (/{group})" for group, what in drawn.items() if group in f]
    missing = [f"{what} (/{group})" for group, what in drawn.items() if group not in f]
    notes = ["In this file: " + ("; ".join(present) if present else "none of the report's tables") + "."]
    if missing:
        notes.append("Not in this file (not run, or from a later version): " + "; ".join(missing) + ".")
    return Section(title=f"Run: {path}", tables=[Table("root attributes", ["attribute", "value"], rows)], notes=notes)


def problems(f):
    tables = []
    checks = read_table(f, "checks")
    if checks is not None and has_columns(checks, "check", "subject", "kind", "passed"):
        rows = [[text(r["check"]), text(r["subject"]), text(r["kind"]), f"{r['measured']:.6g}",
                 f"{r['lower']:.6g}..{r['upper']:.6g} {text(r['unit'])}"] for r in checks if not r["passed"]]
        rows, note = capped(rows)
        passed = int(sum(1 for r in checks if r["passed"]))
        tables.append(Table(f"/checks not passed ({passed} of {len(checks)} passed)",
                            ["check", "subject", "kind", "measured", "allowed"], rows, note))
    flags = read_table(f, "flags")
    if flags is not None and len(flags):
        names = [n for n in ("host", "metric", "value", "median", "mad", "robust_z", "percent_of_median", "reason")
                 if n in flags.dtype.names]
        rows = [[text(r[n]) if flags.dtype[n].kind in "SUO" else f"{r[n]:.4g}" for n in names] for r in flags]
        rows, note = capped(rows)
        tables.append(Table("/flags", names, rows, note))
    return Section(title="Checks and flags", tables=tables) if tables else None
