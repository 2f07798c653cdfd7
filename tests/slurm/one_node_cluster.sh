#!/usr/bin/env bash
# A one-node Slurm cluster inside a folder, for the test of scripts/slurm/summarize.sh: munged with
# its own key and socket, slurmctld and slurmd with a generated slurm.conf (this host, 2 CPUs,
# SlurmUser=root), every state, log and pid file in DIR. Needs root (CI runs as root) and Debian's
# slurm-wlm and munge (scripts/setup-deps.sh installs them).
#
#   one_node_cluster.sh start DIR   starts the daemons, waits until the node takes jobs; prints
#                                   `export SLURM_CONF=DIR/slurm.conf` for the caller to eval
#   one_node_cluster.sh stop DIR    stops the daemons it started, by their pid files
set -euo pipefail
cmd="${1:?start|stop}" dir="${2:?DIR}"
mkdir -p "$dir"
dir="$(cd "$dir" && pwd)"

stop() {
  for d in slurmd slurmctld munged; do
    [ -s "$dir/$d.pid" ] || continue
    pid="$(cat "$dir/$d.pid")"
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
    rm -f "$dir/$d.pid"
  done
}
if [ "$cmd" = stop ]; then stop; exit 0; fi

[ "$(id -u)" -eq 0 ] || { echo "one_node_cluster.sh: the daemons run as root (SlurmUser=root); run as root" >&2; exit 1; }
for b in munged mungekey slurmctld slurmd sbatch sinfo; do
  command -v "$b" >/dev/null || { echo "one_node_cluster.sh: $b missing: run scripts/setup-deps.sh (slurm-wlm, munge)" >&2; exit 1; }
done
host="$(hostname -s)"
# ports of this run's own (two runs at once on one machine do not meet)
port=$(( 20000 + ($$ % 10000) * 2 ))
mkdir -p "$dir/munge" "$dir/ctld" "$dir/spool"
chmod 700 "$dir/munge"
mungekey --create --keyfile="$dir/munge/munge.key" --force
chmod 400 "$dir/munge/munge.key"
munged --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.socket" --pid-file="$dir/munged.pid" \
  --log-file="$dir/munged.log" --seed-file="$dir/munge/munged.seed"
cat > "$dir/slurm.conf" <<CONF
ClusterName=skewscope-test
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket
StateSaveLocation=$dir/ctld
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
ReturnToService=2
SchedulerType=sched/backfill
SchedulerParameters=sched_min_interval=0,batch_sched_delay=0
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
DefMemPerCPU=100
MaxArraySize=1001
NodeName=$host CPUs=2 RealMemory=1000 State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$dir/slurm.conf"
slurmctld -i -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF"
# the node takes jobs once it is idle
for _ in $(seq 300); do
  state="$(sinfo -h -n "$host" -o %t 2>/dev/null || true)"
  [ "$state" = idle ] && { echo "export SLURM_CONF=$SLURM_CONF"; exit 0; }
  sleep 0.2
done
echo "one_node_cluster.sh: the node did not become idle (state '${state:-none}'); logs in $dir" >&2
tail -n 20 "$dir/slurmctld.log" "$dir/slurmd.log" >&2 || true
stop
exit 1
