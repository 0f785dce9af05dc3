# shellcheck shell=bash
# Open MPI on the pretend cluster (sourced by netcluster.sh): mpirun runs
# on the head, a host of its own on the top switch, and starts one orted
# per host through tests/netcluster/rsh_agent.sh, as it would over ssh.

# The mpirun to use (ctest passes CMake's MPIEXEC_EXECUTABLE).
NETCLUSTER_MPIRUN=${NETCLUSTER_MPIRUN:-mpirun}

# netcluster_hostfile FILE: one slot per host, h1..hN: one rank per host.
netcluster_hostfile() {
  local i
  for i in $(seq 1 "$NETCLUSTER_HOSTS"); do echo "h$i slots=1"; done >"$1"
}

# The Open MPI settings of a run on the pretend cluster, one per line.
#   plm rsh, the agent, no tree spawn: the head starts every orted itself
#     (an orted starting others would need the agent inside a host);
#   btl self,tcp and both if_include: ranks talk over the shaped links
#     only, never shared memory (the hosts share /dev/shm), and the
#     out-of-band channel stays on the test subnet;
#   bind-to none: each orted sees the machine's 2 cores and would bind its
#     one rank to core 0: every host's rank on the same core;
#   yield_when_idle: 4 or 8 ranks on 2 cores; a spinning rank would hold
#     the core its peer needs (as in tests/slurm/common.sh).
# Session files stay in Open MPI's default place, as in the other MPI
# tests: under a deep work directory its socket paths would pass the
# 108 characters a Unix socket's name may have; the host names keep the
# hosts' session directories apart.
netcluster_mpi_options() {
  printf '%s\n' --mca plm rsh --mca plm_rsh_agent "$NETCLUSTER_LIB_DIR/rsh_agent.sh" \
    --mca plm_rsh_no_tree_spawn 1 \
    --mca btl self,tcp --mca btl_tcp_if_include "$NETCLUSTER_SUBNET" \
    --mca oob_tcp_if_include "$NETCLUSTER_SUBNET" \
    --bind-to none --map-by node --mca mpi_yield_when_idle 1
}

# netcluster_mpirun ARGS...: mpirun on the head with the cluster's
# hostfile and settings, then ARGS (-np N PROGRAM ...). An outer Slurm
# job's variables are dropped: Open MPI would take its allocation instead
# of the hostfile.
netcluster_mpirun() {
  local options v
  netcluster_hostfile "$NETCLUSTER_WORK/hostfile"
  mapfile -t options < <(netcluster_mpi_options)
  (
    for v in $(compgen -e | grep -E '^(SLURM|SBATCH|SALLOC|SRUN)_' || true); do unset "$v"; done
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    netcluster_exec head "$NETCLUSTER_MPIRUN" --hostfile "$NETCLUSTER_WORK/hostfile" "${options[@]}" "$@"
  )
}
