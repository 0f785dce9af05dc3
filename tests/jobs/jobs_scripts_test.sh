#!/usr/bin/env bash
# jobs/survey, jobs/scaling-study and jobs/campaign quote and validate
# every value. A newline (or another control character) in --partition,
# --account, --time or --nodelist, a malformed --time, a hostile --dir: one
# line naming the option, exit 2, no script. Good values: the --dry-run
# script has them quoted, and the bwsurvey options after `--` reach bwsurvey
# word for word (run through the generated script and survey.sbatch with a
# fake srun that records its arguments: a path with a space stays one
# argument, '*' is not globbed).
# Usage: jobs_scripts_test.sh SOURCE_DIR
set -uo pipefail
source_dir=${1:?usage: jobs_scripts_test.sh SOURCE_DIR}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

cd "$work" || exit 1
touch glob-bait-1 glob-bait-2  # an unquoted '*' would become these

# $1: script (survey|scaling-study), $2: the option named in the message,
# then the arguments. Expects exit 2, one stderr line naming the option, no stdout.
expect_refused() {
  local script=$1 option=$2
  shift 2
  local out err rc
  out=$("$source_dir/jobs/$script" --dry-run "$@" 2>"$work/err")
  rc=$?
  err=$(cat "$work/err")
  [ "$rc" -eq 2 ] || fail "$script $*: exit $rc, expected 2 ($err)"
  [ "$(wc -l <"$work/err")" -eq 1 ] || fail "$script $*: stderr is not one line: $err"
  [[ $err == *"$option"* ]] || fail "$script $*: stderr does not name $option: $err"
  [ -z "$out" ] || fail "$script $*: wrote a script although refused: $out"
}

for script in survey scaling-study campaign; do
  expect_refused "$script" --partition --partition $'debug\n#SBATCH --wrap=rm -rf ~'
  expect_refused "$script" --account --account $'acct\n#SBATCH --uid=0'
  expect_refused "$script" --time --time $'1:00:00\n#SBATCH --exclusive'
  expect_refused "$script" --nodelist --nodelist $'n[1-2]\nevil'
  expect_refused "$script" --partition --partition $'debug\x1b[31m'
  expect_refused "$script" --time --time 1:00:00x
  expect_refused "$script" --time --time 'tomorrow'
  expect_refused "$script" --time --time '1-'
  expect_refused "$script" --account --account 'a b'
  expect_refused "$script" --nodelist --nodelist 'n1 n2'
  expect_refused "$script" --dir --dir $'/tmp/a\nb'
  expect_refused "$script" --dir --dir '/tmp/a"b'
  expect_refused "$script" --dir --dir '/tmp/100%j'
  expect_refused "$script" --tests --tests $'stream\nbeff'
  expect_refused "$script" "after --" -- --out $'/tmp/x\ny.h5'
done
expect_refused scaling-study --min-efficiency --min-efficiency $'0.8\n#SBATCH --wrap=x'
expect_refused campaign --batch-nodes --batch-nodes 0
expect_refused campaign --max-jobs --max-jobs x
expect_refused campaign --window --window -1
expect_refused campaign --poll --poll 0
expect_refused campaign --nice --nice -5
expect_refused campaign --batch-nodes --nodes 3
expect_refused campaign --resume --resume "$work/no-such-campaign"

# Every form of Slurm's --time is taken.
for t in 30 30:15 1:00:00 2-12 2-12:30 2-12:30:00 UNLIMITED infinite; do
  "$source_dir/jobs/survey" --dry-run --time "$t" >"$work/out" 2>"$work/err" || fail "--time $t refused: $(cat "$work/err")"
  grep -qx "#SBATCH --time=$t" "$work/out" || fail "--time $t not in the script"
done

# A good survey: the script between '### path' and '### sbatch'.
out_dir="$work/out dir"
"$source_dir/jobs/survey" --nodes 2 --dry-run --dir "$out_dir" --partition debug,long --account proj-1 \
  --time 2-12:30:00 --nodelist 'n[01-02]' -- --reference "/a b/ref.ini" '*' --stream.elements 1M \
  >"$work/dry" 2>"$work/err" || fail "good survey refused: $(cat "$work/err")"
sed -n '2,/^### sbatch/p' "$work/dry" | sed '$d' >"$work/job.sbatch"
grep -qx '#SBATCH --output="'"$out_dir"'/bwsurvey-n2-%j.log"' "$work/job.sbatch" ||
  fail "the --output line is not quoted: $(grep output "$work/job.sbatch")"
grep -qx '#SBATCH --partition=debug,long' "$work/job.sbatch" || fail "no partition line"
grep -qx '#SBATCH --account=proj-1' "$work/job.sbatch" || fail "no account line"
[ "$(grep -c '^#SBATCH' "$work/job.sbatch")" -eq 10 ] || fail "unexpected #SBATCH lines: $(grep '^#SBATCH' "$work/job.sbatch")"

# Run it as Slurm would, with a fake srun that records bwsurvey's arguments.
mkdir -p "$work/bin"
cat >"$work/bin/srun" <<'FAKE'
#!/usr/bin/env bash
# Skips srun's own options (up to the binary), then one argument per line.
while [ $# -gt 0 ] && [[ $1 == --* ]]; do shift; done
shift  # the bwsurvey binary
printf '%s\n' "$@" >"$FAKE_SRUN_ARGS"
FAKE
chmod +x "$work/bin/srun"
PATH="$work/bin:$PATH" BWSURVEY=/fake/bwsurvey FAKE_SRUN_ARGS="$work/args" SLURM_JOB_ID=77 SLURM_JOB_NUM_NODES=2 SLURM_CPUS_ON_NODE=4 \
  bash "$work/job.sbatch" >"$work/run.log" 2>&1 || fail "the job script failed: $(cat "$work/run.log")"
expected_args=$(printf '%s\n' --out "$out_dir/survey-77.h5" --retest 1 --reference "/a b/ref.ini" '*' \
  --stream.elements 1M)
[ "$(cat "$work/args" 2>/dev/null)" = "$expected_args" ] ||
  fail "bwsurvey got other arguments:"$'\n'"$(cat "$work/args" 2>/dev/null)"$'\n'"expected:"$'\n'"$expected_args"

# BWS_PROMETHEUS_DIR: after the survey (here one that flagged nodes: exit
# 3), bwreport export --prometheus writes DIR/bwsurvey.prom through a
# temporary file and a rename; the job keeps the survey's exit status. A
# failed export leaves the previous file as it was and no temporary file;
# unset, nothing is exported.
mkdir -p "$work/bin3"
cat >"$work/bin3/srun" <<'FAKE'
#!/usr/bin/env bash
# Makes the --out file as a survey that flagged nodes would, and exits 3.
while [ $# -gt 0 ]; do
  if [ "$1" = --out ]; then mkdir -p "$(dirname "$2")"; echo survey >"$2"; fi
  shift
done
exit 3
FAKE
cat >"$work/bin3/bwreport" <<'FAKE'
#!/usr/bin/env bash
printf '%s\n' "$@" >>"$FAKE_BWREPORT_ARGS"
[ -z "${FAKE_BWREPORT_FAIL:-}" ] || { echo 'bwsurvey_partial 1'; exit 1; }
printf '# TYPE bwsurvey_x gauge\nbwsurvey_x{host="n1"} 1\n'
FAKE
chmod +x "$work/bin3/srun" "$work/bin3/bwreport"
prom_dir="$work/prom dir"
run_prometheus_job() {
  PATH="$work/bin3:$PATH" BWSURVEY=/fake/bwsurvey BWREPORT="$work/bin3/bwreport" FAKE_BWREPORT_ARGS="$work/bwreport-args" \
    SLURM_JOB_ID=78 SLURM_JOB_NUM_NODES=2 SLURM_CPUS_ON_NODE=4 "$@" bash "$work/job.sbatch" >"$work/prom.log" 2>&1
}
run_prometheus_job env BWS_PROMETHEUS_DIR="$prom_dir"
code=$?
[ "$code" -eq 3 ] || fail "BWS_PROMETHEUS_DIR: the job exited $code, not the survey's 3: $(cat "$work/prom.log")"
[ "$(cat "$prom_dir/bwsurvey.prom" 2>/dev/null)" = $'# TYPE bwsurvey_x gauge\nbwsurvey_x{host="n1"} 1' ] ||
  fail "BWS_PROMETHEUS_DIR: no bwsurvey.prom with bwreport's output: $(ls -A "$prom_dir" 2>&1) $(cat "$work/prom.log")"
[ "$(cat "$work/bwreport-args" 2>/dev/null)" = "$(printf '%s\n' export --prometheus "$out_dir/survey-78.h5")" ] ||
  fail "bwreport got other arguments: $(cat "$work/bwreport-args" 2>/dev/null)"
[ "$(ls -A "$prom_dir")" = bwsurvey.prom ] || fail "BWS_PROMETHEUS_DIR: files besides bwsurvey.prom: $(ls -A "$prom_dir")"
run_prometheus_job env BWS_PROMETHEUS_DIR="$prom_dir" FAKE_BWREPORT_FAIL=1
code=$?
[ "$code" -eq 3 ] || fail "a failed export changed the job's exit status to $code"
[ "$(ls -A "$prom_dir")" = bwsurvey.prom ] || fail "a failed export left: $(ls -A "$prom_dir")"
grep -q 'bwsurvey_x{host="n1"} 1' "$prom_dir/bwsurvey.prom" || fail "a failed export replaced the previous file"
grep -q "could not write bwsurvey.prom" "$work/prom.log" || fail "a failed export was not reported: $(cat "$work/prom.log")"
rm -f "$work/bwreport-args"
run_prometheus_job env -u BWS_PROMETHEUS_DIR
[ ! -e "$work/bwreport-args" ] || fail "bwreport ran without BWS_PROMETHEUS_DIR"

# BWS_OPTIONS (split on blanks) is never globbed either.
BWS_OPTIONS='--tests * --quick' "$source_dir/jobs/survey" --dry-run >"$work/dry2" 2>&1 || fail "BWS_OPTIONS refused"
grep -q 'survey.sbatch --tests \\\* --quick$' "$work/dry2" || fail "BWS_OPTIONS globbed: $(tail -2 "$work/dry2")"

# The scaling study's aggregation script quotes its --output too.
"$source_dir/jobs/scaling-study" --dry-run --nodes 1,2 --dir "$work/study dir" >"$work/study" 2>"$work/err" ||
  fail "good scaling study refused: $(cat "$work/err")"
grep -qx '#SBATCH --output="'"$work"'/study dir/aggregate-%j.log"' "$work/study" || fail "aggregate --output not quoted"

if [ "$failures" -gt 0 ]; then
  echo "$failures failures" >&2
  exit 1
fi
echo "jobs scripts: all checks passed"
