#!/usr/bin/env bash
# jobs/survey and jobs/scaling-study respect the site (issue 18):
# - options they do not know reach sbatch unchanged, both `--opt VALUE` and
#   `--opt=VALUE`, lone flags as one word; -N and stray words are refused;
# - the SBATCH_* variables a user set stay, except those for what the
#   scripts set themselves (a fake sbatch records its environment);
# - every survey job asks for the node's memory (#SBATCH --mem=0), the
#   scaling study's aggregation job for one core (no --exclusive, no --mem);
# - srun gets no --mpi unless BWS_SRUN_MPI says so (a fake srun records its
#   arguments); PMIX_MCA_gds=hash unless set;
# - BWS_SETUP is checked at submit time and sourced before bwsurvey is found;
#   bwsurvey is taken from PATH first, then the build tree beside jobs/, and
#   the log says which;
# - BWS_PER=numa uses the NUMA domains counted on the job's nodes (the fake
#   srun answers the probe step as nodes with 2 and 4 domains would).
# Usage: site_options_test.sh SOURCE_DIR
set -uo pipefail
source_dir=${1:?usage: site_options_test.sh SOURCE_DIR}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
cd "$work" || exit 1
survey=$source_dir/jobs/survey
study=$source_dir/jobs/scaling-study
for v in $(compgen -e | grep '^SBATCH_' || true); do unset "$v"; done

# --- pass-through, seen in the dry run -----------------------------------
"$survey" --dry-run --nodes 64 --dir "$work/d" --reservation maint_2026_11 --qos=maint --exclusive \
  --constraint bwtest -A proj --gres gpu:2 -x 'n[1-3]' -Jname --hold -- --quick >"$work/dry" 2>"$work/err" ||
  fail "pass-through options refused: $(cat "$work/err")"
expected='### sbatch --parsable --reservation maint_2026_11 --qos=maint --exclusive --constraint bwtest -A proj --gres gpu:2 -x n\[1-3\] -Jname --hold '"$work/d/survey-n64.sbatch"
grep -qxF -- "$expected" "$work/dry" || fail "sbatch line: $(grep '^### sbatch' "$work/dry"), expected $expected"
grep -qx '#SBATCH --nodes=64' "$work/dry" || fail "--nodes 64 lost among the sbatch options"
grep -qx '#SBATCH --mem=0' "$work/dry" || fail "no #SBATCH --mem=0 in the survey script"
grep -q 'survey.sbatch --quick$' "$work/dry" || fail "the bwsurvey options after -- are lost"
# A lone flag before the wrapper's own option and at the end.
"$survey" --dry-run --exclusive --nodes=3 --spread-job >"$work/dry" 2>"$work/err" || fail "flags refused: $(cat "$work/err")"
grep -qx '#SBATCH --nodes=3' "$work/dry" || fail "--nodes=3 after a flag not taken"
grep -q '^### sbatch --parsable --exclusive --spread-job /' "$work/dry" || fail "flags: $(grep '^### sbatch' "$work/dry")"
# An option whose next word starts with '-' has no value; --opt=VALUE for a value with '-'.
"$survey" --dry-run --some-new-flag --nice=-5 --partition debug >"$work/dry" 2>"$work/err" || fail "refused: $(cat "$work/err")"
grep -q '^### sbatch --parsable --some-new-flag --nice=-5 /' "$work/dry" || fail "unknown flag: $(grep '^### sbatch' "$work/dry")"
grep -qx '#SBATCH --partition=debug' "$work/dry" || fail "--partition after an unknown flag not the wrapper's"

# Refused: one line naming the word, exit 2, nothing written.
expect_refused() {
  local name=$1
  shift
  local out rc
  out=$("$@" 2>"$work/err")
  rc=$?
  [ "$rc" -eq 2 ] || fail "$*: exit $rc, expected 2"
  [ "$(wc -l <"$work/err")" -eq 1 ] && grep -qF -- "$name" "$work/err" || fail "$*: stderr is not one line naming $name: $(cat "$work/err")"
  [ -z "$out" ] || fail "$*: wrote output although refused"
}
expect_refused stray "$survey" --dry-run stray
expect_refused -N "$survey" --dry-run -N 4
expect_refused -N "$study" --dry-run -N 4
expect_refused "sbatch option" "$survey" --dry-run --comment $'a\nb'
expect_refused BWS_SRUN_MPI env BWS_SRUN_MPI='pmix --x' "$survey" --dry-run
expect_refused BWS_SETUP env BWS_SETUP="$work/missing.sh" "$survey" --dry-run
expect_refused BWS_SETUP env BWS_SETUP="$work" "$study" --dry-run
"$survey" --help >"$work/help" || fail "--help failed"
for word in "--nodes N" "default: \$BWS_NODES, else 1" "--reservation R" "goes to sbatch unchanged" BWS_SRUN_MPI BWS_SETUP; do
  grep -qF -- "$word" "$work/help" || fail "--help does not say '$word'"
done

# --- a fake sbatch: its arguments and SBATCH_* environment ---------------
mkdir -p "$work/bin"
cat >"$work/bin/sbatch" <<'FAKE'
#!/usr/bin/env bash
n=$(( $(ls "$FAKE_SBATCH_DIR" | wc -l) + 1 ))
{ printf '%s\n' "$@"; echo ENV; env | grep '^SBATCH_' | sort; } >"$FAKE_SBATCH_DIR/call-$n"
echo "$((100 + n))"
FAKE
chmod +x "$work/bin/sbatch"
mkdir -p "$work/calls"
PATH="$work/bin:$PATH" FAKE_SBATCH_DIR="$work/calls" SBATCH_RESERVATION=maint SBATCH_QOS=q1 SBATCH_PARTITION=second \
  SBATCH_CONSTRAINT=bwtest SBATCH_JOB_NAME=other SBATCH_EXCLUSIVE=user SBATCH_MEM_PER_CPU=1G SBATCH_OUTPUT=/x \
  "$survey" --nodes 2 --dir "$work/s" --gres=gpu:1 >"$work/out" 2>&1 || fail "survey with the fake sbatch: $(cat "$work/out")"
call=$work/calls/call-1
for kept in SBATCH_RESERVATION=maint SBATCH_QOS=q1 SBATCH_PARTITION=second SBATCH_CONSTRAINT=bwtest; do
  grep -qx "$kept" "$call" || fail "$kept not kept: $(sed -n '/ENV/,$p' "$call")"
done
for cleared in SBATCH_JOB_NAME SBATCH_EXCLUSIVE SBATCH_MEM_PER_CPU SBATCH_OUTPUT; do
  grep -q "^$cleared=" "$call" && fail "$cleared (the script sets it) not cleared"
done
[ "$(sed '/^ENV$/,$d' "$call")" = "$(printf '%s\n' --parsable --gres=gpu:1 "$work/s/survey-n2.sbatch")" ] ||
  fail "sbatch arguments: $(sed '/^ENV$/,$d' "$call")"
grep -q "submitted job 101" "$work/out" || fail "job id not reported: $(cat "$work/out")"
rm -f "$work/calls"/*
PATH="$work/bin:$PATH" FAKE_SBATCH_DIR="$work/calls" SBATCH_PARTITION=second SBATCH_TIMELIMIT=5 SBATCH_ACCOUNT=a \
  "$survey" --nodes 1 --dir "$work/s" --partition debug --time 10 --account b >"$work/out" 2>&1 || fail "$(cat "$work/out")"
for cleared in SBATCH_PARTITION SBATCH_TIMELIMIT SBATCH_ACCOUNT; do
  grep -q "^$cleared=" "$work/calls/call-1" && fail "$cleared kept although the wrapper's option sets it"
done

# --- the scaling study: aggregation on one core, placement options only ---
rm -f "$work/calls"/*
PATH="$work/bin:$PATH" FAKE_SBATCH_DIR="$work/calls" "$study" --nodes 1,2 --dir "$work/st" --reservation maint \
  --exclusive --constraint bwtest -q high -Aproj -- --quick >"$work/out" 2>&1 || fail "scaling study: $(cat "$work/out")"
[ "$(sed '/^ENV$/,$d' "$work/calls/call-1")" = "$(printf '%s\n' --parsable --reservation maint --exclusive --constraint bwtest \
  -q high -Aproj "$work/st/survey-n1.sbatch")" ] || fail "survey job's sbatch arguments: $(sed '/^ENV$/,$d' "$work/calls/call-1")"
[ "$(sed '/^ENV$/,$d' "$work/calls/call-3")" = "$(printf '%s\n' --parsable --dependency=afterany:101:102 --reservation maint \
  -q high -Aproj "$work/st/aggregate.sbatch" "$work/st/survey-101.h5" "$work/st/survey-102.h5")" ] ||
  fail "aggregation job's sbatch arguments: $(sed '/^ENV$/,$d' "$work/calls/call-3")"
agg=$work/st/aggregate.sbatch
grep -qx '#SBATCH --ntasks=1' "$agg" && grep -qx '#SBATCH --cpus-per-task=1' "$agg" || fail "aggregation not one core: $(grep '^#SBATCH' "$agg")"
grep -qE '^#SBATCH --(exclusive|mem)' "$agg" && fail "aggregation asks for a whole node: $(grep '^#SBATCH' "$agg")"
grep -qx '#SBATCH --mem=0' "$work/st/survey-n2.sbatch" || fail "no --mem=0 in the study's survey script"

# --- the job script with a fake srun ---------------------------------------
cat >"$work/bin/srun" <<'FAKE'
#!/usr/bin/env bash
# The NUMA probe (--mpi=none ... bash -c): answer as the nodes of FAKE_NUMA would.
if [ "$1" = --mpi=none ]; then printf '%b' "$FAKE_NUMA"; exit 0; fi
{ printf '%s\n' "$@"; echo "PMIX_MCA_gds=${PMIX_MCA_gds:-}"; [ -z "${SLURM_HOSTFILE:-}" ] || { echo HOSTFILE; cat "$SLURM_HOSTFILE"; }
} >"$FAKE_SRUN_ARGS"
FAKE
mkdir -p "$work/onpath"
printf '#!/bin/sh\n' >"$work/onpath/bwsurvey"
chmod +x "$work/bin/srun" "$work/onpath/bwsurvey"
# $1: the survey script; the rest: env assignments. Runs it as Slurm would (2 nodes, 8 CPUs each).
run_job_script() {
  local script=$1
  shift
  rm -f "$work/srun-args"
  env -i HOME="$HOME" PATH="$work/bin:/usr/bin:/bin" FAKE_SRUN_ARGS="$work/srun-args" SLURM_JOB_ID=77 \
    SLURM_JOB_NUM_NODES=2 SLURM_CPUS_ON_NODE=8 SLURM_SUBMIT_DIR="$work/submit" "$@" bash "$script" >"$work/job.log" 2>&1
}
mkdir -p "$work/submit"
"$survey" --dry-run --nodes 2 --dir "$work/j" >"$work/dry" && sed -n '2,/^### sbatch/p' "$work/dry" | sed '$d' >"$work/job.sbatch"
run_job_script "$work/job.sbatch" BWSURVEY=/x/bwsurvey || fail "job script failed: $(cat "$work/job.log")"
grep -q -- '^--mpi' "$work/srun-args" && fail "srun got --mpi without BWS_SRUN_MPI: $(head -8 "$work/srun-args")"
grep -qx 'PMIX_MCA_gds=hash' "$work/srun-args" || fail "PMIX_MCA_gds=hash not exported"
run_job_script "$work/job.sbatch" BWSURVEY=/x/bwsurvey BWS_SRUN_MPI=pmi2 PMIX_MCA_gds=shmem || fail "$(cat "$work/job.log")"
[ "$(head -1 "$work/srun-args")" = --mpi=pmi2 ] || fail "BWS_SRUN_MPI=pmi2: srun got $(head -1 "$work/srun-args")"
grep -qx 'PMIX_MCA_gds=shmem' "$work/srun-args" || fail "the site's PMIX_MCA_gds was overridden"
# BWS_SRUN_MPI given to the wrapper is written into the script.
BWS_SRUN_MPI=pmix "$survey" --dry-run --nodes 2 --dir "$work/j" >"$work/dry2" && sed -n '2,/^### sbatch/p' "$work/dry2" | sed '$d' >"$work/job2.sbatch"
run_job_script "$work/job2.sbatch" BWSURVEY=/x/bwsurvey || fail "$(cat "$work/job.log")"
[ "$(head -1 "$work/srun-args")" = --mpi=pmix ] || fail "wrapper's BWS_SRUN_MPI=pmix: srun got $(head -1 "$work/srun-args")"

# bwsurvey on PATH first (here put there by BWS_SETUP), and the log says so.
printf 'echo setup-ran\nPATH=%q:$PATH\nexport SETUP_MARK=1\n' "$work/onpath" >"$work/setup.sh"
BWS_SETUP=$work/setup.sh "$survey" --dry-run --nodes 2 --dir "$work/j" >"$work/dry3" 2>"$work/err" || fail "BWS_SETUP refused: $(cat "$work/err")"
grep -qx "export BWS_SETUP=$work/setup.sh" "$work/dry3" || fail "BWS_SETUP not in the script"
sed -n '2,/^### sbatch/p' "$work/dry3" | sed '$d' >"$work/job3.sbatch"
run_job_script "$work/job3.sbatch" || fail "with BWS_SETUP: $(cat "$work/job.log")"
grep -qx setup-ran "$work/job.log" || fail "BWS_SETUP not sourced: $(cat "$work/job.log")"
grep -qx "$work/onpath/bwsurvey" "$work/srun-args" || fail "srun did not get bwsurvey from PATH: $(cat "$work/srun-args")"
grep -q "bwsurvey $work/onpath/bwsurvey (installed, on PATH)" "$work/job.log" || fail "the log does not say PATH: $(cat "$work/job.log")"
# A setup file that fails: the job stops (exit 1) before srun.
printf 'false\n' >"$work/bad-setup.sh"
run_job_script "$work/job.sbatch" BWSURVEY=/x/bwsurvey BWS_SETUP="$work/bad-setup.sh"
[ $? -eq 1 ] && [ ! -e "$work/srun-args" ] || fail "a failing BWS_SETUP did not stop the job: $(cat "$work/job.log")"
# Not on PATH: the build tree beside the job scripts.
mkdir -p "$work/tree/build/apps"
cp -r "$source_dir/jobs" "$work/tree/jobs"
printf '#!/bin/sh\n' >"$work/tree/build/apps/bwsurvey" && chmod +x "$work/tree/build/apps/bwsurvey"
"$work/tree/jobs/survey" --dry-run --nodes 2 --dir "$work/j" >"$work/dry4" && sed -n '2,/^### sbatch/p' "$work/dry4" | sed '$d' >"$work/job4.sbatch"
run_job_script "$work/job4.sbatch" || fail "build tree: $(cat "$work/job.log")"
grep -qx "$work/tree/build/apps/bwsurvey" "$work/srun-args" || fail "srun did not get the build tree's bwsurvey: $(cat "$work/srun-args")"
grep -q "(the build tree beside the job scripts)" "$work/job.log" || fail "the log does not say build tree: $(cat "$work/job.log")"

# BWS_PER=numa: the counts of the job's nodes, not of this machine.
BWS_PER=numa "$survey" --dry-run --nodes 2 --dir "$work/j" >"$work/dry5" && sed -n '2,/^### sbatch/p' "$work/dry5" | sed '$d' >"$work/job5.sbatch"
run_job_script "$work/job5.sbatch" BWSURVEY=/x/bwsurvey FAKE_NUMA='n1 2 8\nn2 2 8\n' || fail "numa: $(cat "$work/job.log")"
for a in --ntasks-per-node=2 --ntasks=4 --cpus-per-task=4; do
  grep -qx -- "$a" "$work/srun-args" || fail "numa, 2 domains per node: srun without $a: $(head -8 "$work/srun-args")"
done
run_job_script "$work/job5.sbatch" BWSURVEY=/x/bwsurvey FAKE_NUMA='n1 2 8\nn2 4 8\n' || fail "numa: $(cat "$work/job.log")"
for a in --ntasks=6 --distribution=arbitrary --cpus-per-task=2; do
  grep -qx -- "$a" "$work/srun-args" || fail "numa, 2 and 4 domains: srun without $a: $(head -8 "$work/srun-args")"
done
[ "$(sed -n '/^HOSTFILE$/,$p' "$work/srun-args" | tail -n +2 | paste -sd, -)" = n1,n1,n2,n2,n2,n2 ] ||
  fail "numa host file: $(sed -n '/^HOSTFILE$/,$p' "$work/srun-args")"

if [ "$failures" -gt 0 ]; then
  echo "$failures failures" >&2
  exit 1
fi
echo "jobs site options: all checks passed"
