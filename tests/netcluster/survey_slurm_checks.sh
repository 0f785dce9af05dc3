# shellcheck shell=bash
# shellcheck disable=SC2154  # bwreport, work, job_id and log: set by the test that sources this
# The checks of tests/netcluster/survey_slurm_test.sh on its survey's
# outputs (sourced; $bwreport and $work set): each names h3's slow NIC
# (links.node_out and links.node_in) and s3's uplink (links.uplink,
# subject s3->top). Other link verdicts are said, not asserted: the rule's
# false verdicts are counted over 10 runs (docs/PERFORMANCE.md), not in one.

# The entries of a summary's section whose heading starts with $2, in
# file $1: one line each, a wrapped entry's continuation lines joined.
summary_entries() {
  awk -v heading="$2" '
    index($0, heading) == 1 { inside = 1; next }
    inside && /^  [^ ]/ { if (entry != "") print entry; entry = substr($0, 3); next }
    inside && /^    [^ ]/ { sub(/^ +/, ""); entry = entry " " $0; next }
    inside { inside = 0 }
    END { if (entry != "") print entry }' "$1"
}

# check_summary NAME FILE: the summary in FILE (a job's log, `bwreport
# summary`) names h3 among the flagged nodes with both link metrics, and
# s3's uplink among the links, its verdict whole (not cut at the line's end).
check_summary() {
  local name=$1 file=$2 nodes links
  grep -Eq "^Flagged nodes \([0-9]+ of 8\): (.*[ ,])?h3([ ,]|$)" "$file" ||
    { echo "$name: h3 is not among the flagged nodes"; exit 1; }
  nodes=$(summary_entries "$file" "Flagged nodes (")
  links=$(summary_entries "$file" "Flagged links and uplinks (")
  grep -q "^links\.node_out: h3: " <<<"$nodes" || { echo "$name: no links.node_out for h3 under the flagged nodes"; exit 1; }
  grep -q "^links\.node_in: h3: " <<<"$nodes" || { echo "$name: no links.node_in for h3 under the flagged nodes"; exit 1; }
  if grep -q "^links\.uplink" <<<"$nodes"; then echo "$name: an uplink verdict is listed under the flagged nodes"; exit 1; fi
  grep -Eq "^links\.uplink: uplink of leaf s3 \(s3->top\): .* of the median block; not retested$" <<<"$links" ||
    { echo "$name: s3's uplink is not named whole under the flagged links"; echo "$links"; exit 1; }
  echo "$name names h3 and s3's uplink"
  grep -E "^links\." <<<"$nodes"$'\n'"$links" | grep -Ev "^links\.node_(out|in): h3: |^links\.uplink: uplink of leaf s3 " |
    sed "s/^/note: $name also says /" || true
}

# /flags itself, read with h5py: rows (h3, links.node_out), (h3,
# links.node_in) and (s3->top, links.uplink).
check_flags_table() {
  /usr/bin/python3 - "$1" <<'PY'
import sys
import h5py
with h5py.File(sys.argv[1], "r") as f:
    rows = {(r["host"].decode(), r["metric"].decode()) for r in f["flags"][()]}
wanted = {("h3", "links.node_out"), ("h3", "links.node_in"), ("s3->top", "links.uplink")}
missing = wanted - rows
if missing:
    sys.exit(f"/flags lacks {sorted(missing)}; it holds {sorted(rows)}")
for host, metric in sorted(rows - wanted):
    if metric.startswith("links."):
        print(f"note: /flags also holds {metric} for {host}")
print("/flags names h3 (links.node_out, links.node_in) and s3->top (links.uplink)")
PY
}

# bwreport drain: jobs/survey runs one in-job retest (--retest 1), which
# runs the link map again on every rank for h3's node verdicts; h3's NIC is
# as slow then, so /flags holds both confirmed and a plain drain prints
# one line for h3. No line names a link (s3's uplink is no node's fault,
# and a pair or uplink verdict is never retested). Other lines are said,
# not asserted (7 runs under a load of 13-25): b_eff per rank blames the
# nodes at a slow link (a rank's figure is its ring neighbours' links),
# and the retest, meeting the same links, confirmed such flags in 2 of 7
# runs (h2 at 24 % and h8 at 35 %; h8 at 10 %), STREAM of 8 ranks on 2
# cores once (h1 at 72 %); wrong links.node_* verdicts at 72-75 % came in
# 2 of 7 (the test's window is below the probe's size: buffering, see
# the test), and the retest's map may confirm or dismiss them.
check_drain() {
  local file=$1 h3_lines
  grep -q "^bwsurvey: retest 1 of 1: links again on every rank" "$log" ||
    { echo "the job's log does not say the retest ran the link map again"; exit 1; }
  /usr/bin/python3 - "$file" <<'PY'
import sys
import h5py
with h5py.File(sys.argv[1], "r") as f:
    status = {(r["host"].decode(), r["metric"].decode()): r["status"].decode() for r in f["flags"][()]}
for metric in ("links.node_out", "links.node_in"):
    if status.get(("h3", metric)) != "confirmed":
        sys.exit(f"/flags: h3's {metric} is {status.get(('h3', metric))!r}, expected confirmed by the retest")
for (host, metric), s in sorted(status.items()):
    if metric.startswith("links.") and host != "h3":
        print(f"note: /flags: {metric} for {host}: {s}")
print("/flags: h3's links.node_out and links.node_in confirmed by the retest")
PY
  "$bwreport" drain "$file" >"$work/drain.txt" 2>"$work/drain.err"
  cat "$work/drain.txt" "$work/drain.err"
  h3_lines=$(grep -c "^scontrol update NodeName=h3 State=DRAIN 'Reason=bwsurvey: .*job $job_id" "$work/drain.txt" || true)
  [ "$h3_lines" = 1 ] || { echo "expected one drain line for h3, got $h3_lines"; exit 1; }
  if grep -Eq "NodeName=[^ ]*->|Reason=bwsurvey: (unretested )?links\.(pair|uplink)" "$work/drain.txt"; then
    echo "bwreport drain printed a line for a link, which is never drained"; exit 1
  fi
  grep "NodeName=h3 " "$work/drain.txt" | grep -q 'Reason=bwsurvey: links\.node_' ||
    echo "note: h3's drain line names a worse flag first (b_eff per rank meets its link too)"
  grep -v "NodeName=h3 " "$work/drain.txt" | sed 's/^/note: drain also prints /' || true
  "$bwreport" drain --unconfirmed "$file" >"$work/drain-unconfirmed.txt" 2>/dev/null
  h3_lines=$(grep -c "NodeName=h3 " "$work/drain-unconfirmed.txt" || true)
  [ "$h3_lines" = 1 ] || { echo "expected one drain line for h3 with --unconfirmed, got $h3_lines"; exit 1; }
}

# The report (bwreport plot): the link map and, above it, its verdicts
# naming h3 (both metrics) and s3's uplink.
check_report() {
  "$bwreport" plot "$1" -o "$work/report" >/dev/null
  local html=$work/report/index.html verdicts
  [ -s "$work/report/links_send.png" ] || { echo "no link map in the report"; exit 1; }
  verdicts=$(sed -n '/<h2>Link verdicts<\/h2>/,/<h2>Link map: send bandwidth<\/h2>/p' "$html")
  grep -q "<h2>Link map: send bandwidth</h2>" <<<"$verdicts" || { echo "the report has no link verdicts above its map"; exit 1; }
  local expected
  for expected in "<td>links.node_out</td><td>h3</td>" "<td>links.node_in</td><td>h3</td>" \
                  "<td>links.uplink</td><td>s3-&gt;top</td>"; do
    grep -qF "$expected" <<<"$verdicts" || { echo "the report's link verdicts lack $expected"; exit 1; }
  done
  grep -q 'src="links_send.png"' "$html" || { echo "the report does not show its link map"; exit 1; }
  echo "the report's link map section names h3 and s3->top"
}
