# shellcheck shell=bash
# The published Python clients of TON Center that tonflow must serve as TON Center does (tonutils and the
# toncenter SDK, both from PyPI, pinned), in a virtualenv of their own for the client compatibility tests.
#
# Sourced, never executed (same rules as kafka.sh: no shell options set, functions return non-zero).
#
#   source .ci/pyclients.sh
#   pyclients_install    # exports TONFLOW_PY_CLIENTS=<venv>/bin/python
#
# Knobs (environment): PYCLIENTS_VENV (default ~/.cache/tonflow-ci/pyclients-<versions>, reused when it
# already imports both clients).

TONUTILS_VERSION="${TONUTILS_VERSION:-2.5.1}"
TONCENTER_SDK_VERSION="${TONCENTER_SDK_VERSION:-0.4.0}"

_py_log() { printf '[pyclients] %s\n' "$*" >&2; }

pyclients_install() {
  command -v python3 >/dev/null || { _py_log "python3 not found"; return 1; }
  local venv="${PYCLIENTS_VENV:-$HOME/.cache/tonflow-ci/pyclients-tonutils$TONUTILS_VERSION-toncenter$TONCENTER_SDK_VERSION}"
  if ! "$venv/bin/python" -c 'import tonutils, toncenter' 2>/dev/null; then
    rm -rf "$venv"
    mkdir -p "$(dirname "$venv")" || return 1
    python3 -m venv "$venv" || { _py_log "python3 -m venv failed (Debian: apt-get install python3-venv)"; return 1; }
    "$venv/bin/pip" install -q --disable-pip-version-check "tonutils==$TONUTILS_VERSION" "toncenter==$TONCENTER_SDK_VERSION" || {
      _py_log "pip could not install tonutils==$TONUTILS_VERSION toncenter==$TONCENTER_SDK_VERSION (PyPI reachable?)"
      rm -rf "$venv"
      return 1
    }
  fi
  export TONFLOW_PY_CLIENTS="$venv/bin/python"
  _py_log "tonutils $TONUTILS_VERSION, toncenter $TONCENTER_SDK_VERSION in $venv"
}
