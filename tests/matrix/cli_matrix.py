#!/usr/bin/env python3
"""The whole command line against every kind of input.

Every file slot of bwsurvey (its options whose help names a file or path)
and of every bwreport command (read from `bwreport --help` and each
command's --help) is given every kind of file below; the cross product is
generated here, and the test fails when a program has a command or a file
option this table of slots does not know (so a new one cannot go untested).

Asserted for every cell: legitimate kinds exit as the plain input does
(0, or the command's own verdict code); every other kind exits 2 with one
line on stderr and nothing on stdout; every input (and every file the test
planted: devices, FIFOs, links' targets) is byte-identical afterwards; no
run takes longer than its timeout (no hang) or more memory than its bound.

Usage: cli_matrix.py BWSURVEY BWREPORT MPIRUN WORKDIR [--table FILE]
"""
import argparse
import concurrent.futures
import hashlib
import os
import re
import shutil
import stat
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import matrix_inputs  # noqa: E402  (the legitimate inputs, made once)
import matrix_slots  # noqa: E402   (which slots each command has)

TIMEOUT_S = 120          # a hang, not a slow run: ASan runs take a few seconds
MAX_RSS_BYTES = 1 << 31  # 2 GiB: far above any legitimate run here

INPUT_KINDS = ["plain", "missing", "directory", "fifo", "device", "link-to-output", "sparse", "truncated",
               "damaged", "compressed", "hostile-text"]
OUTPUT_KINDS = ["new", "directory", "fifo", "device", "link-to-input", "exists"]
LEGITIMATE = {"plain", "compressed", "hostile-text", "new"}


def digest(path):
    st = os.lstat(path)
    if stat.S_ISLNK(st.st_mode):
        return "link:" + os.readlink(path)
    if not stat.S_ISREG(st.st_mode):
        return f"node:{stat.S_IFMT(st.st_mode)}:{st.st_rdev}"
    if st.st_size > (64 << 20):  # the sparse kind: its size and change time, never 64 GiB read
        return f"big:{st.st_size}:{st.st_mtime_ns}:{st.st_ino}"
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def tree_digest(root):
    """Every entry under root with its digest (devices and FIFOs by their kind, never opened)."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            p = os.path.join(dirpath, name)
            st = os.lstat(p)
            if stat.S_ISDIR(st.st_mode):
                out[p] = "dir"
            else:
                out[p] = digest(p)
    return out


def run(argv, cwd, env):
    """exit code, stdout, stderr, seconds, max RSS bytes (a timeout is exit 124).

    Waited for with wait4(), so the memory is this run's own (a launcher's
    children that it waited for included)."""
    start = time.monotonic()
    proc = subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True)
    chunks = {proc.stdout: [], proc.stderr: []}
    readers = [threading.Thread(target=lambda s=s: chunks[s].append(s.read())) for s in chunks]
    for t in readers:
        t.start()
    status, usage = None, None
    while status is None:
        pid, st, ru = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            status, usage = st, ru
        elif time.monotonic() - start > TIMEOUT_S:
            os.killpg(proc.pid, 9)
            _, status, usage = os.wait4(proc.pid, 0)
            status = None
            break
        else:
            time.sleep(0.01)
    for t in readers:
        t.join()
    proc.returncode = 0  # reaped above: keep Popen from waiting again
    out, err = b"".join(chunks[proc.stdout]), b"".join(chunks[proc.stderr])
    seconds = time.monotonic() - start
    if status is None:
        return 124, out, err, seconds, 0
    code = os.waitstatus_to_exitcode(status)
    code = 128 - code if code < 0 else code
    return code, out, err, seconds, usage.ru_maxrss * 1024


def is_binary(path):
    with open(path, "rb") as f:
        return b"\x00" in f.read(4096)


def make_kind(kind, cell_dir, base, role):
    """The path of a file of `kind` in cell_dir, made from `base` (a legitimate input or None)."""
    path = os.path.join(cell_dir, "target" + (os.path.splitext(base)[1] if base else ""))
    if kind in ("plain", "hostile-text", "compressed", "exists"):
        shutil.copyfile(base, path)
    elif kind in ("missing", "new"):
        pass
    elif kind == "directory":
        os.mkdir(path)
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "device":  # a zero device of the test's own: an unbounded read never ends
        os.mknod(path, 0o600 | stat.S_IFCHR, os.makedev(1, 5))
    elif kind == "sparse":
        with open(path, "wb") as f:
            f.truncate(64 << 30)
    elif kind == "truncated":
        with open(base, "rb") as f:
            data = f.read()
        with open(path, "wb") as f:
            f.write(data[: max(1, len(data) // 3)])
    elif kind == "damaged" and not is_binary(base):
        with open(base, "rb") as f:
            data = f.read()
        # A text file with a line of binary garbage in its middle.
        cut = data.rfind(b"\n", 0, len(data) // 2) + 1
        with open(path, "wb") as f:
            f.write(data[:cut] + b"\x00\xff\x01 = [garbage\x02\n" + data[cut:])
    elif kind == "damaged":
        with open(base, "rb") as f:
            data = bytearray(f.read())
        # The structure every format keeps near its start (HDF5's root group,
        # SQLite's first pages, an INI's first sections) is overwritten.
        for i in range(min(len(data), 48), min(len(data), 8192)):
            data[i] = 0xFF if i % 2 else 0x00
        with open(path, "wb") as f:
            f.write(bytes(data))
    return path


def check_cell(cell, inputs, bwsurvey, bwreport, mpirun, env):
    """Runs one cell; returns (cell, outcome text, problem or None)."""
    cell_dir = cell["dir"]
    os.makedirs(cell_dir, exist_ok=True)
    slot, kind = cell["slot"], cell["kind"]
    base = inputs.path_for(slot.fixture, kind)
    target = make_kind(kind, cell_dir, base, slot.role)
    out_path = os.path.join(cell_dir, slot.output_name) if slot.output_name else None
    if kind == "link-to-output":
        assert out_path is not None
        shutil.copyfile(base, out_path)
        os.symlink(out_path, target)
    if kind == "link-to-input":
        planted = os.path.join(cell_dir, "planted-input" + os.path.splitext(base or ".x")[1])
        shutil.copyfile(inputs.path_for(slot.link_fixture, "plain"), planted)
        os.symlink(planted, target)
    argv = slot.argv(target=target, cell_dir=cell_dir, inputs=inputs, out_path=out_path,
                     bwsurvey=bwsurvey, bwreport=bwreport, mpirun=mpirun)
    before = tree_digest(cell_dir)
    shared_before = inputs.digests()
    code, out, err, seconds, rss = run(argv, cell_dir, env)
    with open(cell_dir + ".log", "wb") as log:  # beside the cell, not in it
        log.write(" ".join(argv).encode() + f"\nexit {code}, {seconds:.1f} s, {rss >> 20} MiB\n".encode() + out + err)
    after = tree_digest(cell_dir)
    problem = None
    legitimate = kind in LEGITIMATE or kind in slot.legitimate_kinds
    expected = slot.legitimate_code if legitimate else 2
    if code == 124:
        problem = f"no answer within {TIMEOUT_S} s"
    elif code != expected:
        problem = f"exit {code}, expected {expected}"
    elif expected == 2 and (out.strip() or len(err.decode(errors='replace').strip().splitlines()) != 1):
        problem = "a refusal must print one line on stderr and nothing on stdout"
    elif b"\x1b" in out or b"\x1b" in err:
        problem = "an escape sequence reached the terminal"
    elif rss > MAX_RSS_BYTES:
        problem = f"{rss >> 20} MiB of memory"
    # Inputs unchanged: everything that was in the cell before is as it was
    # (an output may appear or be replaced only on success), and the shared
    # fixtures too.
    for p, d in before.items():
        if p == out_path and code == 0:
            continue
        if p == target and (slot.role == "output" or slot.changes_target) and code == 0:
            continue
        if after.get(p) != d:
            problem = problem or f"{os.path.relpath(p, cell_dir)} changed or went"
    if inputs.digests() != shared_before:
        problem = problem or "a shared input changed"
    if code != 0:
        leftover = sorted(set(after) - set(before))
        if leftover:
            problem = problem or "a refused run left " + ", ".join(os.path.relpath(p, cell_dir) for p in leftover)
    outcome = "timeout" if code == 124 else f"{code}"
    return cell, outcome, problem, seconds


def main():
    global TIMEOUT_S
    ap = argparse.ArgumentParser()
    ap.add_argument("bwsurvey")
    ap.add_argument("bwreport")
    ap.add_argument("mpirun")
    ap.add_argument("workdir")
    ap.add_argument("--table", help="write the commands x kinds table (Markdown) here")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--timeout", type=float, default=120, help="seconds a run may take before it counts as a hang")
    args = ap.parse_args()
    TIMEOUT_S = args.timeout
    bwsurvey, bwreport = os.path.realpath(args.bwsurvey), os.path.realpath(args.bwreport)
    shutil.rmtree(args.workdir, ignore_errors=True)
    os.makedirs(args.workdir)
    env = dict(os.environ, OMPI_MCA_rmaps_base_oversubscribe="1")
    inputs = matrix_inputs.Inputs(os.path.join(args.workdir, "inputs"), bwsurvey, bwreport, args.mpirun, env)
    slots = matrix_slots.all_slots()
    unknown = matrix_slots.unknown_slots(bwsurvey, bwreport, env, slots)
    problems = [f"not in the matrix (add it to tests/matrix/matrix_slots.py): {u}" for u in unknown]
    cells = []
    for slot in slots:
        for kind in (INPUT_KINDS if slot.role == "input" else OUTPUT_KINDS):
            if kind in slot.skip_kinds:
                continue
            if kind == "link-to-output" and not slot.output_name:
                continue
            name = re.sub(r"[^A-Za-z0-9_.-]", "_", f"{slot.name}__{kind}")
            cells.append({"slot": slot, "kind": kind, "dir": os.path.join(args.workdir, "cells", name)})
    results = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(check_cell, c, inputs, bwsurvey, bwreport, args.mpirun, env) for c in cells]
        for f in concurrent.futures.as_completed(futures):
            results.append(f.result())
    table = {}
    for cell, outcome, problem, seconds in results:
        table.setdefault(cell["slot"].name, {})[cell["kind"]] = outcome + ("" if problem is None else " FAIL")
        if problem:
            problems.append(f"{cell['slot'].name} with {cell['kind']}: {problem}")
    if args.table:
        write_table(args.table, table)
    for p in sorted(problems):
        print("FAIL:", p)
    print(f"{len(cells)} cells, {len(slots)} slots: {len(cells) - len(problems)} passed, {len(problems)} failed")
    return 1 if problems else 0


def write_table(path, table):
    with open(path, "w", encoding="utf-8") as f:
        for role, kinds in (("input", INPUT_KINDS), ("output", OUTPUT_KINDS)):
            rows = [s for s in sorted(table) if matrix_slots.role_of(s) == role]
            if not rows:
                continue
            f.write(f"\n| {role} slot | " + " | ".join(kinds) + " |\n")
            f.write("|---|" + "---|" * len(kinds) + "\n")
            for s in rows:
                f.write(f"| `{s}` | " + " | ".join(table[s].get(k, "-") for k in kinds) + " |\n")


if __name__ == "__main__":
    sys.exit(main())
