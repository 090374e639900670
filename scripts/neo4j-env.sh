#!/usr/bin/env bash
# Connection settings of the local Neo4j of scripts/neo4j-up.sh, in the variables that
# kg reads (see .env.example). Either source it or eval its output:
#   source scripts/neo4j-env.sh
#   eval "$(bash scripts/neo4j-env.sh)"
# NEO4J_PASSWORD is exported only if it is set (the server then has auth enabled).

_kg_neo4j_env() {
    local tools
    tools="$(cd "$(dirname "${BASH_SOURCE[0]}")/../tools/neo4j" && pwd)" || return 1
    # shellcheck source=tools/neo4j/common.sh
    source "$tools/common.sh" || return 1
    local uri="$KG_URI"
    # If a server is running, report the URI it was actually started with.
    if kg_running_pid >/dev/null 2>&1 && [[ -s "$KG_URI_FILE" ]]; then
        uri="$(cat "$KG_URI_FILE")"
    fi
    printf 'export NEO4J_URI=%q\n' "$uri"
    printf 'export NEO4J_USER=neo4j\n'
    printf 'export NEO4J_DATABASE=%q\n' "${NEO4J_DATABASE:-neo4j}"
    if [[ -n "${NEO4J_PASSWORD:-}" ]]; then
        printf 'export NEO4J_PASSWORD=%q\n' "$NEO4J_PASSWORD"
    fi
}

if [[ "${BASH_SOURCE[0]}" != "$0" ]]; then
    # sourced: export into the caller's shell without leaking helpers or `set -e`
    eval "$(_kg_neo4j_env)"
    unset -f _kg_neo4j_env
else
    set -euo pipefail
    _kg_neo4j_env
fi
