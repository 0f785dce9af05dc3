# shellcheck shell=bash
# A Slurm cluster on the pretend hosts (source after netcluster.sh, once
# netcluster_start has made them): slurmctld and munged on the head, one
# slurmd in each host's namespace with that host's address and name, so
# sbatch and srun place tasks on h1..hN and their MPI traffic crosses the
# shaped links. Unlike tests/slurm/cluster.sh (every pretend node at
# 127.0.0.1, a port each) every daemon has a network namespace of its
# own: the standard ports are free there, no search for free ports. The
# daemons live in the run's namespaces, so netcluster_cleanup (the trap or
# the reaper) ends them with the namespaces.
#   netcluster_slurm_start [TOPOLOGY]   # a topology.conf; default: the cluster's tree
#   netcluster_slurm sbatch|squeue|scontrol|srun ...   # a client on the head
. "$NETCLUSTER_LIB_DIR/../slurm/cluster.sh"   # slurm_cluster_install, slurm_job_exit_code

NETCLUSTER_SLURMCTLD_PORT=6817
NETCLUSTER_SLURMD_PORT=6818

# The cluster's slurm.conf in $1 (settings as tests/slurm/cluster.sh says
# why); the nodes' addresses and the controller's are the test subnet's.
# task/none: with task/affinity every host's one task was bound to CPU 0
# (each slurmd sees the same 2 cores), all ranks of a job on one core.
netcluster_slurm_conf() {
  local dir=$1 i cpus
  cpus=$(nproc)
  cat <<CONF
ClusterName=bwsnet
SlurmctldHost=head($NETCLUSTER_HEAD_ADDR)
SlurmctldPort=$NETCLUSTER_SLURMCTLD_PORT
SlurmdPort=$NETCLUSTER_SLURMD_PORT
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=pmix
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
JobAcctGatherType=jobacct_gather/none
MailProg=/bin/true
EnforcePartLimits=ALL
SchedulerParameters=batch_sched_delay=0
ReturnToService=2
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool/%n
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd-%n.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd-%n.log
TmpFS=$dir/tmp/%n
TopologyPlugin=topology/tree
CONF
  for i in $(seq 1 "$NETCLUSTER_HOSTS"); do
    echo "NodeName=h$i NodeHostname=h$i NodeAddr=$(netcluster_addr "h$i") CPUs=$cpus State=UNKNOWN"
  done
  echo "PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP"
}

# A munged of the cluster's own (its key made here), on the head: the
# daemons and clients of every namespace reach its socket in the work
# directory, and the cleanup ends it with the head's namespace.
netcluster_slurm_munge() {
  local dir=$1
  mkdir -p "$dir/munge"
  chmod 0711 "$dir" "$dir/munge"   # munged refuses a socket directory of mode 0700
  chown munge: "$dir/munge"
  head -c 1024 /dev/urandom >"$dir/munge/munge.key"
  chown munge: "$dir/munge/munge.key"
  chmod 0400 "$dir/munge/munge.key"
  ip netns exec "${NETCLUSTER_PREFIX}head" runuser -u munge -- /usr/sbin/munged --socket="$dir/munge/munge.socket" \
    --key-file="$dir/munge/munge.key" --pid-file="$dir/munge/munged.pid" --log-file="$dir/munge/munged.log" \
    --seed-file="$dir/munge/munged.seed"
}

# Starts daemon $2... on host $1 (or head) with that host name, like
# netcluster_exec but entering only the network namespace (nsenter on the
# handle `ip netns add` made): `ip netns exec` also mounts a fresh /sys,
# without /sys/fs/cgroup, and Slurm 22.05's slurmd will not start without
# its cgroup plugin ("No filesystem mounted on /sys/fs/cgroup") even with
# proctrack/linuxproc.
netcluster_slurm_daemon() {
  local host=$1
  shift
  nsenter --net="/run/netns/$NETCLUSTER_PREFIX$host" unshare --uts -- sh -c 'hostname "$1" && shift && exec "$@"' \
    netcluster "$host" "$@"
}

# A Slurm client command on the head (the only place besides the hosts
# that reaches slurmctld's address), with the cluster's slurm.conf.
netcluster_slurm() {
  SLURM_CONF=$NETCLUSTER_SLURM_DIR/slurm.conf netcluster_exec head "$@"
}

# Whether every node is idle: 0 yes.
netcluster_slurm_all_idle() {
  [ "$(netcluster_slurm timeout 5 sinfo -h -N -o '%N %t' 2>/dev/null | sort -u | grep -c ' idle')" -eq "$NETCLUSTER_HOSTS" ]
}

# netcluster_slurm_start [TOPOLOGY]: munged, slurmctld on the head, a
# slurmd per host; returns once every node is idle (at most 30 s).
netcluster_slurm_start() {
  local dir=$NETCLUSTER_WORK/slurm i t
  NETCLUSTER_SLURM_DIR=$dir
  local v
  for v in $(compgen -e | grep -E '^(SLURM|SBATCH|SALLOC|SRUN)_' || true); do unset "$v"; done
  slurm_cluster_install
  mkdir -p "$dir"/{state,spool,log,run,tmp}
  for i in $(seq 1 "$NETCLUSTER_HOSTS"); do mkdir -p "$dir/spool/h$i" "$dir/tmp/h$i"; done
  netcluster_slurm_munge "$dir"
  netcluster_slurm_conf "$dir" >"$dir/slurm.conf"
  if [ -n "${1:-}" ]; then cp "$1" "$dir/topology.conf"; else netcluster_topology_conf >"$dir/topology.conf"; fi
  export SLURM_CONF=$dir/slurm.conf
  netcluster_slurm_daemon head slurmctld -i
  for i in $(seq 1 "$NETCLUSTER_HOSTS"); do netcluster_slurm_daemon "h$i" slurmd -N "h$i"; done
  for t in $(seq 1 150); do
    netcluster_slurm_all_idle && return 0
    sleep 0.2
  done
  echo "netcluster: the Slurm nodes did not become idle in 30 s" >&2
  netcluster_slurm timeout 5 sinfo -N >&2 || true
  tail -5 "$dir"/log/*.log >&2 || true
  return 1
}
