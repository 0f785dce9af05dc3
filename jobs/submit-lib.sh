# Shared by jobs/survey and jobs/scaling-study: their options, the job
# scripts they write, and how they submit them. Sourced, not run.
# Every setting has a flag and an environment variable (the flag wins):
#   --partition P   BWS_PARTITION     --account A     BWS_ACCOUNT
#   --time T        BWS_TIME          --nodelist L    BWS_NODELIST
#   --tests T       BWS_TESTS         --per node|numa BWS_PER
#   --launcher srun|mpirun BWS_LAUNCHER                --dir D  BWS_STUDY_DIR
#   --bwsurvey PATH BWSURVEY          --bwreport PATH BWREPORT
#   --dry-run       print the scripts and the sbatch commands, submit nothing
#   -- OPTIONS...   passed to bwsurvey (after BWS_OPTIONS), each word as it is
# Every value is checked before a script is written (one line naming the
# option, exit 2): no control characters (a newline would add lines to the
# job script), Slurm's forms for --partition, --account, --time and
# --nodelist. Values reach the script quoted (printf %q); the options after
# `--` are arguments of the job script, never split or globbed again.

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
  # Split on blanks, never globbed ('*' stays '*').
  read -r -a extra_options <<<"${BWS_OPTIONS:-}"
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

# One line on stderr, exit 2. $1: the option, $2: its value, $3: what is allowed.
# The value is shown quoted (%q: a newline shows as $'\n'), cut at 200 bytes.
reject_value() {
  local shown
  shown=$(printf '%q' "${2:0:200}")
  echo "$(basename "$0"): $1 $shown; allowed: $3" >&2
  exit 2
}

# No control character (newline, escape, ...) in any value.
check_no_control() {
  local option=$1 value=$2
  if [[ $value == *[[:cntrl:]]* ]]; then reject_value "$option" "$value" "no control characters (newlines, tabs, escapes)"; fi
}

# Slurm's time limit forms: MIN, MIN:SEC, H:MIN:SEC, D-H, D-H:MIN, D-H:MIN:SEC, UNLIMITED/INFINITE.
is_slurm_time() {
  [[ $1 =~ ^([0-9]+-[0-9]+(:[0-9]+(:[0-9]+)?)?|[0-9]+(:[0-9]+(:[0-9]+)?)?|UNLIMITED|unlimited|INFINITE|infinite)$ ]]
}

check_slurm_time() {
  is_slurm_time "$2" || reject_value "$1" "$2" "Slurm's forms MIN, MIN:SEC, H:MIN:SEC, D-H, D-H:MIN, D-H:MIN:SEC or UNLIMITED"
}

# A path written into an #SBATCH line, in double quotes: no '"', '\' or '%'
# (sbatch expands %j in --output), no control characters.
check_script_path() {
  check_no_control "$1" "$2"
  case $2 in *'"'*|*'\'*|*%*) reject_value "$1" "$2" "a path without '\"', '\\' or '%' (it goes into #SBATCH --output)" ;; esac
}

check_common_options() {
  local option value
  for option in partition account time_limit nodelist tests per launcher study_dir bwsurvey bwreport; do
    value=${!option}
    case $option in time_limit) option=--time ;; study_dir) option=--dir ;; *) option=--$option ;; esac
    check_no_control "$option" "$value"
  done
  for value in "${extra_options[@]}"; do check_no_control "an option after --" "$value"; done
  case $per in node|numa) ;; *) reject_value --per "$per" "node, numa" ;; esac
  case $launcher in srun|mpirun) ;; *) reject_value --launcher "$launcher" "srun, mpirun" ;; esac
  [ -z "$partition" ] || [[ $partition =~ ^[A-Za-z0-9._+-]+(,[A-Za-z0-9._+-]+)*$ ]] ||
    reject_value --partition "$partition" "a Slurm partition name or a comma list of them (letters, digits, . _ + -)"
  [ -z "$account" ] || [[ $account =~ ^[A-Za-z0-9._+-]+$ ]] ||
    reject_value --account "$account" "a Slurm account name (letters, digits, . _ + -)"
  [ -z "$time_limit" ] || check_slurm_time --time "$time_limit"
  local hostlist_pattern='^[][A-Za-z0-9._,-]+$'  # ']' first: literal in a bracket expression
  [ -z "$nodelist" ] || [[ $nodelist =~ $hostlist_pattern ]] ||
    reject_value --nodelist "$nodelist" "a Slurm host list such as n[01-04],gpu7 (letters, digits, . _ - , [ ])"
  [ -z "$study_dir" ] || check_script_path --dir "$study_dir"
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
  echo "#SBATCH --output=\"$out_dir/$name-%j.log\""
  printf 'export BWS_OUT_DIR=%q BWS_PER=%q BWS_LAUNCHER=%q BWSURVEY=%q\n' "$out_dir" "$per" "$launcher" "$bwsurvey"
  # The bwsurvey options are the job script's arguments, each quoted: they
  # arrive as given (a path with a space stays one word, '*' is not globbed).
  printf 'export BWS_TESTS=%q BWS_OPTIONS=\n' "$tests"
  printf 'exec bash %q' "$jobs_dir/survey.sbatch"
  if [ ${#extra_options[@]} -gt 0 ]; then printf ' %q' "${extra_options[@]}"; fi
  printf '\n'
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
