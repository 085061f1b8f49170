#!/usr/bin/env bash
# Builds the Java test peers (target/sqe-test-peers.jar and target/classpath.txt) when the
# sources or pom.xml are newer than the jar, under a lock so parallel test workers build once.
# Offline first (scripts/install-deps.sh ran dependency:go-offline), online as a fallback.
# Prints the runtime classpath (the jar + its dependencies) on stdout.
set -euo pipefail
dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
command -v mvn >/dev/null || { echo "java peers: mvn not found (scripts/install-deps.sh installs maven)" >&2; exit 1; }
mkdir -p "$dir/target"
exec 9>"$dir/target/.build.lock"
flock 9
jar="$dir/target/sqe-test-peers.jar"
cp="$dir/target/classpath.txt"
stale=0
if [[ ! -f "$jar" || ! -f "$cp" ]]; then
  stale=1
elif [[ -n "$(find "$dir/pom.xml" "$dir/src" -newer "$jar" -type f | head -1)" ]]; then
  stale=1
fi
if [[ $stale -eq 1 ]]; then
  if ! (cd "$dir" && mvn -o -q -B package >"$dir/target/build.log" 2>&1); then
    (cd "$dir" && mvn -q -B package >"$dir/target/build.log" 2>&1) || {
      cat "$dir/target/build.log" >&2
      echo "java peers: mvn package failed in $dir (log above)" >&2
      exit 1
    }
  fi
fi
echo "$jar:$(cat "$cp")"
