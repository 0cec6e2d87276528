# shellcheck shell=bash
# Loopback port and process helpers shared by kafka.sh and clickhouse.sh (sourced by them; sets no
# shell options).

# True when something accepts TCP connections on 127.0.0.1:$1. Uses bash's /dev/tcp so that
# neither nc nor ss has to be installed on the CI image.
ci_port_open() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# First port from $1 up on which nothing listens, skipping $2. A fixed port would collide with a
# developer's own server, or with one a previous session left running on the CI machine.
ci_free_port() {
  local port=$1
  while ((port < $1 + 200)); do
    if [[ $port != "${2:-}" ]] && ! ci_port_open "$port"; then
      echo "$port"
      return 0
    fi
    port=$((port + 1))
  done
  printf '[ci] no free port in %s..%s\n' "$1" "$((port - 1))" >&2
  return 1
}

# Stops background process $1 (a child of this shell): SIGTERM for a clean shutdown, SIGKILL if it
# is still there after 20 s, then reaps it. $2 names it in the message about a SIGKILL.
ci_stop_process() {
  local pid=$1 i
  kill -0 "$pid" 2>/dev/null || return 0
  kill -TERM "$pid" 2>/dev/null || true
  for ((i = 0; i < 100; i++)); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.2
  done
  if kill -0 "$pid" 2>/dev/null; then
    printf '[ci] %s ignored SIGTERM for 20s; killing it\n' "$2" >&2
    kill -KILL "$pid" 2>/dev/null || true
  fi
  # Reaps the child; `|| true` because its status is 143 after SIGTERM and callers run `set -e`.
  wait "$pid" 2>/dev/null || true
}

# Waits until the command after the first four arguments succeeds, while background process $1 runs:
# returns 0 then; 1 when the process exits first (2 after $2 seconds), printing log file $3 with $4
# naming what was started. The caller cleans up either way.
ci_wait_ready() {
  local pid=$1 timeout=$2 log=$3 label=$4
  shift 4
  local deadline=$((SECONDS + timeout))
  until "$@" >/dev/null; do
    if ! kill -0 "$pid" 2>/dev/null; then
      printf '[ci] %s exited during startup; its log:\n' "$label" >&2
      cat "$log" >&2
      return 1
    fi
    if ((SECONDS >= deadline)); then
      printf '[ci] %s was not ready within %ss; its log:\n' "$label" "$timeout" >&2
      cat "$log" >&2
      return 2
    fi
    sleep 0.2
  done
}
