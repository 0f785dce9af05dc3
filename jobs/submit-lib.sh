# Shared by jobs/survey and jobs/scaling-study: their options, the job
# scripts they write, and how they submit them. Sourced, not run.
# Every setting has a flag and an environment variable (the flag wins):
#   --partition P   BWS_PARTITION     --account A     BWS_ACCOUNT
#   --time T        BWS_TIME          --nodelist L    BWS_NODELIST
#   --tests T       BWS_TESTS         --per node|numa BWS_PER
#   --launcher srun|mpirun BWS_LAUNCHER                --dir D  BWS_STUDY_DIR
#   --bwsurvey PATH BWSURVEY          --bwreport PATH BWREPORT
#   --dry-run       print the scripts and the sbatch commands, submit nothing
#   -- OPTIONS...   passed to bwsurvey (after BWS_OPTIONS)

jobs_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo_dir=$(dirname "$jobs_dir")

# Inherited SBATCH_* variables would silently change every job (ReFrame
# clears them too): the settings here are the only ones.
clear_sbatch_environment() {
  local v
  for v in $(compgen -e | grep '^SBATCH_' || true); do unset "$v"; done
}

set_defaults() {
  partition=${BWS_PARTITION:-}
  account=${BWS_ACCOUNT:-}
  time_limit=${BWS_TIME:-}
  nodelist=${BWS_NODELIST:-}
  tests=${BWS_TESTS:-}
  per=${BWS_PER:-node}
  launcher=${BWS_LAUNCHER:-srun}
  study_dir=${BWS_STUDY_DIR:-}
  bwsurvey=${BWSURVEY:-$repo_dir/build/apps/bwsurvey}
  bwreport=${BWREPORT:-$repo_dir/build/apps/bwreport}
  extra_options=(${BWS_OPTIONS:-})
  dry_run=0
}

# Parses one common option at "$@"; sets `shifted` to how many words it took
# (0: not a common option).
parse_common_option() {
  shifted=2
  case $1 in
    --partition) partition=$2 ;;
    --account) account=$2 ;;
    --time) time_limit=$2 ;;
    --nodelist) nodelist=$2 ;;
    --tests) tests=$2 ;;
    --per) per=$2 ;;
    --launcher) launcher=$2 ;;
    --dir) study_dir=$2 ;;
    --bwsurvey) bwsurvey=$2 ;;
    --bwreport) bwreport=$2 ;;
    --dry-run) dry_run=1; shifted=1 ;;
    *) shifted=0 ;;
  esac
  if [ "$shifted" -eq 2 ] && [ $# -lt 2 ]; then echo "$(basename "$0"): $1 needs a value" >&2; exit 2; fi
}

check_common_options() {
  case $per in node|numa) ;; *) echo "$(basename "$0"): --per '$per'; allowed: node, numa" >&2; exit 2 ;; esac
  case $launcher in srun|mpirun) ;; *) echo "$(basename "$0"): --launcher '$launcher'; allowed: srun, mpirun" >&2; exit 2 ;; esac
}

# The first $1 hosts of the node list (a Slurm host list), comma separated.
first_hosts() {
  local count=$1 hosts
  [ -n "$nodelist" ] || return 0
  hosts=$(scontrol show hostnames "$nodelist" 2>/dev/null || tr ',' '\n' <<<"$nodelist")
  head -n "$count" <<<"$hosts" | paste -sd, -
}

# A survey job script on $1 nodes, named $2, writing its results to $3.
write_survey_script() {
  local n=$1 name=$2 out_dir=$3 hosts
  hosts=$(first_hosts "$n")
  echo "#!/usr/bin/env bash"
  echo "#SBATCH --job-name=$name"
  echo "#SBATCH --nodes=$n"
  echo "#SBATCH --exclusive"
  if [ "$per" = node ]; then echo "#SBATCH --ntasks-per-node=1"; fi
  [ -n "$partition" ] && echo "#SBATCH --partition=$partition"
  [ -n "$account" ] && echo "#SBATCH --account=$account"
  [ -n "$time_limit" ] && echo "#SBATCH --time=$time_limit"
  [ -n "$hosts" ] && echo "#SBATCH --nodelist=$hosts"
  echo "#SBATCH --output=$out_dir/$name-%j.log"
  printf 'export BWS_OUT_DIR=%q BWS_PER=%q BWS_LAUNCHER=%q BWSURVEY=%q\n' "$out_dir" "$per" "$launcher" "$bwsurvey"
  printf 'export BWS_TESTS=%q BWS_OPTIONS=%q\n' "$tests" "${extra_options[*]}"
  printf 'exec bash %q\n' "$jobs_dir/survey.sbatch"
}

# Submits script $1 (more sbatch arguments after it) and prints the job id;
# with --dry-run prints the command and a placeholder id instead.
submit() {
  local script=$1 placeholder=$2
  shift 2
  if [ "$dry_run" -eq 1 ]; then
    echo "<job id of $placeholder>"
    return 0
  fi
  sbatch --parsable "$@" "$script" | cut -d';' -f1
}
