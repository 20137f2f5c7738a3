#!/usr/bin/env python3
"""Names the tests a Swift Testing log shows as started and never finished (passed or
failed): after a run that was stopped, the ones it was waiting for.

    python3 Scripts/unfinished-tests.py LOG
"""
import re
import sys

STARTED = re.compile(r"^◇ Test (.+) started\.$")
# "✔ Test NAME passed after 1.2 seconds.", "✘ Test NAME with 4 test cases failed after ...".
# (A skipped test never starts.)
ENDED = re.compile(r"^[✔✘] Test (.+?) (?:with \d+ test cases? )?(?:passed|failed) after ")


def unfinished(lines):
    running = {}
    for line in lines:
        line = line.rstrip("\n")
        if line.startswith(("◇ Test case ", "◇ Test run started")):
            continue
        started = STARTED.match(line)
        if started:
            running[started.group(1)] = running.get(started.group(1), 0) + 1
            continue
        ended = ENDED.match(line)
        if ended and running.get(ended.group(1)):
            running[ended.group(1)] -= 1
    return [name for name, count in running.items() if count > 0]


if __name__ == "__main__":
    with open(sys.argv[1], encoding="utf-8", errors="replace") as log:
        names = unfinished(log)
    for name in names:
        print(f"  {name}")
    if not names:
        print("  (none: every test that started finished; the hang is after them, or outside a test)")
