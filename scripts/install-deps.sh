#!/usr/bin/env bash
# Installs everything SQE needs to build and test, on Debian 12, as root:
#   1. the Debian packages (build toolchain, libraries, test servers);
#   2. the pinned test peers under tests/peers/: a Python venv (requirements.txt),
#      npm packages (package-lock.json) and Maven dependencies (java/pom.xml).
# Idempotent and fast when nothing changed: each step compares a stamp (the installed
# package set, a hash of the lock file) and skips when it is up to date.
#
# Environment: SQE_PYTHON=/path/to/python3.11 picks the interpreter for the venv
# (default: pyenv's 3.11, else python3.11, else python3 if it is >= 3.11).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PEERS="$ROOT/tests/peers"
export DEBIAN_FRONTEND=noninteractive

say() { echo "install-deps: $*" >&2; }

# Keep this list sorted by purpose; it is the whole project's set, so later work adds
# nothing here unless it needs a genuinely new package.
DEBIAN_PACKAGES=(
  # toolchain
  build-essential cmake ninja-build ccache clang-format pkg-config git
  # core libraries
  libspdlog-dev libfmt-dev libtomlplusplus-dev libcli11-dev libcpp-httplib-dev
  nlohmann-json3-dev libre2-dev libutf8proc-dev libxxhash-dev
  # tests and benchmarks
  libgtest-dev libgmock-dev libbenchmark-dev
  # compression codecs (Parquet, Arrow IPC, HTTP)
  libzstd-dev liblz4-dev libsnappy-dev libbrotli-dev zlib1g-dev
  # TLS, outgoing HTTP
  libssl-dev libcurl4-openssl-dev
  # catalogs (embedded SQLite, JDBC/PostgreSQL)
  libsqlite3-dev libpq-dev
  # sqe-shell line editing and history (BSD-licensed readline interface)
  libedit-dev
  # Flight / gRPC, flatbuffers
  libgrpc++-dev protobuf-compiler-grpc libprotobuf-dev protobuf-compiler
  libflatbuffers-dev flatbuffers-compiler
  # test peers and servers
  python3-venv postgresql
)

install_debian_packages() {
  local missing=()
  local pkg status
  for pkg in "${DEBIAN_PACKAGES[@]}"; do
    status="$(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null || true)"
    [[ "$status" == "installed" ]] || missing+=("$pkg")
  done
  if [[ ${#missing[@]} -eq 0 ]]; then
    say "debian packages: all ${#DEBIAN_PACKAGES[@]} installed"
    return
  fi
  say "debian packages: installing ${missing[*]}"
  apt_install "${missing[@]}"
}

APT_UPDATED=0
apt_install() {
  if [[ $EUID -ne 0 ]]; then
    say "missing packages ($*); run this script as root to install them"
    exit 1
  fi
  if [[ $APT_UPDATED -eq 0 ]]; then
    apt-get update -q
    APT_UPDATED=1
  fi
  apt-get install -y -q --no-install-recommends "$@"
}

# ensure_tool COMMAND PACKAGE...: installs the Debian packages when COMMAND is missing.
# Used only for the tools a peer actually needs (npm, mvn), so a machine whose peers
# declare no dependencies never installs them.
ensure_tool() {
  local tool="$1"
  shift
  command -v "$tool" >/dev/null && return
  say "$tool not found: installing $*"
  apt_install "$@"
}

hash_of() { sha256sum "$@" | sha256sum | cut -d' ' -f1; }

pick_python() {
  if [[ -n "${SQE_PYTHON:-}" ]]; then echo "$SQE_PYTHON"; return; fi
  local candidate
  for candidate in "$HOME"/.pyenv/versions/3.11*/bin/python3 /root/.pyenv/versions/3.11*/bin/python3; do
    [[ -x "$candidate" ]] && { echo "$candidate"; return; }
  done
  if command -v python3.11 >/dev/null; then command -v python3.11; return; fi
  if python3 -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' 2>/dev/null; then
    command -v python3
    return
  fi
  say "no Python >= 3.11 found (tomllib is needed); set SQE_PYTHON"
  exit 1
}

install_python_venv() {
  local venv="$PEERS/.venv" req="$PEERS/requirements.txt"
  local want
  want="$(hash_of "$req")"
  if [[ -x "$venv/bin/python" && -f "$venv/.sqe-requirements-hash" &&
        "$(cat "$venv/.sqe-requirements-hash")" == "$want" ]]; then
    say "python venv: up to date ($venv)"
    return
  fi
  local python
  python="$(pick_python)"
  say "python venv: creating $venv with $python"
  rm -rf "$venv"
  "$python" -m venv "$venv"
  "$venv/bin/python" -m pip install -q --disable-pip-version-check -r "$req"
  echo "$want" >"$venv/.sqe-requirements-hash"
}

install_npm_peers() {
  local lock="$PEERS/package-lock.json" stamp="$PEERS/node_modules/.sqe-lock-hash"
  if [[ ! -f "$lock" ]]; then
    say "npm peers: no package-lock.json, skipped"
    return
  fi
  local want
  want="$(hash_of "$PEERS/package.json" "$lock")"
  if [[ -f "$stamp" && "$(cat "$stamp")" == "$want" ]]; then
    say "npm peers: up to date"
    return
  fi
  if grep -q '"node_modules/' "$lock"; then
    ensure_tool npm nodejs npm
  elif ! command -v npm >/dev/null; then
    say "npm peers: no packages locked and no npm, skipped"
    return
  fi
  say "npm peers: npm ci"
  (cd "$PEERS" && npm ci --no-audit --no-fund --loglevel=error) >&2
  mkdir -p "$PEERS/node_modules"
  echo "$want" >"$stamp"
}

install_maven_peers() {
  local pom="$PEERS/java/pom.xml" stamp="$PEERS/java/target/.sqe-pom-hash"
  if [[ ! -f "$pom" ]]; then
    say "maven peers: no pom.xml, skipped"
    return
  fi
  if ! grep -q '^[[:space:]]*<dependency>' "$pom"; then
    say "maven peers: no dependencies declared, skipped"
    return
  fi
  ensure_tool mvn maven
  local want
  want="$(hash_of "$pom")"
  if [[ -f "$stamp" && "$(cat "$stamp")" == "$want" ]]; then
    say "maven peers: up to date"
    return
  fi
  say "maven peers: mvn dependency:go-offline"
  (cd "$PEERS/java" && mvn -q -B dependency:go-offline) >&2
  mkdir -p "$PEERS/java/target"
  echo "$want" >"$stamp"
}

install_debian_packages
install_python_venv
install_npm_peers
install_maven_peers
say "done"
