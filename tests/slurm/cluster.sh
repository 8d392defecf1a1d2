#!/usr/bin/env bash
# A one-node Slurm cluster on 127.0.0.1 for the batch tests, kept entirely in one directory (its
# own munge key and socket, configuration, state, logs and free ports), so it touches nothing of
# the machine's own Slurm or munge.
#
#   cluster.sh start DIR   starts munged, slurmctld and slurmd; prints the SLURM_CONF to export;
#                          exits 1 with the reason on stderr when they cannot start
#   cluster.sh stop DIR    stops them
#
# Needs Debian's slurm-wlm and munge (.ci/setup installs them) and root (SlurmUser=root).
set -uo pipefail
cmd=${1:?start or stop}; dir=${2:?a directory}
mkdir -p "$dir"; dir=$(cd "$dir" && pwd)

stop() {
  for d in slurmd slurmctld munged; do
    [ -f "$dir/$d.pid" ] && kill "$(cat "$dir/$d.pid")" 2>/dev/null
  done
  sleep 0.5
  for d in slurmd slurmctld munged; do
    [ -f "$dir/$d.pid" ] && kill -9 "$(cat "$dir/$d.pid")" 2>/dev/null
    rm -f "$dir/$d.pid"
  done
  return 0
}
fail() { echo "cannot start a Slurm cluster: $*" >&2; stop; exit 1; }

if [ "$cmd" = stop ]; then stop; exit 0; fi
[ "$cmd" = start ] || { echo "usage: cluster.sh start|stop DIR" >&2; exit 2; }

for tool in munged slurmctld slurmd sbatch sinfo; do
  command -v "$tool" >/dev/null || fail "$tool is not installed (apt-get install slurm-wlm munge)"
done
[ "$(id -u)" = 0 ] || fail "the daemons run as root here, and this is user $(id -un)"

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
host=$(hostname -s)
mkdir -p "$dir/state" "$dir/spool" "$dir/munge"
chmod 700 "$dir/munge"

# munge: a private key and socket.
dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$dir/munge/munge.key"
munged --force --socket="$dir/munge/munge.socket" --key-file="$dir/munge/munge.key" \
  --pid-file="$dir/munged.pid" --log-file="$dir/munged.log" --seed-file="$dir/munge/munge.seed" \
  || fail "munged did not start (see $dir/munged.log)"

cat > "$dir/slurm.conf" <<CONF
ClusterName=agora
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.socket
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
SlurmUser=root
SlurmdUser=root
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=agora Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$dir/slurm.conf"

slurmctld -i || fail "slurmctld did not start (see $dir/slurmctld.log)"
slurmd || fail "slurmd did not start (see $dir/slurmd.log)"
for _ in $(seq 1 60); do
  if sinfo -h -o '%t' 2>/dev/null | grep -qE '^(idle|mix|alloc)'; then
    echo "$SLURM_CONF"
    exit 0
  fi
  sleep 0.5
done
fail "the node did not become idle in 30 s: $(sinfo -h -o '%t %E' 2>&1 | head -1) (logs in $dir)"
