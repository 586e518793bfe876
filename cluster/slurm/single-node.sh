#!/usr/bin/env bash
# A single-node Slurm on this machine (localhost): munge, slurmctld and
# slurmd from Debian's packages (slurmctld slurmd slurm-client munge),
# configured for a container with no systemd or cgroups.
#
#   cluster/slurm/single-node.sh start   # write the config, start the daemons, wait for the node
#   cluster/slurm/single-node.sh stop    # stop them (by their process ids)
#
# Everything it writes lives under $SLURM_HOME (default /tmp/sauve-slurm),
# so it never touches a real cluster's /etc/slurm.
set -euo pipefail
SLURM_HOME="${SLURM_HOME:-/tmp/sauve-slurm}"
CONF="$SLURM_HOME/slurm.conf"
export SLURM_CONF="$CONF"

start() {
    local host cpus
    host="$(hostname -s)"
    cpus="$(nproc)"
    mkdir -p "$SLURM_HOME"/{spool/ctld,spool/d,log,run}

    # munge: the key must be the munge user's, mode 400, and /run/munge its.
    if [ ! -s /etc/munge/munge.key ]; then
        mungekey --create --keyfile=/etc/munge/munge.key 2>/dev/null ||
            dd if=/dev/urandom bs=1 count=1024 of=/etc/munge/munge.key status=none
    fi
    chown munge:munge /etc/munge/munge.key
    chmod 400 /etc/munge/munge.key
    mkdir -p /run/munge /var/log/munge /var/lib/munge
    chown munge:munge /run/munge /var/log/munge /var/lib/munge
    if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
        su -s /bin/sh munge -c /usr/sbin/munged
        for _ in $(seq 50); do munge -n 2>/dev/null | unmunge >/dev/null 2>&1 && break; sleep 0.1; done
    fi
    munge -n | unmunge | grep -q Success || { echo "munge does not work" >&2; exit 1; }

    cat >"$CONF" <<CONF
ClusterName=sauve
SlurmctldHost=$host
SlurmUser=root
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
StateSaveLocation=$SLURM_HOME/spool/ctld
SlurmdSpoolDir=$SLURM_HOME/spool/d
SlurmctldPidFile=$SLURM_HOME/run/slurmctld.pid
SlurmdPidFile=$SLURM_HOME/run/slurmd.pid
SlurmctldLogFile=$SLURM_HOME/log/slurmctld.log
SlurmdLogFile=$SLURM_HOME/log/slurmd.log
NodeName=$host CPUs=$cpus State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
    slurmctld -f "$CONF"
    slurmd -f "$CONF"
    for _ in $(seq 100); do
        if sinfo -h -o '%T' 2>/dev/null | grep -qE '^(idle|mixed|allocated)'; then
            echo "slurm: node $host idle ($cpus CPUs), config $CONF"
            return 0
        fi
        sleep 0.3
    done
    echo "slurm: the node never came up; logs in $SLURM_HOME/log" >&2
    sinfo >&2 || true
    tail -20 "$SLURM_HOME/log/slurmctld.log" "$SLURM_HOME/log/slurmd.log" >&2 || true
    exit 1
}

stop() {
    local pids=()
    for pid in "$SLURM_HOME/run/slurmd.pid" "$SLURM_HOME/run/slurmctld.pid"; do
        [ -s "$pid" ] && pids+=("$(cat "$pid")")
    done
    [ ${#pids[@]} -gt 0 ] || return 0
    kill "${pids[@]}" 2>/dev/null || true
    # Wait (up to 5 s) until they are gone, so their folder can be removed.
    for _ in $(seq 50); do
        kill -0 "${pids[@]}" 2>/dev/null || return 0
        sleep 0.1
    done
}

case "${1:-}" in
    start) start ;;
    stop) stop ;;
    *) echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
