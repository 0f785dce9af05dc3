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
run_job() {
  job_id=$(sbatch --parsable --output="$work/job-%j.log" "$@")
  local state
  state=$(slurm_wait_job "$job_id" 240)
  job_exit=$(slurm_job_exit_code "$job_id")
  echo "---- job $job_id: $state, exit code $job_exit"
  cat "$work/job-$job_id.log" || true
  echo "----"
}

# On pretend nodes that share 2 cores, b_eff cannot scale: the linear-scaling
# check may fail (exit 3) without saying anything about the code under test.
expect_exit_0_or_3() {
  [ "$job_exit" = 0 ] || [ "$job_exit" = 3 ] || { echo "job $job_id: exit code $job_exit, expected 0 or 3"; exit 1; }
}
