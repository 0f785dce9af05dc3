#!/usr/bin/env bash
# Slurm on the pretend cluster (tests/netcluster/netcluster_slurm.sh):
# 4 hosts on 2 leaves, slurmctld on the head, a slurmd per host at that
# host's address; every node comes up idle, `scontrol show topology`
# gives the cluster's tree, and an srun over the 4 nodes runs one task in
# each host (its name, and an address of its own on the test subnet).
# usage: slurm_test.sh WORKDIR
set -euo pipefail
work=$1
. "$(dirname "$0")/netcluster.sh"
netcluster_require || exit 77
. "$(dirname "$0")/netcluster_slurm.sh"
rm -rf "$work"
netcluster_init "$work"
started=$(date +%s%N)
netcluster_start 4 2 400
netcluster_slurm_start
echo "pretend cluster and Slurm up in $(( ($(date +%s%N) - started) / 1000000 )) ms"
netcluster_slurm scontrol show topology | tee "$work/topology.txt"
grep -Eq "^SwitchName=s1 .*Nodes=h1,h2$" "$work/topology.txt" || { echo "no leaf s1 of h1,h2"; exit 1; }
grep -Eq "^SwitchName=s2 .*Nodes=h3,h4$" "$work/topology.txt" || { echo "no leaf s2 of h3,h4"; exit 1; }
grep -Eq "^SwitchName=top .*Switches=s\[1-2\]$" "$work/topology.txt" || { echo "no top switch above s1 and s2"; exit 1; }
# Each task: its host name and its address on eth0.
netcluster_slurm srun -N4 --ntasks-per-node=1 sh -c 'echo "$(hostname) $(ip -4 -o addr show dev eth0 | awk "{print \$4}")"' |
  sort -V | tee "$work/tasks.txt"
expected=$(printf 'h%s 10.231.1.%s/16\n' 1 1 2 2 3 3 4 4)
[ "$(cat "$work/tasks.txt")" = "$expected" ] || { echo "expected the tasks on:"; echo "$expected"; exit 1; }
