#!/usr/bin/env bash
# Runs every test SQE has, the way CI does (.ci/run calls this):
#   1. scripts/install-deps.sh (Debian packages, pinned test peers)
#   2. the `asan` preset (Debug + ASan + UBSan): build, then ctest (unit tests; later the
#      SQL logic tests)
#   3. the `release` preset: build, then the integration tests (pytest from
#      tests/peers/.venv against build/release/src/main/sqe-server)
# and ends with one line `total: N passed, M failed` summed over ctest and pytest.
# Exits non-zero when anything failed, a stage could not run, or no test ran at all.
#
# Usage: scripts/test.sh [--full] [-j N]
#   --full   also run the volume scales (SQE_TEST_FULL=1 for ctest, --full for pytest)
#   -j N     parallelism for builds and test runners (default: nproc)
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

FULL=0
JOBS="$(nproc)"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --full) FULL=1 ;;
    -j) JOBS="$2"; shift ;;
    -j*) JOBS="${1#-j}" ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    *) echo "test.sh: unknown argument '$1' (try --help)" >&2; exit 2 ;;
  esac
  shift
done
export SQE_TEST_FULL="$FULL"

RESULTS="$ROOT/build/test-results"
rm -rf "$RESULTS"
mkdir -p "$RESULTS"
STAGE_FAILURES=()   # every stage that failed
UNREPORTED=0        # failed stages that wrote no JUnit report (install, configure, build)
START=$SECONDS

stage() { echo "" >&2; echo "==> $* ($(( SECONDS - START ))s)" >&2; }
fail_stage() { STAGE_FAILURES+=("$1"); echo "test.sh: FAILED: $1" >&2; }
fail_unreported() { fail_stage "$1"; UNREPORTED=$(( UNREPORTED + 1 )); }

# The two builds and the test data need about 15 GiB; say so up front when the disk is
# short (a full disk otherwise shows up as odd compiler or linker failures much later).
FREE_KIB="$(df -Pk "$ROOT" | awk 'NR == 2 { print $4 }')"
if [[ -n "$FREE_KIB" && "$FREE_KIB" -lt $(( 15 * 1024 * 1024 )) ]]; then
  echo "test.sh: warning: only $(( FREE_KIB / 1024 / 1024 )) GiB free on $(df -P "$ROOT" | awk 'NR == 2 { print $6 }');" \
    "the builds and tests need about 15 GiB (free space, e.g. old build/ directories)" >&2
fi

stage "install dependencies"
if ! bash "$ROOT/scripts/install-deps.sh"; then
  fail_unreported "install-deps.sh"
fi

# build_preset NAME: configures and builds one CMake preset into build/NAME; on failure
# records the stage and returns non-zero (the configure log is shown only on failure).
build_preset() {
  local name="$1"
  stage "$name: configure and build"
  if ! cmake --preset "$name" >"$RESULTS/$name-configure.log" 2>&1; then
    cat "$RESULTS/$name-configure.log" >&2
    fail_unreported "$name configure"
    return 1
  fi
  if ! cmake --build "build/$name" -j "$JOBS"; then
    fail_unreported "$name build"
    return 1
  fi
}

ASAN_BUILT=0
build_preset asan && ASAN_BUILT=1

if [[ $ASAN_BUILT -eq 1 ]]; then
  stage "asan: ctest"
  # ASan/UBSan findings fail the test that hit them.
  export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}"
  export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
  # The Parquet cross-checks call pyarrow from the pinned venv.
  export SQE_PYARROW_PYTHON="$ROOT/tests/peers/.venv/bin/python"
  # The JDBC catalog conformance suite also runs on a real PostgreSQL (127.0.0.1, its own
  # directory, stopped when this script exits).
  PG_DIR="$(mktemp -d /tmp/sqe-test-postgres.XXXXXX)"
  trap 'bash "$ROOT/tests/peers/postgres.sh" stop "$PG_DIR"; rm -rf "$PG_DIR"' EXIT
  if PG_URI="$(bash "$ROOT/tests/peers/postgres.sh" start "$PG_DIR")"; then
    export SQE_TEST_POSTGRES_URI="$PG_URI"
  else
    fail_unreported "PostgreSQL for the catalog tests"
  fi
  # The catalog conformance suite also runs the REST client against Iceberg's Java REST
  # fixture (tests/peers/iceberg_rest_fixture.sh), which needs the Java peers' classpath.
  if JAVA_CP="$(bash "$ROOT/tests/peers/java/build.sh")"; then
    export SQE_JAVA_PEER_CLASSPATH="$JAVA_CP"
  else
    fail_unreported "Java test peers for the REST catalog tests"
  fi
  if ! ctest --test-dir build/asan --output-on-failure -j "$JOBS" \
       --output-junit "$RESULTS/ctest.xml"; then
    fail_stage "ctest"
  fi
fi

RELEASE_BUILT=0
build_preset release && RELEASE_BUILT=1

PYTHON="$ROOT/tests/peers/.venv/bin/python"
if [[ $RELEASE_BUILT -eq 1 && -x "$PYTHON" ]]; then
  stage "release: integration tests (pytest)"
  # Interop suites that live beside their code run in the same session (the pyarrow
  # peer reads what we write and the other way round).
  PYTEST_ARGS=(-c tests/integration/pytest.ini tests/integration src/columnar/ipc/interop_test.py
               src/formats/parquet/parquet_interop_test.py src/formats/avro/avro_interop_test.py
               src/iceberg/manifest/manifest_interop_test.py
               -n "$JOBS" --junitxml="$RESULTS/pytest.xml" -p no:cacheprovider)
  [[ $FULL -eq 1 ]] && PYTEST_ARGS+=(--full)
  SQE_SERVER_BIN="$ROOT/build/release/src/main/sqe-server" \
    SQE_IPC_TOOL="$ROOT/build/release/src/columnar/ipc/sqe-ipc-tool" \
    SQE_PARQUET_TOOL="$ROOT/build/release/src/main/sqe-parquet" \
    SQE_FS_TOOL="$ROOT/build/release/src/main/sqe-fs" \
    SQE_ICEBERG_TOOL="$ROOT/build/release/src/main/sqe-iceberg" \
    SQE_AVRO_TOOL="$ROOT/build/release/src/formats/avro/sqe-avro" \
    SQE_MANIFEST_TOOL="$ROOT/build/release/src/iceberg/manifest/sqe-manifest" \
    "$PYTHON" -m pytest "${PYTEST_ARGS[@]}"
  rc=$?
  # 5 = no tests collected: counted below as zero tests, not as a crash.
  if [[ $rc -ne 0 && $rc -ne 5 ]]; then
    if [[ -s "$RESULTS/pytest.xml" ]]; then fail_stage "pytest"; else fail_unreported "pytest (exit $rc)"; fi
  fi
elif [[ $RELEASE_BUILT -eq 1 ]]; then
  fail_unreported "pytest (no venv at tests/peers/.venv)"
fi

# Sum the JUnit reports; a stage that failed without writing one counts as one failure.
SUMMARY_PY="$(command -v python3 || true)"
[[ -x "$PYTHON" ]] && SUMMARY_PY="$PYTHON"
read -r PASSED FAILED < <("$SUMMARY_PY" - "$RESULTS"/*.xml <<'PY'
import sys
import xml.etree.ElementTree as ET

passed = failed = 0
for path in sys.argv[1:]:
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError):
        continue
    suites = [root] if root.tag == "testsuite" else root.findall("testsuite")
    for s in suites:
        tests = int(s.get("tests", 0))
        bad = int(s.get("failures", 0)) + int(s.get("errors", 0))
        skipped = int(s.get("skipped", 0) or s.get("disabled", 0))
        passed += tests - bad - skipped
        failed += bad
print(passed, failed)
PY
)
PASSED="${PASSED:-0}"
FAILED="${FAILED:-0}"
FAILED=$(( FAILED + UNREPORTED ))
if [[ ${#STAGE_FAILURES[@]} -gt 0 && $FAILED -eq 0 ]]; then
  FAILED=${#STAGE_FAILURES[@]}
fi

echo "" >&2
echo "test.sh: finished in $(( SECONDS - START ))s" >&2
for s in "${STAGE_FAILURES[@]}"; do echo "test.sh: failed stage: $s" >&2; done
[[ $PASSED -eq 0 ]] && echo "test.sh: no test ran" >&2
echo "total: $PASSED passed, $FAILED failed"
if [[ $FAILED -ne 0 || $PASSED -eq 0 || ${#STAGE_FAILURES[@]} -ne 0 ]]; then
  exit 1
fi
exit 0
