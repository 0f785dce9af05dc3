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
# What the job template reads (sbatch exports the environment to the job).
export BWSURVEY=$bwsurvey BWS_OUT_DIR=$work
# Short enough for CI on 2 cores: 1 thread per rank, 3 message sizes, one ring.
quick_options=(--quick --threads 1 --stream.elements "${stream_elements:-1M}" --beff.sizes 8,4096,65536 --beff.random-rings 0
               --beff.reps 3 --beff.min-time 0.002)

# start_cluster NODES [TOPOLOGY_CONF]
start_cluster() {
  slurm_cluster_start "$work/cluster" "$@"
  echo "cluster of $1 pretend nodes up: $(sinfo -h -N -o '%N' | paste -sd, -)"
}

# Submits with sbatch (arguments as given), waits, prints the job's log and
# sets job_id and job_exit.
# Open MPI's start-up across pretend nodes crashes now and then (a task's
# segfault in MPI_Init, before bwsurvey printed anything; once in a CI run
# beside stress-ng, docs/design-notes.md "Slurm tests"): such a job that
# ended is submitted once more. A job in which bwsurvey printed a line is
# never retried. (srun -K would end such a step at once, but it also ends
# every step where one rank exits non-zero: --fail-on-flags' exit 3.)
run_job() {
  local state attempt log
  for attempt in 1 2; do
    job_id=$(sbatch --parsable --output="$work/job-%j.log" "$@")
    state=$(slurm_wait_job "$job_id" 240)
    job_exit=$(slurm_job_exit_code "$job_id")
    log=$work/job-$job_id.log
    echo "---- job $job_id: $state, exit code $job_exit"
    cat "$log" || true
    echo "----"
    if [ "$attempt" = 1 ] && [ "$job_exit" != 0 ] && ! grep -q "^bwsurvey" "$log" 2>/dev/null &&
      grep -Eq "Segmentation fault|MPI_Init" "$log" 2>/dev/null; then
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
