# Shared by jobs/survey, jobs/scaling-study and jobs/campaign: their options,
# the job scripts they write, and how they submit them. Sourced, not run.
# The wrapper's own settings have a flag and an environment variable (the flag
# wins; `--flag VALUE` and `--flag=VALUE` are the same):
#   --partition P   BWS_PARTITION     --account A     BWS_ACCOUNT
#   --time T        BWS_TIME          --nodelist L    BWS_NODELIST
#   --tests T       BWS_TESTS         --per node|numa BWS_PER
#   --launcher srun|mpirun BWS_LAUNCHER                --dir D  BWS_STUDY_DIR
#   --bwsurvey PATH BWSURVEY          --bwreport PATH BWREPORT
#   --dry-run       print the scripts and the sbatch commands, submit nothing
#   -- OPTIONS...   passed to bwsurvey (after BWS_OPTIONS), each word as it is
# Every other option goes to sbatch unchanged, on its command line (it wins
# over the #SBATCH lines of the script): `--opt=VALUE` and `-xVALUE` are one
# word; a flag of sbatch's that takes no value (SBATCH_FLAGS below) is one
# word; any other `--opt` or `-x` takes the next word as its value unless that
# word starts with '-' (write --opt=VALUE for a value that starts with '-').
# Every value is checked before a script is written (one line naming the
# option, exit 2): no control characters (a newline would add lines to the
# job script), Slurm's forms for --partition, --account, --time and
# --nodelist. Values reach the script quoted (printf %q); the options after
# `--` are arguments of the job script, never split or globbed again.

jobs_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo_dir=$(dirname "$jobs_dir")

# sbatch's options that never take a separate value (Slurm 22.05's sbatch(1);
# those with an optional value take it only as --opt=VALUE).
SBATCH_FLAGS=" --contiguous --exclusive --get-user-env --hold -H --ignore-pbs --nice --no-kill -k
  --no-requeue --overcommit -O --oversubscribe -s --parsable --propagate --quiet -Q --reboot --requeue
  --spread-job --test-only --use-min-nodes --verbose -v --wait -W --usage -V --version "
# The pass-through options the scaling study's aggregation job also gets:
# where and under what it may run, not what it needs (it needs one core).
SBATCH_PLACEMENT_OPTIONS=" -A --account -p --partition -q --qos --reservation -M --clusters --wckey "

# SBATCH_* variables the user set stay (a site's SBATCH_RESERVATION,
# SBATCH_QOS, ...); only those that would override what the wrapper writes
# into its scripts are cleared (sbatch ranks them above #SBATCH lines): the
# job name, log, whole-node and memory requests always, the partition,
# account and time limit when the wrapper was given them. Call after parsing.
clear_sbatch_environment() {
  unset SBATCH_JOB_NAME SBATCH_OUTPUT SBATCH_EXCLUSIVE SBATCH_MEM_PER_NODE SBATCH_MEM_PER_CPU SBATCH_MEM_PER_GPU
  [ -z "$partition" ] || unset SBATCH_PARTITION
  [ -z "$account" ] || unset SBATCH_ACCOUNT
  [ -z "$time_limit" ] || unset SBATCH_TIMELIMIT
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
  # Empty: the job finds them (PATH first, then the build tree beside jobs/).
  bwsurvey=${BWSURVEY:-}
  bwreport=${BWREPORT:-}
  srun_mpi=${BWS_SRUN_MPI:-}
  setup=${BWS_SETUP:-}
  sbatch_options=()             # every option for sbatch, as given
  placement_sbatch_options=()   # those of them in SBATCH_PLACEMENT_OPTIONS
  # Split on blanks, never globbed ('*' stays '*').
  read -r -a extra_options <<<"${BWS_OPTIONS:-}"
  dry_run=0
  # jobs/campaign sets it: see write_survey_script (empty: the job script
  # ends with exec, as jobs/survey and jobs/scaling-study write it).
  exit_file_dir=
}

# Parses one common option at "$@"; sets `shifted` to how many words it took
# (0: not a common option). `--opt=VALUE` is taken as `--opt VALUE`.
parse_common_option() {
  local name=$1 value=
  shifted=2
  if [[ $1 == --*=* ]]; then name=${1%%=*}; value=${1#*=}; shifted=1
  elif [ $# -ge 2 ]; then value=$2
  fi
  case $name in
    --partition) partition=$value ;;
    --account) account=$value ;;
    --time) time_limit=$value ;;
    --nodelist) nodelist=$value ;;
    --tests) tests=$value ;;
    --per) per=$value ;;
    --launcher) launcher=$value ;;
    --dir) study_dir=$value ;;
    --bwsurvey) bwsurvey=$value ;;
    --bwreport) bwreport=$value ;;
    --dry-run) [ "$shifted" -eq 2 ] || { echo "$(basename "$0"): --dry-run takes no value" >&2; exit 2; }
               dry_run=1; shifted=1 ;;
    *) shifted=0 ;;
  esac
  if [ "$shifted" -eq 2 ] && [ $# -lt 2 ]; then echo "$(basename "$0"): $1 needs a value" >&2; exit 2; fi
}

# Takes an option the wrapper does not know, at "$@", for sbatch (appended
# to sbatch_options as it is); sets `shifted`. The rule is in the header.
parse_sbatch_option() {
  local option=$1 name=${1%%=*}
  local -a words
  case $option in
    --) shifted=0; return ;;
    -N|--nodes|-N*) echo "$(basename "$0"): $option: the node count is the wrapper's --nodes (it is written into every script)" >&2; exit 2 ;;
    --*=*|-?) ;;
    --?*) ;;
    -?*) name=${option:0:2} ;;  # -xVALUE: one word
    *) echo "$(basename "$0"): unexpected argument '$option' (no positional arguments; bwsurvey options go after --); see --help" >&2; exit 2 ;;
  esac
  if [[ $option == *=* ]] || [[ $option != --* && ${#option} -gt 2 ]] || [[ $SBATCH_FLAGS == *" $option "* ]] ||
     [ $# -lt 2 ] || [[ $2 == -* ]]; then
    words=("$option")
  else
    words=("$option" "$2")
  fi
  shifted=${#words[@]}
  sbatch_options+=("${words[@]}")
  if [[ $SBATCH_PLACEMENT_OPTIONS == *" $name "* ]]; then placement_sbatch_options+=("${words[@]}"); fi
}

# Parses the wrapper's own options and sbatch's at "$@" (the caller's loop);
# sets `shifted`.
parse_option() {
  parse_common_option "$@"
  [ "$shifted" -gt 0 ] || parse_sbatch_option "$@"
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
  for value in "${sbatch_options[@]}"; do check_no_control "an sbatch option" "$value"; done
  [ -z "$srun_mpi" ] || [[ $srun_mpi =~ ^[A-Za-z0-9_.-]+$ ]] ||
    reject_value BWS_SRUN_MPI "$srun_mpi" "an srun --mpi type such as pmix, pmix_v4, pmi2, none (letters, digits, . _ -)"
  check_setup_file
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

# BWS_SETUP: a file the job sources before it launches (module load ...).
# Checked here, at submit time: a missing or unreadable one is refused (one
# line, exit 2) instead of failing the job in the queue hours later. Made
# absolute: the job runs elsewhere.
check_setup_file() {
  [ -n "$setup" ] || return 0
  check_no_control BWS_SETUP "$setup"
  [ -f "$setup" ] && [ -r "$setup" ] ||
    reject_value BWS_SETUP "$setup" "a readable file (sourced by the job before it launches bwsurvey)"
  setup=$(realpath "$setup")
}

# The first $1 hosts of the node list (a Slurm host list), comma separated.
first_hosts() {
  local count=$1 hosts
  [ -n "$nodelist" ] || return 0
  hosts=$(scontrol show hostnames "$nodelist" 2>/dev/null || tr ',' '\n' <<<"$nodelist")
  head -n "$count" <<<"$hosts" | paste -sd, -
}

# A survey job script on $1 nodes, named $2, writing its results to $3.
# With exit_file_dir set, the script does not exec survey.sbatch: it runs it,
# writes its exit code to $exit_file_dir/batch-<job id>.exit (a temporary
# file renamed: never half a file) and exits with that code; jobs/campaign
# reads it once the job left the queue (sacct may not be there to ask).
write_survey_script() {
  local n=$1 name=$2 out_dir=$3 hosts
  hosts=$(first_hosts "$n")
  echo "#!/usr/bin/env bash"
  echo "#SBATCH --job-name=$name"
  echo "#SBATCH --nodes=$n"
  echo "#SBATCH --exclusive"
  echo "#SBATCH --mem=0"  # all of each node's memory (a site's default may be a slice)
  if [ "$per" = node ]; then echo "#SBATCH --ntasks-per-node=1"; fi
  [ -n "$partition" ] && echo "#SBATCH --partition=$partition"
  [ -n "$account" ] && echo "#SBATCH --account=$account"
  [ -n "$time_limit" ] && echo "#SBATCH --time=$time_limit"
  [ -n "$hosts" ] && echo "#SBATCH --nodelist=$hosts"
  echo "#SBATCH --output=\"$out_dir/$name-%j.log\""
  printf 'export BWS_OUT_DIR=%q BWS_PER=%q BWS_LAUNCHER=%q\n' "$out_dir" "$per" "$launcher"
  # Unset: the job finds bwsurvey (PATH after BWS_SETUP, then the build tree).
  [ -z "$bwsurvey" ] || printf 'export BWSURVEY=%q\n' "$(realpath -m "$bwsurvey")"
  [ -z "$bwreport" ] || printf 'export BWREPORT=%q\n' "$(realpath -m "$bwreport")"
  [ -z "$srun_mpi" ] || printf 'export BWS_SRUN_MPI=%q\n' "$srun_mpi"
  [ -z "$setup" ] || printf 'export BWS_SETUP=%q\n' "$setup"
  # The bwsurvey options are the job script's arguments, each quoted: they
  # arrive as given (a path with a space stays one word, '*' is not globbed).
  printf 'export BWS_TESTS=%q BWS_OPTIONS=\n' "$tests"
  [ -n "${exit_file_dir:-}" ] || printf 'exec '
  printf 'bash %q' "$jobs_dir/survey.sbatch"
  if [ ${#extra_options[@]} -gt 0 ]; then printf ' %q' "${extra_options[@]}"; fi
  printf '\n'
  [ -z "${exit_file_dir:-}" ] || write_exit_file_lines
}

# The end of a campaign batch's script (see write_survey_script).
write_exit_file_lines() {
  echo 'code=$?'
  printf 'exit_file=%q/batch-"$SLURM_JOB_ID".exit\n' "$exit_file_dir"
  echo '{ echo "$code" >"$exit_file.tmp" && mv -f "$exit_file.tmp" "$exit_file"; } ||'
  echo '  echo "campaign batch: could not write $exit_file (exit $code)" >&2'
  echo 'exit "$code"'
}

# Prints "### sbatch ARGS..." as the wrapper would run it (each word quoted).
print_sbatch_command() {
  printf '### sbatch'
  [ $# -eq 0 ] || printf ' %q' "$@"
  printf '\n'
}

# Submits script $1 (more sbatch arguments after it, then the pass-through
# options) and prints the job id; with --dry-run a placeholder id instead.
submit() {
  local script=$1 placeholder=$2
  shift 2
  if [ "$dry_run" -eq 1 ]; then
    echo "$placeholder"
    return 0
  fi
  sbatch --parsable "$@" "${sbatch_options[@]}" "$script" | cut -d';' -f1
}

# Usage of the wrapper's own options shared by both scripts (defaults shown).
print_common_usage() {
  cat <<USAGE
  --partition P     Slurm partition(s), #SBATCH --partition (default: \$BWS_PARTITION, else the site's)
  --account A       Slurm account (default: \$BWS_ACCOUNT, else the site's)
  --time T          time limit, Slurm's forms MIN, H:MIN:SEC, D-H, ... (default: \$BWS_TIME, else the partition's)
  --nodelist L      run on these hosts, a Slurm host list (default: \$BWS_NODELIST, none)
  --tests T         bwsurvey --tests (default: \$BWS_TESTS, else bwsurvey's default set)
  --per node|numa   one rank per node, or per NUMA domain counted on each node (default: \$BWS_PER, else node)
  --launcher srun|mpirun  (default: \$BWS_LAUNCHER, else srun; srun's --mpi: the site's MpiDefault,
                    or BWS_SRUN_MPI, e.g. BWS_SRUN_MPI=pmix)
  --dir D           job scripts, logs and results (default: \$BWS_STUDY_DIR, else $1)
  --bwsurvey PATH   (default: \$BWSURVEY, else found by the job: bwsurvey on PATH after BWS_SETUP,
                    then build/apps/bwsurvey beside jobs/, then PREFIX/bin beside share/bwsurvey/jobs)
  --bwreport PATH   (default: \$BWREPORT, else the survey job's is beside its bwsurvey, the
                    aggregation job's on PATH, then build/apps/bwreport beside jobs/)
  --dry-run         print the scripts and the sbatch commands, submit nothing
  -h, --help        this text
  -- OPTIONS...     bwsurvey options (after \$BWS_OPTIONS), each word as it is
Every other option goes to sbatch unchanged, on its command line (it wins over the
#SBATCH lines): --reservation R, --reservation=R, --qos Q, --constraint C, --exclusive, -A A,
--gres G, ... --opt=VALUE and -xVALUE are one word; sbatch's flags without a value
(--exclusive, --hold, --requeue, --spread-job, -v, ...) are one word; any other option takes
the next word as its value unless that word starts with '-' (write --opt=VALUE then).
-N is refused: the node count is --nodes.
Environment: SBATCH_* variables stay, except those for what the scripts set themselves
(SBATCH_JOB_NAME, SBATCH_OUTPUT, SBATCH_EXCLUSIVE, SBATCH_MEM_*; SBATCH_PARTITION,
SBATCH_ACCOUNT, SBATCH_TIMELIMIT when --partition, --account, --time are given).
BWS_SETUP=FILE: sourced by the job before it launches (module load ...); checked now.
Every job asks for whole nodes with all their memory (--exclusive --mem=0).
USAGE
}
