# shellcheck shell=bash
# A real ClickHouse server (HTTP interface on loopback) for CI and for developers, without Docker: no
# registry this project reaches ships clickhouse-server (packages.clickhouse.com and GitHub are out of
# reach, Debian stops at 18.16), but PyPI's chdb-core wheel carries a whole ClickHouse build whose
# clickhouse-local opens the server's listeners on request (.ci/clickhouse-server.py). The tests talk
# to it over HTTP exactly as to any ClickHouse server: `tonflow --clickhouse URL`.
#
# Sourced, never executed (same rules as kafka.sh: no shell options set, functions return non-zero).
#
#   source .ci/clickhouse.sh
#   clickhouse_install && clickhouse_start   # exports TONFLOW_TEST_CLICKHOUSE_URL=http://127.0.0.1:<port>
#   npm test
#   clickhouse_stop
#
# Knobs (environment): CLICKHOUSE_CORE_VERSION, CLICKHOUSE_VENV (default ~/.cache/tonflow-ci/chdb-core-<v>,
# reused when it already holds that version), CLICKHOUSE_HTTP_PORT (default: first free port from 18123 up),
# CLICKHOUSE_START_TIMEOUT (seconds), CLICKHOUSE_DIR (work dir; default a temporary one clickhouse_stop removes).

# 26.9: SYSTEM START LISTEN in clickhouse-local needs 26.7 or later (the -lite wheels lack it).
CLICKHOUSE_CORE_VERSION="${CLICKHOUSE_CORE_VERSION:-26.9.0}"

_ch_log() { printf '[clickhouse] %s\n' "$*" >&2; }

# shellcheck source=.ci/ports.sh
source "$(dirname "${BASH_SOURCE[0]}")/ports.sh"

# Installs chdb-core into a virtualenv (about 180 MB download, 900 MB installed). Kept between runs
# under ~/.cache, keyed by version; an existing venv is used only if it imports the engine.
clickhouse_install() {
  command -v python3 >/dev/null || { _ch_log "python3 not found"; return 1; }
  CLICKHOUSE_VENV="${CLICKHOUSE_VENV:-$HOME/.cache/tonflow-ci/chdb-core-$CLICKHOUSE_CORE_VERSION}"
  if ! "$CLICKHOUSE_VENV/bin/python" -c 'import chdb._chdb' 2>/dev/null; then
    rm -rf "$CLICKHOUSE_VENV"
    mkdir -p "$(dirname "$CLICKHOUSE_VENV")" || return 1
    python3 -m venv "$CLICKHOUSE_VENV" || { _ch_log "python3 -m venv failed (Debian: apt-get install python3-venv)"; return 1; }
    "$CLICKHOUSE_VENV/bin/pip" install -q --disable-pip-version-check "chdb-core==$CLICKHOUSE_CORE_VERSION" || {
      _ch_log "pip could not install chdb-core==$CLICKHOUSE_CORE_VERSION (PyPI reachable?)"
      rm -rf "$CLICKHOUSE_VENV"
      return 1
    }
  fi
  export CLICKHOUSE_VENV
  _ch_log "chdb-core $CLICKHOUSE_CORE_VERSION in $CLICKHOUSE_VENV"
}

# Prints the server's version when it answers a query. Asked through the venv's Python rather than
# curl, which a CI image need not have.
_ch_answers() {
  "$CLICKHOUSE_VENV/bin/python" -c 'import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1] + "/?query=SELECT%20version()", timeout=2).read().decode().strip())' \
    "$TONFLOW_TEST_CLICKHOUSE_URL" 2>/dev/null
}

# Starts the server on 127.0.0.1 in the background and waits until it answers a query. Exports
# TONFLOW_TEST_CLICKHOUSE_URL and CLICKHOUSE_PID.
clickhouse_start() {
  [[ -n "${CLICKHOUSE_VENV:-}" ]] || { _ch_log "run clickhouse_install first"; return 1; }
  if [[ -n "${CLICKHOUSE_PID:-}" ]] && kill -0 "$CLICKHOUSE_PID" 2>/dev/null; then
    _ch_log "already running (pid $CLICKHOUSE_PID, $TONFLOW_TEST_CLICKHOUSE_URL)"
    return 0
  fi
  if [[ -z "${CLICKHOUSE_DIR:-}" ]]; then
    CLICKHOUSE_DIR=$(mktemp -d "${TMPDIR:-/tmp}/tonflow-clickhouse.XXXXXX") || return 1
    _CLICKHOUSE_DIR_IS_TEMP=1
  fi
  local http tcp
  http=${CLICKHOUSE_HTTP_PORT:-$(ci_free_port 18123)} || return 1
  tcp=$(ci_free_port $((http + 1000)) "$http") || return 1
  if ci_port_open "$http"; then
    _ch_log "port $http is already in use"
    return 1
  fi
  local log="$CLICKHOUSE_DIR/server.log"
  mkdir -p "$CLICKHOUSE_DIR/data" || return 1
  # clickhouse-local reads ./config.xml: listen on loopback only (user `default` has no password).
  cat >"$CLICKHOUSE_DIR/config.xml" <<XML
<clickhouse>
  <listen_host>127.0.0.1</listen_host>
  <http_port>${http}</http_port>
  <tcp_port>${tcp}</tcp_port>
</clickhouse>
XML
  local script
  script="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/clickhouse-server.py"
  (cd "$CLICKHOUSE_DIR" && exec "$CLICKHOUSE_VENV/bin/python" "$script" "$CLICKHOUSE_DIR/data") >"$log" 2>&1 </dev/null &
  CLICKHOUSE_PID=$!
  TONFLOW_TEST_CLICKHOUSE_URL="http://127.0.0.1:${http}"
  export CLICKHOUSE_PID TONFLOW_TEST_CLICKHOUSE_URL CLICKHOUSE_DIR

  local rc=0
  ci_wait_ready "$CLICKHOUSE_PID" "${CLICKHOUSE_START_TIMEOUT:-60}" "$log" "the ClickHouse server" _ch_answers || rc=$?
  if ((rc == 1)); then unset CLICKHOUSE_PID; fi
  if ((rc != 0)); then
    clickhouse_stop
    return 1
  fi
  local version
  version=$(_ch_answers)
  _ch_log "ClickHouse $version up on $TONFLOW_TEST_CLICKHOUSE_URL (pid $CLICKHOUSE_PID, log $log)"
}

# Stops the server and removes the work dir clickhouse_start made. Safe to call twice.
clickhouse_stop() {
  if [[ -n "${CLICKHOUSE_PID:-}" ]] && kill -0 "$CLICKHOUSE_PID" 2>/dev/null; then
    ci_stop_process "$CLICKHOUSE_PID" "the ClickHouse server"
    _ch_log "server stopped"
  fi
  unset CLICKHOUSE_PID
  if [[ "${_CLICKHOUSE_DIR_IS_TEMP:-}" == 1 && -n "${CLICKHOUSE_DIR:-}" ]]; then
    rm -rf "$CLICKHOUSE_DIR"
    unset CLICKHOUSE_DIR _CLICKHOUSE_DIR_IS_TEMP
  fi
  return 0
}
