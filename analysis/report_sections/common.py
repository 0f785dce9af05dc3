"""What every section uses: reading tables from the file, text cells,
units, host ordering, and the Section record the page is built from.

Only the file is read; numbers bwsurvey stored are shown as stored (B/s is
divided by 1e9 for GB/s, seconds scaled for display), never recomputed."""
import dataclasses
import functools
import os
import re
import resource

import numpy as np


@dataclasses.dataclass
class Table:
    """A summary table for the HTML page."""
    caption: str
    header: list
    rows: list
    note: str = ""


@dataclasses.dataclass
class Section:
    """One part of the report: a title, the PNG it drew (a file name in the
    output directory, or None) and the tables shown with it."""
    title: str
    png: str = None
    tables: list = dataclasses.field(default_factory=list)
    notes: list = dataclasses.field(default_factory=list)
    # Optional, for the page's own blocks (node_table.py): markup the report
    # made (never text from the file unescaped), shown after the tables;
    # inline scripts (each included once per page); (file, text) links.
    html: str = ""
    scripts: list = dataclasses.field(default_factory=list)
    links: list = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class Options:
    out_dir: str
    prefix: str = ""       # file-name prefix when several files are reported
    kernel_ai: float = None  # --ai: a kernel's FLOP/byte for the roofline plot
    precision: str = "double"  # --type: which roofline ceilings are drawn
    output: object = None  # file_guard.OutputDirectory of out_dir: every file is written through it

    # The report's files: written through the output (file_guard.py), into
    # its scratch folder, moved into out_dir when the report is whole.
    def put_text(self, name, text):
        self.output.put_text(self.prefix + name, text)

    def text_file(self, name, newline=None):
        return self.output.text_file(self.prefix + name, newline=newline)

    def save_figure(self, fig, name, **kwargs):
        self.output.save_figure(fig, self.prefix + name, **kwargs)

    def written_text(self, name):
        """The report's file `name` as this run wrote it so far, else None."""
        return self.output.written_text(self.prefix + name)

    def png_name(self, name):
        return self.prefix + name


_UNPRINTABLE = re.compile("[\x00-\x1f\x7f\ud800-\udfff]")


def printable(value):
    """Text from the file as the report shows it: control characters as C
    escapes (\\n, \\x1b), as bwreport's printers show them, so a host name
    cannot break a line, a label or the terminal."""
    if not _UNPRINTABLE.search(value):  # nearly every cell: no per-character loop
        return value
    out = []
    for ch in value:
        code = ord(ch)
        if ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\t":
            out.append("\\t")
        elif code < 0x20 or code == 0x7F or 0xD800 <= code <= 0xDFFF:
            out.append(f"\\x{code & 0xFF:02x}")
        else:
            out.append(ch)
    return "".join(out)


def text(value):
    """A text cell or attribute (bytes or str in the file) as printable str."""
    if isinstance(value, (bytes, str)):
        return _cached_text(value)
    return _text(value)


@functools.lru_cache(maxsize=1 << 16)
def _cached_text(value):
    # At 10,000 nodes the sections ask for the same few thousand host and
    # routine names millions of times (issue 17: 22 s of 89 s uncached).
    return _text(value)


def _text(value):
    if isinstance(value, bytes):
        # A byte that is not UTF-8 as \xNN: bwreport's rule (printable_text,
        # and its exports), so a host reads the same in both.
        value = value.split(b"\0", 1)[0].decode("utf-8", "backslashreplace")
    elif not isinstance(value, str):
        value = str(value)
    return printable(value)


def plot_text(value, limit=60):
    """Text for a plot title or legend: printable, at most `limit` characters
    (a 10 kB host name must not fill the figure). Math text is switched off
    (survey_report.py), so '$' is drawn as it is."""
    value = printable(value)
    return value if len(value) <= limit else value[:limit - 3] + "..."


# Reads of up to this many bytes are allowed whatever the storage says (a
# table with no rows, chunks never written); beyond it a dataset stored
# unfiltered must store what it declares, as bwreport's reader requires
# (lib/h5/ReadChecks.hpp). A filtered (compressed) one has no such bound: a
# table of repeated host names deflates more than 100x, so it is bounded,
# as there, by a quarter of the memory this process may use.
SMALL_READ_BYTES = 4 << 20


def usable_memory_bytes():
    """Physical memory, or the address-space or data limit when lower."""
    try:
        usable = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError):
        usable = 4 << 30
    for limit in (resource.RLIMIT_AS, resource.RLIMIT_DATA):
        soft = resource.getrlimit(limit)[0]
        if soft != resource.RLIM_INFINITY:
            usable = min(usable, soft)
    return usable


def check_read_size(obj, path):
    """Raises ValueError when the dataset declares more bytes than the file
    stores for it (a damaged or hostile file claiming 2^40 rows), or, when
    it is compressed, more than one read may bring into memory."""
    declared = int(obj.size) * int(obj.dtype.itemsize)
    if obj.id.get_create_plist().get_nfilters() > 0:
        limit = usable_memory_bytes() // 4
        if declared > limit:
            raise ValueError(f"/{path}: declares {obj.size} elements of {obj.dtype.itemsize} bytes, more than one "
                             f"read may bring into memory ({limit} bytes, a quarter of the usable memory)")
        return
    stored = min(int(obj.id.get_storage_size()), os.path.getsize(obj.file.filename))
    if declared > max(SMALL_READ_BYTES, stored):
        raise ValueError(f"/{path}: declares {obj.size} elements of {obj.dtype.itemsize} bytes, more than the file "
                         f"stores for it ({stored} bytes)")


def read_table(group, path):
    """The structured array at path (relative to group), or None when the
    table is not in the file (a test that did not run)."""
    if path not in group:
        return None
    obj = group[path]
    if not hasattr(obj, "dtype") or obj.dtype.names is None:
        return None
    check_read_size(obj, path)
    return obj[...]


def column_units(group, path):
    """{column: unit} from the table's column_units attribute ({} without it)."""
    obj = group[path]
    names = obj.dtype.names or ()
    units = obj.attrs.get("column_units", [])
    return {n: text(u) for n, u in zip(names, units)}


class UnitMismatch(ValueError):
    pass


def check_units(group, path, expected):
    """Raises UnitMismatch when a column's stored unit is not the one the
    report scales it by (e.g. bandwidth in B/s, divided by 1e9 for GB/s). A
    table without column_units is taken as documented."""
    units = column_units(group, path)
    for column, unit in expected.items():
        if column in units and units[column] != unit:
            raise UnitMismatch(f"/{path}: column {column} is in {units[column]!r}; this report reads {unit!r}")


def has_columns(table, *names):
    return table is not None and all(n in table.dtype.names for n in names)


_DIGITS = re.compile(r"([0-9]+)")


@functools.lru_cache(maxsize=1 << 16)
def host_key(host):
    """"node2" before "node10": ASCII digit runs compare as numbers (split
    leaves them at the odd positions, so keys always compare str with str and
    int with int, whatever other characters the name holds)."""
    return [int(p) if i % 2 else p for i, p in enumerate(_DIGITS.split(host))]


def giga(x):
    return "n/a" if x is None or not np.isfinite(x) else f"{x / 1e9:.2f}"


def fixed(x, decimals=2):
    return "n/a" if x is None or not np.isfinite(x) else f"{x:.{decimals}f}"


def capped(rows, limit=200):
    """At most `limit` rows, and a note when some were left out."""
    if len(rows) <= limit:
        return rows, ""
    return rows[:limit], f"first {limit} of {len(rows)} rows shown"


def save(fig, options, name):
    """Writes the figure as a PNG and closes it; returns the file name."""
    options.save_figure(fig, name, dpi=100)
    import matplotlib.pyplot as plt
    plt.close(fig)
    return options.png_name(name)
