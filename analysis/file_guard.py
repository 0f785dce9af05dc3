"""One way in and out for the report's files: the Python twin of
lib/core/FileGuard.hpp, so the rules hold for survey_report.py and every
report_sections module at once.

Inputs: opened only when os.stat has found a regular file (a FIFO is never
opened, so nothing blocks; a device is never touched), checked again on the
open descriptor and read within a stated bound.

Outputs: an OutputDirectory stages every file of the report in a fresh
scratch folder inside the report's folder (tempfile.mkdtemp: an unpredictable
name) and commit() moves each onto its name with os.replace, which replaces
a name and never writes through a link that sits there. A file the report
writes is never one of its inputs (device and inode, through any link), and
an existing name that is not a regular file (a symbolic link, a FIFO, a
device, a socket, a folder) is refused whatever it points to: exit 2 and one
line, before anything in the folder has changed. An existing regular file is
replaced only when it is recognisably the report's own kind (a PNG for .png,
text for the others, or empty): the report's folder is the report's, written
again by every run. A report that fails leaves the folder as it was (the
folders it made are removed again when empty).

Every refusal is a UsageError: one line naming the option and what is
allowed; the scripts exit 2 for it."""
import os
import stat
import tempfile

MAX_TEXT_INPUT_BYTES = 64 << 20  # a change-point TSV, a page template: written by bwreport or by hand
_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


class UsageError(Exception):
    """A refused path: the message is one line; exit status 2."""


def _kind_noun(mode):
    for test, noun in ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISLNK, "a symbolic link")):
        if test(mode):
            return noun
    return "a regular file" if stat.S_ISREG(mode) else "not a file that can be read"


def _quoted(path):
    from report_sections.common import printable  # the report's one escaping rule
    text = printable(os.fsdecode(path))
    return "'" + (text if len(text) <= 200 else text[:197] + "...") + "'"


def regular_file_problem(path):
    """None when `path` names a regular file (links followed), else what it
    is instead ("does not exist", "is a FIFO", ...). Opens nothing."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return "does not exist"
    except OSError as e:
        return f"cannot be read: {e.strerror}"
    return None if stat.S_ISREG(st.st_mode) else f"is {_kind_noun(st.st_mode)}"


def require_regular_input(label, path):
    """UsageError unless `path` is a regular file (links followed). Opens
    nothing: call it before a library opens a file by name (h5py, sqlite3)."""
    problem = regular_file_problem(path)
    if problem:
        raise UsageError(f"{label}: {_quoted(path)} {problem}; allowed: a regular file")


def read_input(label, path, max_bytes=MAX_TEXT_INPUT_BYTES):
    """The bytes of a regular file, at most max_bytes (UsageError beyond)."""
    require_regular_input(label, path)
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | getattr(os, "O_CLOEXEC", 0))
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):  # replaced between stat() and open()
            raise UsageError(f"{label}: {_quoted(path)} is not a regular file; allowed: a regular file")
        chunks, size = [], 0
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            size += len(chunk)
            if size > max_bytes:
                raise UsageError(f"{label}: {_quoted(path)} is larger than {max_bytes >> 20} MiB; "
                                 "allowed: a smaller file")
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def read_text_input(label, path, max_bytes=MAX_TEXT_INPUT_BYTES):
    return read_input(label, path, max_bytes).decode("utf-8", errors="replace")


def _identity(path):
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino


def _recognised_as_own(path, name):
    """An existing regular file the report may replace: empty, a PNG for a
    .png name, text (no NUL byte in its first 4 KiB) for any other."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return False
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return False
        head = os.read(fd, 4096)
    finally:
        os.close(fd)
    if not head:
        return True
    return head.startswith(_PNG_SIGNATURE) if name.lower().endswith(".png") else b"\0" not in head


def check_target(label, directory, name, inputs):
    """UsageError unless directory/name may be written: a new name, or a
    regular file of the report's kind that is none of `inputs` (a set of
    (st_dev, st_ino))."""
    if not name or os.sep in name or name in (".", ".."):
        raise UsageError(f"{label}: bad file name {_quoted(name)}")
    target = os.path.join(directory, name)
    try:
        st = os.lstat(target)
    except FileNotFoundError:
        return
    if not stat.S_ISREG(st.st_mode):
        raise UsageError(f"{label}: {_quoted(target)} is {_kind_noun(st.st_mode)}; allowed: a new name or a "
                         "regular file of an earlier report (the report never writes to or through anything else)")
    if (st.st_dev, st.st_ino) in inputs:
        raise UsageError(f"{label}: {_quoted(target)} is one of the report's inputs; allowed: a folder whose files "
                         "are none of the inputs (an input is never written over)")
    if not _recognised_as_own(target, name):
        kind = "a PNG" if name.lower().endswith(".png") else "a text file"
        raise UsageError(f"{label}: {_quoted(target)} exists and is not {kind} the report writes; allowed: a folder "
                         "without it (the report replaces only its own files)")


def identities(paths):
    """{(st_dev, st_ino)} of the paths that exist (links followed)."""
    return {i for i in (_identity(p) for p in paths if p) if i}


class OutputDirectory:
    """The report's folder: `path(name)` gives where to write a file of it
    (in the scratch folder), `commit()` puts every written file in place,
    `discard()` (or leaving a `with` block by an exception) removes them all.
    `inputs` are the files the report reads: never written over."""

    def __init__(self, directory, inputs, label="-o"):
        self.label = label
        self.directory = directory
        self.inputs = identities(inputs)
        self.made = []
        self.names = []
        try:
            st = os.stat(directory)  # a link to a folder is that folder
            if not stat.S_ISDIR(st.st_mode):
                raise UsageError(f"{label}: {_quoted(directory)} is {_kind_noun(st.st_mode)}; "
                                 "allowed: a directory (made when missing)")
        except FileNotFoundError:
            self._make_directories(directory)
        try:
            self.scratch = tempfile.mkdtemp(prefix=".bwsurvey-report.", dir=directory)
        except OSError as e:
            self._remove_made()
            raise UsageError(f"{label}: cannot write in {_quoted(directory)}: {e.strerror}; "
                             "allowed: a writable directory") from None

    def _make_directories(self, directory):
        missing = []
        path = os.path.abspath(directory)
        while not os.path.lexists(path) and os.path.dirname(path) != path:
            missing.append(path)
            path = os.path.dirname(path)
        for p in reversed(missing):
            try:
                os.mkdir(p)
            except OSError as e:
                self._remove_made()
                raise UsageError(f"{self.label}: cannot create {_quoted(p)}: {e.strerror}; "
                                 "allowed: a directory that can be made") from None
            self.made.append(p)

    def _remove_made(self):
        for p in reversed(self.made):
            try:
                os.rmdir(p)  # only when empty
            except OSError:
                pass
        self.made = []

    def target(self, name):
        return os.path.join(self.directory, name)

    def check(self, name):
        """UsageError unless DIR/name may be written (check_target)."""
        check_target(self.label, self.directory, name, self.inputs)

    def path(self, name):
        """Where to write DIR/name now (the same path again for the same
        name: a file may be written, read back and written again)."""
        if name not in self.names:
            self.check(name)
            self.names.append(name)
        return os.path.join(self.scratch, name)

    def written_text(self, name):
        """DIR/name as this run wrote it so far (text), else None."""
        path = os.path.join(self.scratch, name)
        if name not in self.names or not os.path.isfile(path):
            return None
        with open(path, encoding="utf-8") as f:
            return f.read()

    def text_file(self, name, newline=None):
        """A text file (UTF-8) to write DIR/name through; close it (with)."""
        return open(self.path(name), "w", encoding="utf-8", newline=newline)

    def put_text(self, name, text):
        with self.text_file(name) as f:
            f.write(text)

    def put_bytes(self, name, data):
        with open(self.path(name), "wb") as f:
            f.write(data)

    def save_figure(self, fig, name, **kwargs):
        """A matplotlib figure as DIR/name (the format from the name's end)."""
        fig.savefig(self.path(name), **kwargs)

    def commit(self):
        """Every target checked again (the folder may have changed while the
        report was drawn), then each file renamed onto its name."""
        present = [n for n in self.names if os.path.isfile(os.path.join(self.scratch, n))]
        for name in present:
            self.check(name)
        for name in present:
            os.replace(os.path.join(self.scratch, name), self.target(name))
        self.names = []
        self._remove_scratch()
        self.made = []

    def discard(self):
        self._remove_scratch()
        self._remove_made()

    def _remove_scratch(self):
        for name in self.names:
            try:
                os.unlink(os.path.join(self.scratch, name))
            except OSError:
                pass
        self.names = []
        try:
            os.rmdir(self.scratch)
        except OSError:
            pass

    def __enter__(self):
        return self

    def __exit__(self, kind, value, traceback):
        if kind is not None:
            self.discard()
        return False


def save_figure(path, fig, inputs, label="--out", **kwargs):
    """A matplotlib figure written at once to `path` (write_file); the
    format is PNG unless given."""
    kwargs.setdefault("format", "png")
    write_file(path, lambda scratch: fig.savefig(scratch, **kwargs), inputs, label)


def write_file(path, data, inputs, label="--out"):
    """One file written at once: checked as check_target checks a name,
    written to a fresh scratch file beside it (tempfile.mkstemp) and renamed
    onto it. `data`: bytes, or a callable that writes the scratch path."""
    directory = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(directory):
        raise UsageError(f"{label}: the directory of {_quoted(path)} does not exist; allowed: a path in an "
                         "existing directory")
    name, known = os.path.basename(path), identities(inputs)
    check_target(label, directory, name, known)
    fd, scratch = tempfile.mkstemp(prefix="." + name + ".", dir=directory)
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.fchmod(fd, 0o666 & ~umask)  # mkstemp's 0600 is too strict for a result others read
        if callable(data):
            os.close(fd)
            fd = None
            data(scratch)
        else:
            with os.fdopen(fd, "wb") as out:
                fd = None
                out.write(data)
        check_target(label, directory, name, known)  # again: the folder may have changed meanwhile
        os.replace(scratch, os.path.join(directory, name))
    except BaseException:
        if fd is not None:
            os.close(fd)
        try:
            os.unlink(scratch)
        except OSError:
            pass
        raise
