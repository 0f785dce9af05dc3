#!/usr/bin/python3
"""Writes the hand-made hostile result files of this folder (h5py, run once;
the files are committed). Each is a schema 1.1 survey file with one thing
wrong that the reader must refuse in one line, or read, never crash:
    python3 make_hostile.py   (in tests/fuzz/h5/)"""
import h5py
import numpy as np

FLAGS = [("host", "S128"), ("metric", "S64"), ("value", "<f8"), ("median", "<f8"), ("percent_of_median", "<f8"),
         ("unit", "S16"), ("status", "S32")]


def survey(name):
    f = h5py.File(name, "w")
    for key, value in (("schema_version", "1.1"), ("tool_version", "hostile"), ("status", "complete"),
                       ("created_utc", "2025-01-31T12:00:00Z")):
        f.attrs[key] = value
    f.attrs["n_nodes"] = np.int64(2)
    f.attrs["n_ranks"] = np.int64(2)
    return f


def flags(f, dtype=FLAGS, rows=1, maxshape=(None,)):
    d = f.create_dataset("flags", shape=(rows,), maxshape=maxshape, dtype=np.dtype(dtype), chunks=(16,))
    return d


with survey("rows_2pow40.h5") as f:  # 2^40 rows declared, one chunk stored
    flags(f).resize((1 << 40,))
with survey("text_where_number.h5") as f:
    d = flags(f, [(n, "S16") if n == "percent_of_median" else (n, t) for n, t in FLAGS])
    d[0] = (b"n1", b"stream.triad[double]", 4e9, 9e9, b"fast", b"B/s", b"confirmed")
with survey("units_wrong_count.h5") as f:
    flags(f).attrs["column_units"] = ["B/s"]
with survey("samples_missing.h5") as f:
    flags(f).attrs["samples"] = "/nowhere/times"
with survey("samples_2d_huge.h5") as f:
    flags(f).attrs["samples"] = "/flags_times"
    t = f.create_dataset("flags_times", shape=(1, 4), maxshape=(None, None), dtype="<f8", chunks=(1, 4))
    t.resize((1, 1 << 38))
with survey("flags_is_a_group.h5") as f:
    f.create_group("flags")
with survey("config_is_numbers.h5") as f:
    f["config"] = np.arange(3)
    flags(f)
with survey("status_is_integer.h5") as f:
    f.attrs["status"] = np.int64(7)
with survey("control_chars_in_host.h5") as f:
    d = flags(f)
    d[0] = (b"n1\n\x1b[31mFAKE\r", b"stream.triad[double]", 4e9, 9e9, 44.0, b"B/s", b"confirmed")
with survey("three_dimensional_table.h5") as f:
    f.create_dataset("flags", shape=(1, 1, 1), dtype=np.dtype(FLAGS))
with survey("enum_column.h5") as f:
    f.create_dataset("flags", shape=(1,), dtype=np.dtype([("host", "S8"), ("flag", h5py.enum_dtype({"a": 0}))]))
