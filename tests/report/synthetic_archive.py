#!/usr/bin/python3
"""Writes a small history archive with python's sqlite3, using the schema
text of lib/history/ArchiveSchema.hpp (the SQL between R"sql( and )sql",
so the archive the test reads is the one bwreport writes).

    synthetic_archive.py SOURCE_DIR OUT.sqlite   (the archive of make_archive's defaults)"""
import sqlite3
import sys


def schema_sql(source_dir):
    text = open(f"{source_dir}/lib/history/ArchiveSchema.hpp", encoding="utf-8").read()
    start = text.index('R"sql(') + len('R"sql(')
    return text[start:text.index(')sql"', start)]


def make_archive(source_dir, path, surveys, metrics, sha256_of=None):
    """surveys: [(started_unix_s, {(host, metric): (value, cohort, flagged)})];
    metrics: {name: (unit, higher_is_better)}; sha256_of: {survey index: sha256}
    (default a made-up hash per survey). Returns the survey ids in order."""
    import datetime
    conn = sqlite3.connect(path)
    conn.executescript(schema_sql(source_dir))
    conn.execute("INSERT INTO archive_info VALUES ('schema_version', '1')")
    ids = {}

    def id_of(table, name, extra=()):
        key = (table, name)
        if key not in ids:
            cols = "name" + "".join(", " + c for c, _ in extra)
            marks = ", ".join("?" * (1 + len(extra)))
            cur = conn.execute(f"INSERT INTO {table}({cols}) VALUES ({marks})", (name, *[v for _, v in extra]))
            ids[key] = cur.lastrowid
        return ids[key]

    survey_ids = []
    for k, (started, values) in enumerate(surveys):
        utc = datetime.datetime.fromtimestamp(started, tz=datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
        hosts = sorted({h for h, _ in values})
        sha = (sha256_of or {}).get(k, f"{k:064x}")
        cur = conn.execute(
            "INSERT INTO surveys(path, sha256, started_utc, started_unix_s, job_id, nodes, n_nodes, tool_version, "
            "commit_id, config_sha256, status, added_utc) VALUES (?, ?, ?, ?, '', ?, ?, 'test', 'test', '', "
            "'complete', ?)", (f"/surveys/s{k}.h5", sha, utc, started, ",".join(hosts), len(hosts), utc))
        survey_ids.append(cur.lastrowid)
        for (host, metric), (value, cohort, flagged) in values.items():
            unit, higher = metrics[metric]
            conn.execute("INSERT INTO node_values VALUES (?, ?, ?, ?, ?, ?, ?)",
                         (cur.lastrowid, id_of("hosts", host),
                          id_of("metrics", metric, (("unit", unit), ("higher_is_better", int(higher)))),
                          value, id_of("cohorts", cohort), int(value is not None), int(flagged)))
    conn.commit()
    conn.close()
    return survey_ids
