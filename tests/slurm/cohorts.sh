#!/usr/bin/env bash
# Four pretend nodes in two hardware cohorts (n1, n2
# declare 512 GiB through the test hook BWSURVEY_FAKE_MEMORY; n3, n4 keep
# this machine's memory). Each node is compared only within its cohort; a
# cohort of two gets only the absolute rules, so slow n3 is not judged
# against the fat nodes, while a --flags.floor still applies to every node.
stream_elements=4M
. "$(dirname "$0")/common.sh"
start_cluster 4
fat=$((512 * 1024 * 1024 * 1024))
BWSURVEY_FAKE_MEMORY="n1:$fat,n2:$fat" BWSURVEY_SLOW_HOST=n3:6 run_job --nodes=4 "$repo/jobs/survey.sbatch" \
  "${quick_options[@]}" --tests stream --stream.reps 10 --flags.floor stream.triad=1e15
expect_exit_0_or_3
file=$work/survey-$job_id.h5
log=$work/job-$job_id.log
grep -q "Cohorts: 2 hardware classes" "$log" || { echo "expected two cohorts in the summary"; exit 1; }
grep -q "512 GiB: 2 nodes n\[1-2\] (too few to compare: only absolute rules apply)" "$log"
/usr/bin/python3 - "$file" <<'PY'
import sys, h5py
f = h5py.File(sys.argv[1], "r")
nodes = {r["host"].decode(): r for r in f["nodes/table"][:]}
assert nodes["n1"]["memory_bytes"] == 512 << 30, nodes["n1"]["memory_bytes"]
assert nodes["n3"]["memory_bytes"] != 512 << 30
flags = f["flags"][:]
rules = sorted({r["rule"].decode() for r in flags})
hosts = sorted({r["host"].decode() for r in flags})
# The floor (1e15 B/s) flags every node; no cohort of two is judged by the relative rules.
assert rules == ["floor"], rules
assert hosts == ["n1", "n2", "n3", "n4"], hosts
cohorts = {r["host"].decode(): r["cohort"].decode() for r in flags}
assert cohorts["n1"] == cohorts["n2"] and cohorts["n3"] == cohorts["n4"] and cohorts["n1"] != cohorts["n3"], cohorts
assert "512 GiB" in cohorts["n1"], cohorts
assert all(r["cohort_nodes"] == 2 for r in flags)
print("cohorts:", cohorts)
PY
