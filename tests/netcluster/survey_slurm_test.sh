#!/usr/bin/env bash
# A whole survey on the pretend cluster, submitted through its Slurm
# (tests/netcluster/netcluster_slurm.sh) with jobs/survey as a site would:
# 8 hosts on 3 leaves (s1: h1-h3, s2: h4-h6, s3: h7 h8), every host link
# at 400 Mbit/s both ways, two faults made in the network:
#   h3's NIC slowed to 100 Mbit/s both ways, and
#   s3's uplink slowed to 200 Mbit/s both ways.
# Three leaves, not two: with two, a slow uplink of either leaf slows the
# same pairs (all of s1<->s2), and the verdict can name only the path
# between the leaves; with three, s3's uplink slows s3<->s1 and s3<->s2
# but not s1<->s2, which names s3's own uplink. s3, the leaf of two: every
# host outside it then has 3 slow peers of 7 (h3, h7, h8), and its median
# send and receive stay those of a fast peer. Behind s2's uplink (3 hosts)
# 4 of 7 peers were slow, every host's median was a share of the slow
# uplink (1 to 3 flows at once), and h1's sends read 76 % of the others':
# a node verdict made by the choice of faults. No --links.topology:
# bwsurvey takes the tree from `scontrol show topology` (the topology.conf
# the fixture gave slurmctld). The summary (the job's log and `bwreport
# summary`), /flags, `bwreport drain` and the report's link map must name
# h3 and s3's uplink.
# usage: survey_slurm_test.sh REPO BWSURVEY BWREPORT WORKDIR
set -euo pipefail
repo=$1 bwsurvey=$2 bwreport=$3 work=$4
. "$(dirname "$0")/netcluster.sh"
netcluster_require || exit 77
. "$(dirname "$0")/netcluster_slurm.sh"
if ! slurm_cluster_install >/dev/null 2>&1; then
  echo "SKIPPED: Slurm (slurmctld, slurmd, slurm-client, munge) is not installed and cannot be"
  exit 77
fi
rm -rf "$work"
netcluster_init "$work"
test_started=$(date +%s%N)
ms_since() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }

netcluster_start 8 3 400
netcluster_slow_nic h3 100
netcluster_slow_uplink s3 200
netcluster_slurm_start
echo "pretend cluster and Slurm up in $(ms_since "$test_started") ms:" \
  "s1: $(netcluster_hosts_of_leaf s1), s2: $(netcluster_hosts_of_leaf s2), s3: $(netcluster_hosts_of_leaf s3);" \
  "h3 at 100 Mbit/s, s3's uplink at 200 Mbit/s"

# What the job's ranks need (sbatch passes the environment on): Open MPI
# over TCP on the test subnet only (the hosts share /dev/shm, and shared
# memory or the loopback would bypass the links), waiting ranks yield
# their core (8 ranks on 2 cores), root allowed.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
  OMPI_MCA_btl=self,tcp OMPI_MCA_btl_tcp_if_include=$NETCLUSTER_SUBNET \
  OMPI_MCA_oob_tcp_if_include=$NETCLUSTER_SUBNET OMPI_MCA_mpi_yield_when_idle=1

# The whole survey: the default tests (STREAM, b_eff) and the link map,
# --quick, the template's in-job retest. b_eff with three sizes and one
# ring (as tests/slurm's quick options): its default 21 sizes x 4 rings
# over links this slow took 68-90 s. The link map's messages are given
# (4 x 4 MiB, one repetition): the link probe finds Linux's socket
# buffers (4 MiB) holding 4 x 1 MiB windows, so the automatic size is
# 10 MiB messages, and with h3 and s3's uplink in every round the map is
# estimated at 95 s for one repetition, twice with the retest; a budget
# below that is refused (a smaller size would time the buffers). At
# 4 x 4 MiB a window is still partly buffered: in 2 of 7 runs (at
# 4 x 5 MiB) a clean host's sends read 72-74 % of the others' while its
# receives read 130 %, wrong links.node_* verdicts, which the checks say
# but do not fail on; h3 and s3's uplink were named in 7 of 7.
survey_options=(--quick --links.bytes 4M --links.window 4 --links.reps 1 --beff.sizes "8,4096,65536" --beff.random-rings 0 --beff.reps 3
                --beff.min-time 0.002)

# Whether job log $1 shows Open MPI's start-up crash under srun (a task's
# segfault in MPI_Init before bwsurvey printed a line; tests/slurm/common.sh).
startup_crash_in() {
  [ -f "$1" ] && ! grep -q "^bwsurvey" "$1" && grep -Eq "Segmentation fault|MPI_Init" "$1"
}

# Submits the survey on the head with jobs/survey and waits for it (at
# most 300 s); sets job_id, job_state, job_exit, log and file.
submit_and_wait() {
  local line
  line=$(netcluster_slurm "$repo/jobs/survey" --nodes 8 --dir "$work" --bwsurvey "$bwsurvey" --bwreport "$bwreport" \
    --tests stream,beff,links -- "${survey_options[@]}")
  echo "$line"
  job_id=$(sed -n 's/^submitted job \([0-9]*\):.*/\1/p' <<<"$line")
  [ -n "$job_id" ] || { echo "jobs/survey did not submit a job"; exit 1; }
  log=$work/bwsurvey-n8-$job_id.log file=$work/survey-$job_id.h5
  local started
  started=$(date +%s%N)
  for _ in $(seq 1 1500); do
    [ -z "$(netcluster_slurm timeout 10 squeue -h -j "$job_id" 2>/dev/null)" ] && break
    sleep 0.2
  done
  local show
  show=$(netcluster_slurm timeout 10 scontrol show job "$job_id")
  job_state=$(sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' <<<"$show")
  job_exit=$(sed -n 's/.* ExitCode=\([0-9]*\):.*/\1/p' <<<"$show" | head -1)
  echo "---- job $job_id: $job_state, exit code $job_exit, after $(ms_since "$started") ms"
  cat "$log" || true
  echo "----"
}
submit_and_wait
if [ "$job_exit" != 0 ] && [ "$job_exit" != 3 ] && startup_crash_in "$log"; then
  echo "job $job_id: the MPI start-up failed before bwsurvey ran; submitting it once more"
  submit_and_wait
fi
# Exit 3: a check failed; b_eff's linear scaling cannot hold for 8 ranks
# on 2 shared cores over links this slow.
[ "$job_exit" = 0 ] || [ "$job_exit" = 3 ] || { echo "job $job_id: exit code $job_exit, expected 0 or 3"; exit 1; }
[ -f "$file" ] || { echo "no result file $file"; exit 1; }
grep -q "topology: scontrol show topology (3 leaves)" "$log" ||
  { echo "the link map's plan line does not take the tree from scontrol show topology"; exit 1; }

. "$(dirname "$0")/survey_slurm_checks.sh"
check_summary "the job's log" "$log"
"$bwreport" summary "$file" >"$work/summary.txt"
check_summary "bwreport summary" "$work/summary.txt"
check_flags_table "$file"
check_drain "$file"
check_report "$file"
echo "survey test passed in $(ms_since "$test_started") ms"
