#!/usr/bin/env bash
# Builds the libFuzzer harnesses in Fuzz/Harnesses and runs each for a bounded time.
#
#   Fuzz/run.sh [seconds-per-target]      (default 60), one target after another
#   Fuzz/run.sh --budget SECONDS          the targets share SECONDS of wall time, as many at once as
#                                         there are cores (CI: one budget for all of them)
#   FUZZ_TARGETS="frames handshake" Fuzz/run.sh 10     run a subset
#   FUZZ_BUILD_ONLY=1 Fuzz/run.sh                      build, do not run
#   FUZZ_OPT=-Onone Fuzz/run.sh --budget 60             unoptimized: quicker to build (CI)
#
# How the harnesses are built (SwiftPM cannot build libFuzzer binaries):
#   1. Each module the harnesses need (modules_in_order below) is compiled
#      with `swiftc -sanitize=fuzzer,address -O -wmo -enable-testing` (so a harness can reach its
#      internal types) into Fuzz/.build/lib<Module>.a plus its module in Fuzz/.build/modules/.
#   2. Each Harnesses/Fuzz<Name>.swift defines LLVMFuzzerTestOneInput via @_cdecl; it is compiled
#      with the helpers in Harnesses/Shared/ and linked with those static libraries by `swiftc -sanitize=fuzzer,address`, which adds libFuzzer's
#      main, into Fuzz/.build/fuzz-<name>.
# Steps are skipped when their output is newer than every input, so reruns only rebuild what changed
# (everything, when FUZZ_OPT changed).
#
# A target with a dictionary Fuzz/dicts/<name>.dict (keys and tokens of its format) gets it.
# Each fuzzer runs on a copy of its committed seed corpus (Fuzz/corpus/<name>/ → Fuzz/out/<name>/
# corpus), so the repository is never dirtied. Crashes, timeouts and OOMs land in
# Fuzz/out/<name>/artifacts/; the script prints their paths and exits 1 if any target failed.
# Reproduce one with: Fuzz/.build/fuzz-<name> Fuzz/out/<name>/artifacts/crash-…
set -euo pipefail
cd "$(dirname "$0")/.."

targets=${FUZZ_TARGETS:-frames handshake venues config text inflate nats}
jobs=1
if [[ ${1:-} == --budget ]]; then
  # Each target gets an equal share of the budget times the cores running targets at once.
  jobs=$(nproc)
  count=$(wc -w <<<"$targets")
  seconds=$(( ${2:?--budget needs seconds} * jobs / count ))
  (( seconds >= 1 )) || seconds=1
else
  seconds=${1:-60}
fi
build=Fuzz/.build
modules=$build/modules
# FUZZ_OPT=-Onone builds about 2.4 times faster and runs fewer inputs a second (CI's smoke run).
flags=(-sanitize=fuzzer,address -parse-as-library "${FUZZ_OPT:--O}" -wmo -gline-tables-only -swift-version 6 -package-name ticker)
# lld instead of gold: gold prints a warning per ASan helper symbol ("Cannot export local symbol").
link_flags=()
[[ $(uname) == Linux ]] && link_flags=(-use-ld=lld)
# Built with other flags (FUZZ_OPT): start again.
if [[ -e $build/flags && $(cat "$build/flags") != "${flags[*]}" ]]; then rm -rf "$build"; fi
mkdir -p "$modules" Fuzz/out
printf '%s\n' "${flags[*]}" >"$build/flags"

# Succeeds when $1 is missing or older than any of the remaining files.
stale() {
  local out=$1
  shift
  [[ -e $out ]] || return 0
  for f in "$@"; do [[ $f -nt $out ]] && return 0; done
  return 1
}

# The modules the harnesses need, in dependency order, each compiled whole into
# Fuzz/.build/lib<Module>.a and its module. The C shims' headers come with module maps (the
# OpenSSL shim's is written here; SwiftPM writes its own), and the shim is compiled with clang:
# it loads OpenSSL only when a wss:// connection is made, which no harness does.
modules_in_order=(
  TickerSupport JSON Transport WebSocketWire WebSocketClient WebSocketServer NATS Monitoring Venues FeedRuntime Outputs
  Recording
  NATSBridge CLI
)
mkdir -p "$build/COpenSSLShim"
cat > "$build/COpenSSLShim/module.modulemap" <<MAP
module COpenSSLShim {
  header "$PWD/Sources/COpenSSLShim/include/COpenSSLShim.h"
  export *
}
MAP
c_flags=(-I "$build/COpenSSLShim" -I Sources/CZlibShim/include)
libraries=()
previous=("$0")
if stale "$build/libCOpenSSLShim.a" Sources/COpenSSLShim/shim.c Sources/COpenSSLShim/include/COpenSSLShim.h; then
  echo "fuzz: building COpenSSLShim"
  clang -c -O1 -fsanitize=fuzzer-no-link,address -I Sources/COpenSSLShim/include Sources/COpenSSLShim/shim.c \
    -o "$build/shim.o"
  ar rcs "$build/libCOpenSSLShim.a" "$build/shim.o"
fi
for module in "${modules_in_order[@]}"; do
  mapfile -t sources < <(find "Sources/$module" -name '*.swift' | sort)
  lib=$build/lib$module.a
  if stale "$lib" "${sources[@]}" "${previous[@]}"; then
    echo "fuzz: building $module"
    rm -f "$lib"  # swiftc adds to an existing archive: a renamed file's old object would stay
    swiftc "${flags[@]}" -num-threads "$(nproc)" -enable-testing -module-name "$module" -I "$modules" "${c_flags[@]}" \
      -emit-module -emit-module-path "$modules/$module.swiftmodule" -emit-library -static -o "$lib" "${sources[@]}"
  fi
  previous+=("$lib")
  libraries=("$lib" "${libraries[@]}")
done
libraries+=("$build/libCOpenSSLShim.a" -ldl)

# Helpers several harnesses use (each harness is compiled with all of them).
shared=(Fuzz/Harnesses/Shared/*.swift)
# The harnesses are independent: as many build at once as there are cores.
building=()
for t in $targets; do
  harness="Fuzz/Harnesses/Fuzz${t^}.swift"
  [[ -f $harness ]] || { echo "fuzz: no harness $harness" >&2; exit 2; }
  if stale "$build/fuzz-$t" "$harness" "${shared[@]}" "${libraries[@]}"; then
    echo "fuzz: building fuzz-$t"
    swiftc "${flags[@]}" "${link_flags[@]}" -module-name "Fuzz${t^}" -I "$modules" "${c_flags[@]}" \
      "$harness" "${shared[@]}" "${libraries[@]}" -o "$build/fuzz-$t" &
    building+=($!)
    if ((${#building[@]} >= $(nproc))); then
      wait "${building[0]}"
      building=("${building[@]:1}")
    fi
  fi
done
for pid in "${building[@]}"; do wait "$pid"; done

if [[ ${FUZZ_BUILD_ONLY:-} == 1 ]]; then exit 0; fi

# Swift's in-process backtracer trips ASan; let libFuzzer/ASan print the stack instead.
export SWIFT_BACKTRACE=enable=no

# One target's run; its summary on stdout, a finding on stderr, its status as the exit status.
run_target() {
  local t=$1 out=Fuzz/out/$1 status
  rm -rf "$out/artifacts"  # findings of an earlier run were reported then
  mkdir -p "$out/corpus" "$out/artifacts"
  cp -R Fuzz/corpus/"$t"/. "$out/corpus/"
  echo "fuzz: running fuzz-$t for ${seconds}s ($(ls "$out/corpus" | wc -l) inputs in the corpus)"
  local dict=()
  [[ -f Fuzz/dicts/$t.dict ]] && dict=(-dict="Fuzz/dicts/$t.dict")
  set +e
  "$build/fuzz-$t" "${dict[@]}" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$out/artifacts/" "$out/corpus" >"$out/log" 2>&1
  status=$?
  set -e
  grep -E '^#[0-9]+[[:space:]]+DONE|^stat::number_of_executed_units|^stat::average_exec_per_sec|^stat::peak_rss_mb' \
    "$out/log" | sed "s/^/fuzz-$t: /" || true
  if ((status != 0)); then
    echo "fuzz-$t FAILED (exit $status); last lines of $out/log:" >&2
    tail -n 40 "$out/log" >&2
    for a in "$out"/artifacts/*; do [[ -e $a ]] && echo "fuzz-$t reproducer: $a" >&2; done
  fi
  return "$status"
}

failed=()
pids=()
names=()
for t in $targets; do
  run_target "$t" &
  pids+=($!)
  names+=("$t")
  # At most `jobs` at once: wait for the oldest before starting another.
  if ((${#pids[@]} >= jobs)); then
    wait "${pids[0]}" || failed+=("${names[0]}")
    pids=("${pids[@]:1}")
    names=("${names[@]:1}")
  fi
done
for i in "${!pids[@]}"; do wait "${pids[$i]}" || failed+=("${names[$i]}"); done

if ((${#failed[@]} > 0)); then
  echo "fuzz: failures in: ${failed[*]}" >&2
  exit 1
fi
echo "fuzz: all targets ran ${seconds}s without a finding"
