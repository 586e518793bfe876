#!/usr/bin/env bash
# The cluster check CI runs: start a single-node Slurm, submit a four-task
# array of `sauve batch` shards with sbatch, wait, merge them, and compare
# with one unsharded run of the same seeds. Exits non-zero on any
# difference.
#
#   cluster/slurm/check.sh /path/to/sauve [SCENARIO] [SEEDS]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
SAUVE="$(realpath "${1:?the sauve binary}")"
SCENARIO="$(realpath "${2:-$root/scenarios/grossbeeren-1813.ron}")"
SEEDS="${3:-0..40}"
work="$(mktemp -d /tmp/sauve-slurm-check.XXXXXX)"
export SLURM_HOME="$work/slurm"

passed=0
# Slurm stopped either way; the work folder kept only when the check fails,
# for a look at what went wrong.
cleanup() {
    "$here/single-node.sh" stop
    if [ "$passed" = 1 ]; then rm -rf "$work"; fi
}
trap cleanup EXIT
"$here/single-node.sh" start
export SLURM_CONF="$SLURM_HOME/slurm.conf"

cd "$work"
SAUVE="$SAUVE" SCENARIO="$SCENARIO" SEEDS="$SEEDS" OUT="$work/shards" \
    sbatch --wait --array=0-3 --chdir="$work" --export=ALL "$here/batch-array.sbatch"
ls "$work"/shards/shard-{0,1,2,3}.csv >/dev/null
"$SAUVE" batch merge "$work"/shards/shard-*.csv --out "$work/merged.csv" --json >"$work/merged.json"
"$SAUVE" batch "$SCENARIO" --seeds "$SEEDS" --out "$work/whole.csv"
"$SAUVE" batch merge "$work/whole.csv" --json >"$work/whole.json"
if ! cmp -s "$work/merged.csv" "$work/whole.csv" || ! cmp -s "$work/merged.json" "$work/whole.json"; then
    echo "slurm check: the merged shards differ from the unsharded run" >&2
    diff "$work/merged.csv" "$work/whole.csv" | head -20 >&2 || true
    exit 1
fi
rows=$(($(wc -l <"$work/whole.csv") - 1))
echo "slurm check: 4 array tasks, $rows games, merged shards equal the unsharded run"
passed=1
