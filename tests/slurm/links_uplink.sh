#!/usr/bin/env bash
# The link map on four pretend nodes under two leaf switches (s1: n1 n2,
# s2: n3 n4, top above them), the tree given to Slurm as topology.conf:
# the test hook makes every message from s1's nodes to s2's nodes 20 times
# as slow, as a slow uplink would. Four ranks on two shared cores over TCP
# measure unrelated pairs up to 3x apart (0.8 to 3 GB/s here), so the rule
# is --flags.fraction 0.3: the hook's block is at 5 %, noise must not be
# named. bwsurvey reads the tree from `scontrol
# show topology` by itself; /flags, the summary and `bwreport flags` must
# name the path between the two leaves, and no node and no single pair.
. "$(dirname "$0")/common.sh"
cat >"$work/topology.conf" <<'CONF'
SwitchName=s1 Nodes=n[1-2]
SwitchName=s2 Nodes=n[3-4]
SwitchName=top Switches=s[1-2]
CONF
start_cluster 4 "$work/topology.conf"
scontrol show topology
# Members are the nodes in rank order, n1..n4: members 0-1 send slowly to 2-3.
OMPI_MCA_mpi_yield_when_idle=1 BWSURVEY_LINKS_SLOW_PAIR=0-1,2-3,20 run_job --nodes=4 "$repo/jobs/survey.sbatch" --quick --tests links --retest 0 --links.reps 10 --links.bytes 4M \
  --flags.fraction 0.3
[ "$job_exit" = 0 ] || [ "$job_exit" = 3 ] || { echo "job $job_id: exit code $job_exit, expected 0 or 3"; exit 1; }
file=$work/survey-$job_id.h5
log=$work/job-$job_id.log
grep -q "TEST HOOK ACTIVE" "$log" || { echo "the active test hook was not announced"; exit 1; }
grep -Eq "topology: scontrol show topology" "$log" || { echo "the plan line does not name the tree's source"; exit 1; }
"$bwreport" flags "$file" | tee "$work/flags.txt"
grep -Eq "links\.uplink" "$work/flags.txt" || { echo "no uplink verdict"; exit 1; }
grep -Eq "s1->(s2|top)" "$work/flags.txt" || { echo "the uplink verdict does not name s1's uplink"; exit 1; }
# No node is blamed, and no pair of the slowed block: the uplink explains
# them. (Beside a CPU hog a rank taken off its core stalls the windows
# of its pair in that round; such a pair elsewhere may be named, as measured.)
if grep -Eq "links\.(node_out|node_in)" "$work/flags.txt"; then
  echo "a node was blamed for the uplink"
  exit 1
fi
if grep -Eq "links\.pair: link n[12]->n[34]" "$work/flags.txt"; then
  echo "a pair of the slowed block was named beside the uplink"
  exit 1
fi
grep -Eq "links\.uplink.*s1->(s2|top)" "$log" || { echo "the run's summary does not name the uplink"; exit 1; }
# bwreport retest names no host for an uplink, and says so on stderr.
retest=$("$bwreport" retest "$file" 2>"$work/retest.err")
[ -z "$retest" ] || { echo "bwreport retest listed hosts for an uplink: $retest"; exit 1; }
grep -q "s1->s2" "$work/retest.err" || { echo "bwreport retest did not name the uplink"; cat "$work/retest.err"; exit 1; }
# The report draws the send map of this real file with the verdict above it.
"$bwreport" plot "$file" -o "$work/report" >/dev/null
grep -q "links_send.png" "$work/report/index.html" || { echo "no link map in the report"; exit 1; }
grep -q "s1-&gt;s2\|s1->s2" "$work/report/index.html" || { echo "the report does not list the uplink verdict"; exit 1; }
