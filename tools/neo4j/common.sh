# shellcheck shell=bash disable=SC2034  # variables are used by the scripts that source this
# Shared by scripts/neo4j-up.sh, scripts/neo4j-down.sh, scripts/neo4j-env.sh and
# tools/neo4j/neo4j-admin. Source it; it defines paths and helpers, starts nothing.
#
# Layout (all derived from this file's location, never hard-coded):
#   tools/neo4j/pom.xml              which Neo4j to resolve from Maven Central
#   .cache/m2/                       project-local Maven repository (the jars)
#   .cache/neo4j/<version>/          resolved classpath file (warm starts skip Maven)
#   .neo4j/                          runtime state: NEO4J_HOME of the server
#     conf/neo4j.conf                regenerated on every start from the env below
#     data/ logs/ run/ import/ plugins/
#     run/neo4j.pid, run/config.sha  pid of the server JVM, fingerprint of its settings

KG_NEO4J_TOOLS="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
KG_ROOT="$(cd "$KG_NEO4J_TOOLS/../.." && pwd)"

KG_NEO4J_VERSION="${NEO4J_VERSION:-$(sed -n 's:.*<neo4j.version>\(.*\)</neo4j.version>.*:\1:p' "$KG_NEO4J_TOOLS/pom.xml" | head -n 1)}"
KG_M2_REPO="$KG_ROOT/.cache/m2"
KG_NEO4J_CACHE="$KG_ROOT/.cache/neo4j/$KG_NEO4J_VERSION"
KG_CLASSPATH_FILE="$KG_NEO4J_CACHE/classpath.txt"

KG_NEO4J_HOME="$KG_ROOT/.neo4j"
KG_NEO4J_CONF_DIR="$KG_NEO4J_HOME/conf"
KG_NEO4J_LOGS="$KG_NEO4J_HOME/logs"
KG_NEO4J_RUN="$KG_NEO4J_HOME/run"
KG_NEO4J_DATA="$KG_NEO4J_HOME/data"
KG_PID_FILE="$KG_NEO4J_RUN/neo4j.pid"
KG_CONFIG_SHA_FILE="$KG_NEO4J_RUN/config.sha"
KG_URI_FILE="$KG_NEO4J_RUN/uri"
KG_CONSOLE_LOG="$KG_NEO4J_LOGS/console.out"

KG_BOLT_PORT="${NEO4J_BOLT_PORT:-7687}"
KG_HTTP_PORT="${NEO4J_HTTP_PORT:-}"          # empty: HTTP connector disabled
KG_HEAP="${NEO4J_HEAP:-1g}"
KG_PAGECACHE="${NEO4J_PAGECACHE:-512m}"
KG_START_TIMEOUT="${NEO4J_START_TIMEOUT:-180}"
KG_STOP_TIMEOUT="${NEO4J_STOP_TIMEOUT:-60}"
KG_URI="bolt://127.0.0.1:$KG_BOLT_PORT"

kg_log() { printf 'neo4j: %s\n' "$*" >&2; }
kg_die() { printf 'neo4j: ERROR: %s\n' "$*" >&2; exit 1; }

kg_java() {
    if [[ -n "${JAVA_HOME:-}" && -x "$JAVA_HOME/bin/java" ]]; then
        printf '%s\n' "$JAVA_HOME/bin/java"
    elif command -v java >/dev/null 2>&1; then
        command -v java
    else
        kg_die "java not found (Neo4j $KG_NEO4J_VERSION needs Java 17 or 21 on PATH or in JAVA_HOME)"
    fi
}

kg_python() {
    if [[ -x "$KG_ROOT/.venv/bin/python" ]]; then
        printf '%s\n' "$KG_ROOT/.venv/bin/python"
    elif command -v python3 >/dev/null 2>&1; then
        command -v python3
    fi
}

# True when something accepts TCP connections on 127.0.0.1:$1.
kg_port_open() {
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# Pid from the pid file if that process is alive and is our server (guards against pid reuse).
kg_running_pid() {
    local pid
    [[ -f "$KG_PID_FILE" ]] || return 1
    pid="$(tr -dc '0-9' < "$KG_PID_FILE")"
    [[ -n "$pid" ]] || return 1
    kg_is_our_server "$pid" || return 1
    printf '%s\n' "$pid"
}

kg_is_our_server() {
    local pid="$1" cmdline
    kill -0 "$pid" 2>/dev/null || return 1
    [[ -r "/proc/$pid/cmdline" ]] || return 0   # no /proc: trust kill -0
    cmdline="$(tr '\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null || true)"
    [[ "$cmdline" == *"org.neo4j.server.CommunityEntryPoint"* && "$cmdline" == *"--home-dir=$KG_NEO4J_HOME "* ]]
}

# Server JVMs started for this project's .neo4j whose pid file was lost (only via /proc).
kg_orphan_pids() {
    local d pid
    [[ -d /proc ]] || return 0
    for d in /proc/[0-9]*; do
        pid="${d#/proc/}"
        [[ "$pid" == "$$" ]] && continue
        if [[ -r "$d/cmdline" ]] && kg_is_our_server "$pid" 2>/dev/null; then
            printf '%s\n' "$pid"
        fi
    done
    return 0
}

# Writes the runtime classpath of the Neo4j server to $KG_CLASSPATH_FILE, running Maven
# only when the file is missing, stale (pom changed) or points at a jar that is gone.
kg_ensure_classpath() {
    local stamp_file="$KG_NEO4J_CACHE/pom.sha" want have="" jar ok=1
    want="$(cat "$KG_NEO4J_TOOLS/pom.xml" <(printf '%s' "$KG_NEO4J_VERSION") | sha256sum | cut -d' ' -f1)"
    [[ -f "$stamp_file" ]] && have="$(cat "$stamp_file")"
    if [[ -s "$KG_CLASSPATH_FILE" && "$want" == "$have" ]]; then
        local -a jars
        IFS=":" read -r -a jars < "$KG_CLASSPATH_FILE" || true   # no trailing newline: status 1
        for jar in "${jars[@]}"; do
            [[ -f "$jar" ]] || { ok=0; break; }
        done
        [[ $ok == 1 ]] && return 0
    fi
    command -v mvn >/dev/null 2>&1 || kg_die "mvn not found: Maven is needed once to fetch Neo4j $KG_NEO4J_VERSION from Maven Central"
    mkdir -p "$KG_NEO4J_CACHE" "$KG_M2_REPO"
    kg_log "resolving Neo4j $KG_NEO4J_VERSION from Maven Central into ${KG_M2_REPO#"$KG_ROOT"/} (first run only)..."
    local tmp="$KG_CLASSPATH_FILE.tmp.$$" mvn_log="$KG_NEO4J_CACHE/mvn.log"
    if ! mvn -B -q -f "$KG_NEO4J_TOOLS/pom.xml" \
            -Dmaven.repo.local="$KG_M2_REPO" \
            -Dmaven.wagon.http.retryHandler.count=3 \
            -Dneo4j.version="$KG_NEO4J_VERSION" \
            dependency:build-classpath \
            -Dmdep.includeScope=runtime \
            -Dmdep.outputFile="$tmp" > "$mvn_log" 2>&1; then
        tail -n 40 "$mvn_log" >&2
        rm -f "$tmp"
        kg_die "Maven could not resolve org.neo4j:neo4j:$KG_NEO4J_VERSION (full log: $mvn_log)"
    fi
    [[ -s "$tmp" ]] || kg_die "Maven produced an empty classpath (see $mvn_log)"
    mv "$tmp" "$KG_CLASSPATH_FILE"
    printf '%s\n' "$want" > "$stamp_file"
}

kg_classpath() { cat "$KG_CLASSPATH_FILE"; }

kg_sha() { sha256sum | cut -d' ' -f1; }
