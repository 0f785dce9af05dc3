# The frame of every Slurm integration test; sourced by tests/slurm/*.sh,
# which ctest runs as
#   SCRIPT REPO BWSURVEY BWREPORT CHECKER WORKDIR
# It starts a private cluster of $nodes pretend nodes (tests/slurm/cluster.sh)
# under WORKDIR and stops it by pid whatever happens.
set -euo pipefail
repo=$1 bwsurvey=$2 bwreport=$3 checker=$4 work=$5
if [ "$(id -u)" -ne 0 ]; then
  echo "SKIPPED: the Slurm tests start daemons and need root"
  exit 77
fi
. "$repo/tests/slurm/cluster.sh"
rm -rf "$work" && mkdir -p "$work"
trap slurm_cluster_stop EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# The pretend nodes all live at 127.0.0.1: Open MPI's TCP stays on the
# loopback (the VM's other interface once refused connects under load).
export OMPI_MCA_btl_tcp_if_include=lo OMPI_MCA_oob_tcp_if_include=lo
# The pretend nodes' ranks share 2 cores, more ranks than cores: waiting
# ranks yield the CPU (what mpirun sets by itself when it sees a node
# oversubscribed; under srun Open MPI cannot see it). Spinning, a rank
# waiting for a message held the core its sender needed until the
# scheduler's next tick: b_eff's 8-byte exchange took 12 ms instead of
# 1.4 ms, and a 4-node survey job 9 s instead of 4.7 s.
export OMPI_MCA_mpi_yield_when_idle=1
# What the job template reads (sbatch exports the environment to the job).
export BWSURVEY=$bwsurvey BWS_OUT_DIR=$work
# Short enough for CI on 2 cores: 1 thread per rank, 3 message sizes, one ring.
quick_options=(--quick --threads 1 --stream.elements "${stream_elements:-1M}" --beff.sizes 8,4096,65536 --beff.random-rings 0
               --beff.reps 3 --beff.min-time 0.002)

# start_cluster NODES [TOPOLOGY_CONF]
start_cluster() {
  slurm_cluster_start "$work/cluster" "$@"
  echo "cluster of $1 pretend nodes up: $(sinfo -h -N -o '%N' | sort -uV | paste -sd, -)"
}

# Submits with sbatch (arguments as given), waits, prints the job's log and
# sets job_id and job_exit.
# Open MPI's start-up across pretend nodes crashes now and then (a task's
# segfault in MPI_Init, before bwsurvey printed anything; once in a CI run
# beside stress-ng, docs/design-notes.md "Slurm tests"): such a job that
# ended is submitted once more. A job in which bwsurvey printed a line is
# never retried. (srun -K would end such a step at once, but it also ends
# every step where one rank exits non-zero: --fail-on-flags' exit 3.)
# Whether job log $1 shows the MPI start-up crash: a task's segfault (or an
# MPI_Init error) and no line of bwsurvey yet.
startup_crash_in() {
  [ -f "$1" ] && ! grep -q "^bwsurvey" "$1" 2>/dev/null && grep -Eq "Segmentation fault|MPI_Init" "$1" 2>/dev/null
}

# Waits for job $1 (log $2) to leave the queue, at most $3 s. Such a crash
# can leave the other ranks waiting for the dead one for ever ("Your Open
# MPI job may now hang"): a job still running 10 s after its log showed it
# is cancelled. Sets job_state.
wait_job_or_startup_crash() {
  local id=$1 log=$2 limit=$3 t crash_polls=0 cancelled=0
  for t in $(seq 1 $((limit * 5))); do
    [ -z "$(timeout 10 squeue -h -j "$id" 2>/dev/null)" ] && break
    if [ "$cancelled" = 0 ] && startup_crash_in "$log"; then
      crash_polls=$((crash_polls + 1))
      if [ "$crash_polls" -ge 50 ]; then
        echo "job $id: a task crashed in the MPI start-up and the job still runs 10 s later: cancelling it"
        timeout 10 scancel "$id" || true
        cancelled=1
      fi
    fi
    sleep 0.2
  done
  job_state=$(timeout 10 scontrol show job "$id" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p')
  job_state=${job_state:-UNKNOWN}
}

run_job() {
  local attempt log
  for attempt in 1 2; do
    job_id=$(sbatch --parsable --output="$work/job-%j.log" "$@")
    log=$work/job-$job_id.log
    wait_job_or_startup_crash "$job_id" "$log" 240
    job_exit=$(slurm_job_exit_code "$job_id")
    echo "---- job $job_id: $job_state, exit code $job_exit"
    cat "$log" || true
    echo "----"
    if [ "$attempt" = 1 ] && { [ "$job_exit" != 0 ] || [ "$job_state" = CANCELLED ]; } && startup_crash_in "$log"; then
      echo "job $job_id: the MPI start-up failed before bwsurvey ran; submitting it once more"
      continue
    fi
    return 0
  done
}

# On pretend nodes that share 2 cores, b_eff cannot scale: the linear-scaling
# check may fail (exit 3) without saying anything about the code under test.
expect_exit_0_or_3() {
  [ "$job_exit" = 0 ] || [ "$job_exit" = 3 ] || { echo "job $job_id: exit code $job_exit, expected 0 or 3"; exit 1; }
}

# Submits with jobs/survey (arguments as given, then --dir WORKDIR and the
# quick bwsurvey options), waits, prints the job's log and sets job_id,
# job_exit and job_log; a job whose MPI start-up crashed is submitted once
# more (as run_job does).
run_survey_wrapper() {
  local attempt line
  for attempt in 1 2; do
    line=$("$repo/jobs/survey" "$@" --dir "$work" -- "${quick_options[@]}")
    echo "$line"
    job_id=$(sed -n 's/^submitted job \([0-9]*\):.*/\1/p' <<<"$line")
    [ -n "$job_id" ] || { echo "jobs/survey did not submit a job"; exit 1; }
    job_log=$(ls "$work"/bwsurvey-n*-"$job_id".log 2>/dev/null || echo "$work/bwsurvey-n1-$job_id.log")
    wait_job_or_startup_crash "$job_id" "$job_log" 240
    job_log=$(ls "$work"/bwsurvey-n*-"$job_id".log 2>/dev/null || echo "$job_log")
    job_exit=$(slurm_job_exit_code "$job_id")
    echo "---- job $job_id: $job_state, exit code $job_exit"
    cat "$job_log" || true
    echo "----"
    if [ "$attempt" = 1 ] && { [ "$job_exit" != 0 ] || [ "$job_state" = CANCELLED ]; } && startup_crash_in "$job_log"; then
      echo "job $job_id: the MPI start-up failed before bwsurvey ran; submitting it once more"
      continue
    fi
    return 0
  done
}

# Field $2 (Partition, NodeList, Reservation, ...) of job $1 as scontrol shows it.
job_field() {
  scontrol show job "$1" 2>/dev/null | tr ' ' '\n' | sed -n "s/^$2=//p" | head -1
}
