# Sourced by the round-trip scripts (needs $dir): runs one survey and checks
# how it ended, keeping its output in $dir/stdout.txt and $dir/stderr.txt.

# run_survey COMMAND...: runs it with `set -e` off, leaves its exit status in
# $code and prints what it wrote to stdout.
run_survey() {
  set +e
  "$@" >"$dir/stdout.txt" 2>"$dir/stderr.txt"
  code=$?
  set -e
  cat "$dir/stdout.txt"
}

# The survey must have exited 0; otherwise its stderr is shown.
expect_success() {
  if [ "$code" -ne 0 ]; then
    echo "bwsurvey exited $code"; cat "$dir/stderr.txt"; exit 1
  fi
}

# The survey must have exited 1, as a failed payload check makes it.
expect_payload_failure() {
  [ "$code" -eq 1 ] || { echo "expected exit 1 with corrupted payloads, got $code"; cat "$dir/stderr.txt"; exit 1; }
}

# expect_stdout PATTERN WHAT: a line of stdout matches the extended regular
# expression PATTERN; otherwise says "no WHAT".
expect_stdout() {
  grep -Eq "$1" "$dir/stdout.txt" || { echo "no $2"; exit 1; }
}
