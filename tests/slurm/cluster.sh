# A private Slurm cluster on this machine, for the Slurm integration tests
# (facts in docs/design-notes.md, "Slurm tests"). Source this file, then:
#   slurm_cluster_start DIR NODES [TOPOLOGY]  # NODES pretend nodes n1..nNODES, each its own
#                                             # hostname; TOPOLOGY: a topology.conf (topology/tree)
#                                             # even nodes: Features=bwtest; partitions debug
#                                             # (default) and second, both with every node
#   ... sbatch / srun / squeue with SLURM_CONF exported ...
#   slurm_cluster_stop              # registered with trap: runs whatever happens
# Every daemon is started here and stopped by the pid it wrote, never by name.
# Needs root (daemons, unshare --uts); installs the Slurm packages if missing.

slurm_cluster_install() {
  local missing=()
  for p in slurmctld slurmd slurm-client munge; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "slurm fixture: installing ${missing[*]}"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
}

# A free TCP port range of $1 ports starting at a pid-derived base; $2
# (default 0) moves the search on, for another try after a start failed.
slurm_cluster_free_ports() {
  local count=$1 first=${2:-0} base
  for attempt in $(seq "$first" $((first + 50))); do
    base=$(( 20000 + ( ($$ * 7 + attempt * 97) % 30000 ) ))
    local busy=0
    for p in $(seq "$base" $((base + count - 1))); do
      if ss -Htan "sport = :$p" 2>/dev/null | grep -q .; then busy=1; break; fi
    done
    [ $busy -eq 0 ] && { echo "$base"; return 0; }
  done
  echo "slurm fixture: no free ports" >&2
  return 1
}

# Whether the daemon of pid file $1 is running: 0 running, 1 dead (or
# never wrote its pid after $2 polls of 0.2 s), 2 not known yet.
slurm_cluster_daemon_state() {
  local file=$1 polls=$2 pid
  if [ -s "$file" ]; then
    pid=$(cat "$file" 2>/dev/null)
    [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && return 0
    return 1
  fi
  [ "$polls" -ge 25 ] && return 1
  return 2
}

slurm_cluster_start() {
  SLURM_CLUSTER_DIR=$(realpath -m "$1")
  SLURM_CLUSTER_NODES=$2
  local dir=$SLURM_CLUSTER_DIR nodes=$2 topology=${3:+$(realpath "$3")}
  # An outer job's variables (CI inside Slurm) must not steer this cluster's jobs.
  local v
  for v in $(compgen -e | grep -E '^(SLURM|SBATCH|SALLOC|SRUN)_' || true); do unset "$v"; done
  slurm_cluster_install
  rm -rf "$dir"
  mkdir -p "$dir"/{munge,state,spool,log,run,tmp}
  chmod 0711 "$dir" "$dir/munge"    # munged refuses a socket directory of mode 0700
  chown munge: "$dir/munge"
  local i cpus
  cpus=$(nproc)
  for i in $(seq 1 "$nodes"); do mkdir -p "$dir/spool/n$i" "$dir/tmp/n$i"; done

  # A key of its own: the cluster does not depend on (or touch) the system's.
  head -c 1024 /dev/urandom >"$dir/munge/munge.key"
  chown munge: "$dir/munge/munge.key"
  chmod 0400 "$dir/munge/munge.key"
  runuser -u munge -- /usr/sbin/munged --socket="$dir/munge/munge.socket" --key-file="$dir/munge/munge.key" \
    --pid-file="$dir/munge/munged.pid" --log-file="$dir/munge/munged.log" --seed-file="$dir/munge/munged.seed"
  munge -n -S "$dir/munge/munge.socket" | unmunge -S "$dir/munge/munge.socket" >/dev/null

  # A port another process takes between the check and the bind (a test
  # beside this one, a daemon of a cluster just stopped) makes slurmctld or
  # a slurmd exit at once ("Address already in use"): such a start is
  # stopped and tried again on other ports, never waited on.
  local attempt port=0
  for attempt in 0 1 2 3 4; do
    port=$(slurm_cluster_free_ports $((nodes + 1)) $((attempt * 53))) || return 1
    slurm_cluster_write_conf "$dir" "$nodes" "$port" "$topology"
    export SLURM_CONF=$dir/slurm.conf
    slurm_cluster_start_daemons "$dir" "$nodes" && return 0
    echo "slurm fixture: start on ports $port-$((port + nodes)) failed (try $((attempt + 1)) of 5); trying other ports" >&2
    tail -3 "$dir/log/slurmctld.log" >&2 2>/dev/null || true
    slurm_cluster_stop_daemons "$dir"
    rm -rf "$dir/state" "$dir/log" "$dir/run"
    mkdir -p "$dir/state" "$dir/log" "$dir/run"
  done
  echo "slurm fixture: the cluster did not start in 5 tries (ports in use, or the daemons failing: see $dir/log)" >&2
  return 1
}

# Writes slurm.conf (and topology.conf) for DIR NODES PORT [TOPOLOGY].
slurm_cluster_write_conf() {
  local dir=$1 nodes=$2 port=$3 topology=$4 i cpus
  cpus=$(nproc)
  # Every pretend node declares this machine's CPUs (they share them).
  {
    echo "ClusterName=bwstest"
    echo "SlurmctldHost=localhost"
    echo "SlurmctldPort=$port"
    echo "SlurmUser=root"
    echo "SlurmdUser=root"
    echo "AuthType=auth/munge"
    echo "CredType=cred/munge"
    echo "AuthInfo=socket=$dir/munge/munge.socket"
    echo "ProctrackType=proctrack/linuxproc"
    echo "TaskPlugin=task/affinity"
    echo "SelectType=select/cons_tres"
    echo "SelectTypeParameters=CR_Core"
    echo "MpiDefault=pmix"
    echo "AccountingStorageType=accounting_storage/none"
    echo "JobCompType=jobcomp/none"
    echo "JobAcctGatherType=jobacct_gather/none"
    echo "MailProg=/bin/true"
    echo "EnforcePartLimits=ALL"
    echo "SchedulerParameters=batch_sched_delay=0"
    echo "ReturnToService=2"
    echo "StateSaveLocation=$dir/state"
    echo "SlurmdSpoolDir=$dir/spool/%n"
    echo "SlurmctldPidFile=$dir/run/slurmctld.pid"
    echo "SlurmdPidFile=$dir/run/slurmd-%n.pid"
    echo "SlurmctldLogFile=$dir/log/slurmctld.log"
    echo "SlurmdLogFile=$dir/log/slurmd-%n.log"
    echo "TmpFS=$dir/tmp/%n"
    # Even nodes have the feature bwtest (a passed-through --constraint
    # picks them); every node is in two partitions, debug (the default) and
    # second (SBATCH_PARTITION, a site's choice, is kept by jobs/survey).
    for i in $(seq 1 "$nodes"); do
      echo "NodeName=n$i NodeHostname=n$i NodeAddr=127.0.0.1 Port=$((port + i)) CPUs=$cpus$( [ $((i % 2)) -eq 0 ] && echo " Features=bwtest") State=UNKNOWN"
    done
    echo "PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP"
    echo "PartitionName=second Nodes=ALL Default=NO MaxTime=INFINITE State=UP"
    # A switch tree: slurmctld reads topology.conf beside slurm.conf, and
    # `scontrol show topology` prints it to the jobs.
    if [ -n "$topology" ]; then
      echo "TopologyPlugin=topology/tree"
      cp "$topology" "$dir/topology.conf"
    fi
  } >"$dir/slurm.conf"
}

# Starts slurmctld and the slurmds; 0 once every node is idle, 1 as soon as
# a daemon died (or after 30 s without every node idle).
slurm_cluster_start_daemons() {
  local dir=$1 nodes=$2 i t f
  slurmctld -i
  for i in $(seq 1 "$nodes"); do
    # Its own UTS namespace: `hostname` and MPI_Get_processor_name say n$i in its jobs.
    unshare --uts sh -c "hostname n$i && exec slurmd -N n$i"
  done
  for t in $(seq 1 150); do
    for f in "$dir/run/slurmctld.pid" $(for i in $(seq 1 "$nodes"); do echo "$dir/run/slurmd-n$i.pid"; done); do
      local state=0
      slurm_cluster_daemon_state "$f" "$t" || state=$?
      [ "$state" -eq 1 ] && { echo "slurm fixture: $(basename "$f" .pid) is not running" >&2; return 1; }
    done
    # A node in two partitions is listed twice: count each once.
    [ "$(timeout 5 sinfo -h -N -o '%N %t' 2>/dev/null | sort -u | grep -c ' idle')" -eq "$nodes" ] && return 0
    sleep 0.2
  done
  echo "slurm fixture: the nodes did not become idle in 30 s" >&2
  timeout 5 sinfo -N >&2 || true
  return 1
}

# The pid in file $1, if that process still runs (empty otherwise).
slurm_cluster_live_pid() {
  local pid
  [ -f "$1" ] || return 0
  pid=$(cat "$1" 2>/dev/null) || return 0
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && echo "$pid"
  return 0
}

# Stops the daemons of pid files $@: all are sent SIGTERM at once and
# waited for together (each takes about 2 s to exit; one after another that
# was 10 s per test), SIGKILL for any still running after 5 s.
slurm_cluster_kill_pidfiles() {
  local f pid pids=() left
  for f in "$@"; do
    pid=$(slurm_cluster_live_pid "$f")
    [ -n "$pid" ] && pids+=("$pid")
  done
  [ ${#pids[@]} -gt 0 ] || return 0
  kill "${pids[@]}" 2>/dev/null || true
  for _ in $(seq 1 50); do
    left=0
    for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && left=1; done
    [ "$left" = 0 ] && return 0
    sleep 0.1
  done
  kill -9 "${pids[@]}" 2>/dev/null || true
}

# Stops slurmctld, the slurmds and their leftover slurmstepds of DIR (and
# the daemons of any further pid files given).
slurm_cluster_stop_daemons() {
  local dir=$1 pid
  shift
  slurm_cluster_kill_pidfiles "$dir"/run/slurmd-*.pid "$dir/run/slurmctld.pid" "$@"
  # A slurmstepd can hang in PMIx finalize after a failed step: kill such
  # leftovers by pid, only those whose spool directory is ours.
  for pid in $(pgrep -x slurmstepd 2>/dev/null); do
    if grep -qs "$dir" "/proc/$pid/cmdline" "/proc/$pid/environ" 2>/dev/null ||
       ls -l "/proc/$pid/cwd" 2>/dev/null | grep -q "$dir"; then
      kill -9 "$pid" 2>/dev/null || true
    fi
  done
}

slurm_cluster_stop() {
  local dir=${SLURM_CLUSTER_DIR:-}
  [ -n "$dir" ] || return 0
  if [ -n "${SLURM_CONF:-}" ]; then timeout 10 scancel --full -u "$(id -un)" 2>/dev/null || true; fi
  # munged goes with the Slurm daemons, in the same wait (each takes
  # about 2 s to exit): they need it to start, not to stop.
  slurm_cluster_stop_daemons "$dir" "$dir/munge/munged.pid"
  SLURM_CLUSTER_DIR=
}

# The exit code of finished job $1 ("0", "3", ...).
slurm_job_exit_code() {
  scontrol show job "$1" 2>/dev/null | sed -n 's/.* ExitCode=\([0-9]*\):.*/\1/p' | head -1
}

# Waits until job $1 has left the queue; prints its final state.
slurm_wait_job() {
  local id=$1 limit=${2:-240} t state
  for t in $(seq 1 $((limit * 5))); do
    if [ -z "$(squeue -h -j "$id" 2>/dev/null)" ]; then break; fi
    sleep 0.2
  done
  state=$(scontrol show job "$id" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p')
  echo "${state:-UNKNOWN}"
}
