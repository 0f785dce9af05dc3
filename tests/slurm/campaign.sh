#!/usr/bin/env bash
# A campaign over a busy partition (jobs/campaign): 8 pretend nodes, n5 and
# n6 held by another user's `sleep` job for part of it, n3 made slow on
# purpose (BWSURVEY_SLOW_HOST, in every job). Batches of 3 nodes, at most 2
# in the queue at once (watched from outside, every 0.2 s); the wrapper is
# stopped after its first submission and resumed. Every node is surveyed,
# and the campaign file's verdicts equal those of a one-shot survey of the
# same 8 nodes: n3 flagged and confirmed, the other seven healthy.
stream_elements=4M  # DRAM-sized arrays: steadier than cache-sized ones (as slow_node)
. "$(dirname "$0")/common.sh"
start_cluster 8
export BWSURVEY_SLOW_HOST=n3:6
survey_options=("${quick_options[@]}" --tests stream --stream.reps 20)

# The one-shot survey of the 8 nodes.
run_job --nodes=8 "$repo/jobs/survey.sbatch" "${survey_options[@]}"
[ "$job_exit" = 0 ] || { echo "the one-shot survey ended with $job_exit"; exit 1; }
one_shot=$work/survey-$job_id.h5

# Another user's job holds n5 and n6 while the campaign starts.
hold=$(sbatch --parsable --nodes=2 --nodelist=n5,n6 --exclusive --job-name=held --output=/dev/null --wrap "sleep 25")
for i in $(seq 1 100); do [ "$(squeue -h -j "$hold" -o %T)" = RUNNING ] && break; sleep 0.2; done

# Watches our queue from outside: the most campaign jobs queued at once.
( most=0
  while [ ! -f "$work/stop-watch" ]; do
    n=$(squeue -h -n bws-campaign -o %i 2>/dev/null | wc -l)
    [ "$n" -le "$most" ] || { most=$n; echo "$most" >"$work/most-queued"; }
    sleep 0.2
  done ) &
watcher=$!

dir=$work/campaign
campaign=("$repo/jobs/campaign" --batch-nodes 3 --max-jobs 2 --poll 0.5 --window 0.2 --dir "$dir"
          --bwsurvey "$bwsurvey" --bwreport "$bwreport" -- "${survey_options[@]}")
# Stopped once its first batch is submitted: the resume goes on from there.
"${campaign[@]}" >"$work/campaign-1.log" 2>&1 &
wrapper=$!
for i in $(seq 1 300); do [ -s "$dir/batches.tsv" ] && break; sleep 0.1; done
kill -TERM "$wrapper"
wait "$wrapper" && code=0 || code=$?
cat "$work/campaign-1.log"
[ "$code" = 143 ] || { echo "the stopped wrapper exited $code, expected 143"; exit 1; }
grep -q "jobs/campaign --resume" "$work/campaign-1.log" || { echo "the stopped wrapper did not say how to resume"; exit 1; }
"$repo/jobs/campaign" --resume "$dir" 2>&1 | tee "$work/campaign-2.log" && code=0 || code=${PIPESTATUS[0]}
touch "$work/stop-watch"
wait "$watcher" || true
[ "$code" = 0 ] || { echo "the campaign ended with $code, expected 0 (every node covered)"; exit 1; }
most=$(cat "$work/most-queued" 2>/dev/null || echo 0)
echo "most campaign jobs in the queue at once: $most"
[ "$most" -ge 1 ] && [ "$most" -le 2 ] || { echo "--max-jobs 2 exceeded (or nothing seen): $most"; exit 1; }
# n5 and n6 were busy at first: a later batch surveyed them.
grep -q "n5" "$dir/batches.tsv" && grep -q "n6" "$dir/batches.tsv"
[ "$(head -1 "$dir/batches.tsv" | grep -c 'n5\|n6')" = 0 ] || { echo "the first batch ran on a held node"; exit 1; }
file=$dir/campaign.h5
grep -q "covered 8 of 8 targets" "$work/campaign-2.log"

# The verdicts: the campaign's equal the one-shot survey's, node by node.
for node in n1 n2 n3 n4 n5 n6 n7 n8; do
  "$bwreport" verdict "$one_shot" --node "$node" >"$work/v1" && a=0 || a=$?
  "$bwreport" verdict "$file" --node "$node" >"$work/v2" && b=0 || b=$?
  echo "$node: one-shot $a ($(cat "$work/v1")); campaign $b ($(cat "$work/v2"))"
  [ "$a" = "$b" ] || { echo "$node: the campaign's verdict differs from the one-shot survey's"; exit 1; }
  want=0; [ "$node" = n3 ] && want=3
  [ "$b" = "$want" ] || { echo "$node: verdict exit $b, expected $want"; exit 1; }
done
"$bwreport" drain "$file" | tee "$work/drain.txt"
n3_job=$(awk -F'\t' '$3 ~ /(^|,)n3(,|$)/ { id = $2 } END { print id }' "$dir/batches.tsv")
grep -q "^scontrol update NodeName=n3 State=DRAIN 'Reason=bwsurvey: .* job $n3_job'$" "$work/drain.txt" ||
  { echo "n3's drain does not name its batch job $n3_job"; exit 1; }
[ "$(wc -l <"$work/drain.txt")" = 1 ] || { echo "expected one drain line, for n3"; exit 1; }
