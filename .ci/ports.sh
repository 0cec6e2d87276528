# shellcheck shell=bash
# Loopback port helpers shared by kafka.sh and clickhouse.sh (sourced by them; sets no shell options).

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
