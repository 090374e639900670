#!/usr/bin/env bash
# Stop the local Neo4j started by scripts/neo4j-up.sh: SIGTERM, wait for a clean shutdown
# (NEO4J_STOP_TIMEOUT seconds, default 60), then SIGKILL. Fine if it is not running.
#
#   bash scripts/neo4j-down.sh          stop, keep the data in .neo4j/data
#   bash scripts/neo4j-down.sh --wipe   stop and delete .neo4j/data (next start is an empty DB)
#   bash scripts/neo4j-down.sh --purge  stop and delete all of .neo4j/ (data, logs, config)
set -euo pipefail

# shellcheck source=tools/neo4j/common.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/../tools/neo4j/common.sh"

wipe=0
purge=0
for arg in "$@"; do
    case "$arg" in
        --wipe) wipe=1 ;;
        --purge) purge=1 ;;
        -h|--help) sed -n '2,8p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) kg_die "unknown argument: $arg (expected --wipe or --purge)" ;;
    esac
done

stop_pid() {
    local pid="$1" waited=0
    kg_log "stopping Neo4j (pid $pid)..."
    kill -TERM "$pid" 2>/dev/null || return 0
    while kill -0 "$pid" 2>/dev/null; do
        if (( waited >= KG_STOP_TIMEOUT * 10 )); then
            kg_log "pid $pid still running after ${KG_STOP_TIMEOUT}s: sending SIGKILL"
            kill -KILL "$pid" 2>/dev/null || true
            sleep 0.5
            break
        fi
        sleep 0.1
        waited=$((waited + 1))
    done
    kg_log "stopped (pid $pid)"
}

pids=()
if pid="$(kg_running_pid)"; then
    pids+=("$pid")
fi
# A server for this .neo4j whose pid file was lost (e.g. the file was deleted by hand).
while read -r orphan; do
    if [[ -n "$orphan" && " ${pids[*]:-} " != *" $orphan "* ]]; then
        pids+=("$orphan")
    fi
done < <(kg_orphan_pids)

if (( ${#pids[@]} == 0 )); then
    kg_log "not running"
else
    for pid in "${pids[@]}"; do
        stop_pid "$pid"
    done
fi
rm -f "$KG_PID_FILE" "$KG_CONFIG_SHA_FILE" "$KG_URI_FILE"

if (( purge )); then
    rm -rf "$KG_NEO4J_HOME"
    kg_log "deleted ${KG_NEO4J_HOME#"$KG_ROOT"/}/"
elif (( wipe )); then
    rm -rf "$KG_NEO4J_DATA"
    kg_log "deleted ${KG_NEO4J_DATA#"$KG_ROOT"/}/"
fi
