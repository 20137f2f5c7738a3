#!/usr/bin/env bash
# Runs `swift test` with a bound on its time: a test that hangs then fails the run within
# minutes, naming itself, instead of running into CI's own limit with nothing said.
#
#   bash Scripts/test-watched.sh LOG SECONDS [swift test arguments]
#
# The output is line-buffered (stdbuf: the test process writes into a pipe or file, which would
# hold back its last lines otherwise) and goes to LOG and this script's output. Past SECONDS the
# run is stopped; printed then, last: each thread's stack in the test process (when gdb is
# installed), and the tests that started and never finished. The exit status is swift test's,
# or 124 when the bound was reached.
set -uo pipefail
log=$1 limit=$2
shift 2
cd "$(dirname "$0")/.."

# A session of its own, so that the whole tree (swift test, the test process, what the tests
# started) can be found and stopped.
: > "$log"
setsid -w stdbuf -oL -eL swift test "$@" >> "$log" 2>&1 < /dev/null &
runner=$!
tail -n +1 -f --pid="$runner" "$log" &
follower=$!

start=$(date +%s)
timed_out=0
while kill -0 "$runner" 2> /dev/null; do
  if (($(date +%s) - start >= limit)); then
    timed_out=1
    break
  fi
  sleep 2
done

if ((timed_out)); then
  # The new session's leader: the runner, unless setsid had to fork (where its caller leads a
  # process group; a script's background job does not), then the runner's child. Never the
  # caller's session.
  leader=$runner
  [ "$(ps -o sid= -p "$leader" | tr -d ' ')" = "$leader" ] || leader=$(pgrep -P "$runner" | head -1)
  if [ -n "$leader" ] && [ "$(ps -o sid= -p "$leader" | tr -d ' ')" = "$leader" ]; then
    tree=(-s "$leader")
  else
    tree=(-P "$runner")
  fi
  {
    echo "test-watched: swift test still running after $limit s: stopping it"
    if command -v gdb > /dev/null; then
      for pid in $(pgrep "${tree[@]}" -f '\.xctest' || true); do
        echo "test-watched: the threads of $pid, where they wait"
        # Each thread, with the frames in this project's code.
        timeout 120 gdb -p "$pid" -batch -ex 'thread apply all bt 16' 2> /dev/null \
          | grep -E '^Thread|^#.*/(Sources|Tests)/' | swift demangle --simplified | cut -c1-300 || true
      done
    fi
  } >> "$log"
  # By session: swift test puts the test process in a process group of its own, and so do
  # the tests some of the children they start.
  pkill -TERM "${tree[@]}"
  sleep 10
  pkill -KILL "${tree[@]}"
fi
wait "$runner"
status=$?
wait "$follower"
if ((timed_out)); then
  unfinished=$(python3 Scripts/unfinished-tests.py "$log")
  printf 'test-watched: started and never finished:\n%s\n' "$unfinished" | tee -a "$log"
  exit 124
fi
exit "$status"
