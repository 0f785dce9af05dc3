#!/usr/bin/python3
"""The survey report: PNGs and an index.html from bwsurvey HDF5 files.

    survey_report.py -o DIR [--ai X] [--type double|float] [--history ARCHIVE] FILE...
    (or: bwreport plot FILE... -o DIR [--ai X] [--type double|float] [--history ARCHIVE])

Reads only the files (h5py) and draws what they hold: STREAM Triad per node
with the flag band, BS1-BS7 sweeps with their fits and B0.8, pmbw scan
bandwidth and permutation latency, b_eff per message size with its model,
the b_eff scaling of a scaling study (a merged file, or several files), and
the roofline per node (with the kernel's AI when --ai is given), and any
other benchmark's tables (report_sections/generic.py); with --history, the
flagged nodes' series from a history archive and the change points of the
survey's nodes (report_sections/history.py). The sections are
found from the tables in the file (report_sections/catalog.py). A group
that is not in a file is left out and named as missing. Needs Debian's
python3-h5py and python3-matplotlib (scripts/install-deps.sh).
Every file goes in and out through file_guard.py: the inputs (the surveys,
--history, --history-changes) must be regular files; the report's files are
written into a scratch folder inside OUT and moved into place when the whole
report is drawn, never over an input and never through a symbolic link (or
onto a FIFO, a device, a folder) that sits in OUT under an output's name:
such a name is refused with exit 2 and OUT is left as it was.
Exit status: 0 written, 2 a usage error or a file that is not a readable
survey (missing, not HDF5, a table of the wrong shape), 1 anything else.
Every error is one line on stderr, never a traceback."""
import argparse
import logging
import os
import sys
import warnings

try:
    import h5py
    import matplotlib
except ImportError as missing:
    sys.exit(f"survey_report: error: {missing.name} is missing: install python3-h5py and python3-matplotlib "
             "(scripts/install-deps.sh), or run Debian's /usr/bin/python3")

matplotlib.use("Agg")  # files only, no display
# Text from the file (host names) is drawn as it is: '$' is not math.
matplotlib.rcParams["text.parse_math"] = False
# A glyph the font lacks (a host name in another script) is drawn as a box,
# not announced on stderr: stderr holds at most the one error line.
warnings.simplefilter("ignore")
logging.getLogger("matplotlib").setLevel(logging.ERROR)

import file_guard  # noqa: E402
import history_archive  # noqa: E402
from report_sections import catalog, generic, history, overview, scaling  # noqa: E402
from report_sections import node_metrics, node_table, verdicts  # noqa: E402
from report_sections.common import Options, UnitMismatch  # noqa: E402
from report_sections.page import write_page  # noqa: E402

SCHEMA_MAJORS = ("1", "2", "3")  # 1.x: the device STREAM rows in /ocl/stream (report_sections/stream.py reads both)


class OneLineParser(argparse.ArgumentParser):
    """argparse's errors as one line (its own adds the usage above it)."""

    def error(self, message):
        print(f"survey_report: error: {one_line(message)}", file=sys.stderr)
        sys.exit(2)


def one_line(message, limit=600):
    """A message as one bounded line: control characters escaped."""
    from report_sections.common import printable
    message = printable(str(message))
    return message if len(message) <= limit else message[:limit - 3] + "..."


def parse_args(argv):
    p = OneLineParser(description="PNGs and index.html of bwsurvey HDF5 files")
    p.add_argument("-o", "--out", required=True, help="output directory (created)")
    p.add_argument("--ai", type=float, help="a kernel's arithmetic intensity (FLOP/byte) for the roofline plot")
    p.add_argument("--type", choices=["double", "float"], default="double",
                   help="which roofline ceilings are drawn (default double)")
    p.add_argument("--history", metavar="ARCHIVE",
                   help="a history archive (bwreport history add): adds the History section "
                        "(report_sections/history.py)")
    p.add_argument("--history-changes", metavar="TSV",
                   help="change points (bwreport history changes --format tsv) for the History section "
                        "(default: OUT/history_changes.tsv, which bwreport plot --history writes)")
    p.add_argument("files", nargs="+", help="bwsurvey HDF5 files")
    args = p.parse_args(argv)
    if args.ai is not None and not args.ai > 0:
        p.error("--ai: must be > 0 (FLOP/byte)")
    if args.history_changes and not args.history:
        p.error("--history-changes: needs --history ARCHIVE")
    return args


def open_survey(path):
    f = h5py.File(path, "r")
    version = f.attrs.get("schema_version")
    if version is None:
        raise ValueError(f"{path}: not a bwsurvey file (no schema_version)")
    version = version.decode() if isinstance(version, bytes) else str(version)
    if version.split(".")[0] not in SCHEMA_MAJORS:
        raise ValueError(f"{path}: schema {version}; this report reads {' and '.join(m + '.x' for m in SCHEMA_MAJORS)}")
    return f


def fail(code, message):
    print(f"survey_report: error: {one_line(message)}", file=sys.stderr)
    return code


def changes_path(args):
    """The change points the History section reads: --history-changes, else
    OUT/history_changes.tsv (an input then, not written)."""
    return args.history_changes or os.path.join(args.out, history.CHANGES_FILE)


def check_inputs(args):
    """Every input a regular file before anything is opened or made."""
    for path in args.files:
        file_guard.require_regular_input("FILE", path)
    if args.history:
        file_guard.require_regular_input("--history", args.history)
    if args.history_changes:
        file_guard.require_regular_input("--history-changes", args.history_changes)
    inputs = list(args.files)
    if args.history:
        inputs += [args.history, changes_path(args)]
    return inputs


def main(argv):
    args = parse_args(argv)
    try:
        inputs = check_inputs(args)
        if args.history:
            history_archive.open_archive(args.history).close()
        output = file_guard.OutputDirectory(args.out, inputs)
    except file_guard.UsageError as e:
        return fail(2, e)
    except history_archive.ArchiveError as e:
        return fail(2, f"--history: {e}")
    with output:  # leaving it by an exception, nothing of the run stays in OUT
        code, note = read_and_write(args, output)
        if code != 0:
            output.discard()
            return code
        try:
            output.commit()
        except file_guard.UsageError as e:  # OUT changed while the report was drawn
            output.discard()
            return fail(2, e)
        except OSError as e:
            output.discard()
            return fail(1, f"-o: {e.strerror or e}")
    print(f"{output.target('index.html')}: {note}")
    return 0


def read_and_write(args, output):
    """(0, the summary line) when the report is drawn, else (exit status, None)."""
    files = []
    try:
        for path in args.files:
            files.append((path, open_survey(path)))
        return 0, write_report(args, files, output)
    except file_guard.UsageError as e:  # an output name that may not be written
        return fail(2, e), None
    except UnitMismatch as e:
        return fail(1, e), None
    except node_metrics.BwreportRefused as e:  # the file is bad input: bwreport's own line
        return fail(2, e), None
    except (OSError, ValueError, KeyError, TypeError, IndexError, UnicodeError, MemoryError) as e:
        # What a file that is not a readable survey raises in h5py and numpy
        # (a truncated file, a table with other columns or types).
        return fail(2, f"{type(e).__name__}: {e}"), None
    except Exception as e:  # noqa: BLE001 - one line, never a traceback
        return fail(1, f"{type(e).__name__}: {e}"), None
    finally:
        for _, f in files:
            try:
                f.close()
            except Exception:  # noqa: BLE001
                pass


def copy_changes(args, output):
    """The change points given with --history-changes become part of the
    report (OUT/history_changes.tsv: bwreport plot --history hands them over
    this way), unless they are that file already."""
    if not (args.history and args.history_changes):
        return
    target = output.target(history.CHANGES_FILE)
    if os.path.lexists(target) and os.path.samefile(target, args.history_changes) and not os.path.islink(target):
        return
    output.put_bytes(history.CHANGES_FILE, file_guard.read_input("--history-changes", args.history_changes))


def write_report(args, files, output):
    """The page's order: what needs action (every file's verdicts), each
    file's cohort summary and node table, then the details per file."""
    blocks, pngs, verdict_sections, front = [], [], [], []
    families = catalog.families()
    several = len(files) > 1
    for i, (path, f) in enumerate(files):
        prefix = f"{i + 1}_{os.path.splitext(os.path.basename(path))[0]}_" if several else ""
        options = Options(out_dir=args.out, prefix=prefix, kernel_ai=args.ai, precision=args.type, output=output)
        view = node_metrics.node_view(f)
        verdict_sections.append(verdicts.verdict_section(
            f, path, view, f"What needs action: {path}" if several else "What needs action"))
        summary = [verdicts.cohort_summary(view)] if view.stats else []
        nodes = node_table.section(view, options, "bws-nodes" if i == 0 else f"bws-nodes-{i + 1}")
        if nodes:
            summary.append(nodes)
        if summary:
            front.append((f"Summary: {path}" if several else "", summary))
        sections = [overview.overview(f, path, catalog.drawn_tables(families))]
        for family in families:
            if catalog.present(family, f):
                sections += family.sections(f, options)
        sections += generic.sections(f, options, catalog.claimed_groups(families))
        if args.history:
            sections += history.sections(f, path, options, args.history, changes_path(args))
        extra = overview.problems(f)
        if extra:
            sections.append(extra)
        blocks.append((path if several else "", sections))
    study = scaling.sections(files, Options(out_dir=args.out, kernel_ai=args.ai, precision=args.type, output=output))
    if study:
        blocks.append(("Across the runs" if several else "", study))
    for _, sections in blocks:
        pngs += [s.png for s in sections if s.png]
    copy_changes(args, output)
    write_page(output, "bwsurvey report", blocks, verdicts=verdict_sections, front=front)
    return f"{len(pngs)} plots ({', '.join(pngs) if pngs else 'none: no measured tables in the file'})"


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except KeyboardInterrupt:
        sys.exit(fail(1, "interrupted"))
