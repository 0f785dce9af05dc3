#!/usr/bin/env bash
# Every phase prints its estimate before it starts and its measured time
# after ("bwsurvey: pmbw: took 2.345 s (estimated 2.100 s)"); on quick plans
# of stream, bs, pmbw and b_eff, on 1 and 2 ranks, the two must agree
# within a factor of 2. A loaded machine stretches the measured times: when
# the load average (1 min, the larger of start and end) is above the cores,
# the allowed factor grows by load / cores, and the output says so.
# usage: time_estimates.sh MPIRUN BWSURVEY WORKDIR
set -euo pipefail
mpirun=$1 bwsurvey=$2 workdir=$3
rm -rf "$workdir" && mkdir -p "$workdir"
load_start=$(cut -d' ' -f1 /proc/loadavg)
for ranks in 1 2; do
  dir=$workdir/ranks-$ranks
  mkdir -p "$dir"
  source "$(dirname "$0")/survey_run.sh"
  # Half the quick sweep of BS (6 sizes, so half the BS6/BS7 meshes) and
  # pmbw samples of 10 ms: shorter plans, the same terms in every estimate.
  run_survey "$mpirun" -np "$ranks" --oversubscribe "$bwsurvey" --tests stream,bs,pmbw,beff --quick \
    --out "$dir/t.h5" --bs.points 6 --pmbw.max-bytes 8M --pmbw.min-time 0.01 \
    --pmbw.routines ScanRead64PtrUnrollLoop,ScanWrite64PtrSimpleLoop,PermRead64UnrollLoop >/dev/null
  expect_success
done
load_end=$(cut -d' ' -f1 /proc/loadavg)
/usr/bin/python3 - "$workdir" "$load_start" "$load_end" "$(nproc)" <<'PY'
import re, sys
workdir, load_start, load_end, cores = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
factor = 2.0
load = max(load_start, load_end)
if load > cores:
    factor *= load / cores
    print(f"load average {load:g} on {cores} cores (start {load_start:g}, end {load_end:g}): "
          f"allowed factor widened from 2 to {factor:.2f}")
else:
    print(f"load average {load:g} on {cores} cores: allowed factor 2")
line = re.compile(r"^bwsurvey: (\w+): took ([0-9.]+) s \(estimated ([0-9.]+) s\)$")
failures = []
print(f"{'ranks':>5} {'test':<8} {'estimated s':>12} {'measured s':>11} {'ratio':>6}")
for ranks in (1, 2):
    seen = {}
    for text in open(f"{workdir}/ranks-{ranks}/stderr.txt"):
        m = line.match(text.rstrip("\n"))
        if m:
            seen[m.group(1)] = (float(m.group(2)), float(m.group(3)))
    for test in ("stream", "bs", "pmbw", "beff"):
        if test not in seen:
            failures.append(f"{ranks} ranks: no 'took ... (estimated ...)' line for {test}")
            continue
        measured, estimated = seen[test]
        ratio = max(measured, 1e-9) / max(estimated, 1e-9)
        print(f"{ranks:>5} {test:<8} {estimated:>12.3f} {measured:>11.3f} {ratio:>6.2f}")
        if not (1 / factor <= ratio <= factor):
            failures.append(f"{ranks} ranks, {test}: measured {measured:.3f} s, estimated {estimated:.3f} s "
                            f"(ratio {ratio:.2f}, allowed 1/{factor:.2f}..{factor:.2f})")
for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
PY
