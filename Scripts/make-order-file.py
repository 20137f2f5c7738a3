#!/usr/bin/env python3
"""Writes Scripts/ticker.order: the functions the static ticker runs, which Scripts/build-static.sh
asks the linker (lld's --symbol-ordering-file) to place together at the start of its code.

Why: the kernel maps a binary's code into a process a page-cache folio at a time (often far
more than the 4 KiB page touched), and the ticker's start-up and message path touch about 1.2 MB
of functions spread over its 7 MB of code, so nearly all of it was resident. Placed together,
those functions take a few folios. (Functions that share a section with others, as 1.6 MB of
the Swift standard library's do, move only with it.)

How: the static ticker runs under valgrind's callgrind on the workloads that matter: `--demo`;
W1's blast over ws:// and over wss:// (through the benchmark's local TLS relay), every trade;
the default debounce with `--format json`; then natively, W1 over ws:// and wss:// sampled by
`perf` (where it can sample), for what a native run takes that callgrind's emulated CPU does not
(OpenSSL's code for the CPU's features, the reader's fast path); then, linked with that order,
the functions whose pages native runs still fault in (perf's page-fault events), a few rounds.
Every function they ran that the binary defines is listed, sorted by name (a stable file to diff): those the ws:// workloads ran first, then those
only wss:// ran (the TLS code, OpenSSL's own included: the static build links it in). glibc's
string functions are chosen at start-up for the CPU (AVX2, EVEX, ...), and valgrind's emulated
CPU chooses differently from the machine's: every variant is listed.

Run it again after larger changes to the code (StaticBuildLayoutTests checks that the file still
describes the build):

    python3 Scripts/make-order-file.py          # needs valgrind (apt-get install valgrind)
"""
import bisect
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "Benchmarks"))
from benchlib import FeedServe, TLSRelay  # noqa: E402

ORDER = ROOT / "Scripts" / "ticker.order"
MESSAGES = 20_000
STRING_VARIANTS = re.compile(r"^__(mem|str|stp|raw|wmem|wcs)[a-z0-9_]*_(avx|evex|sse|erms)")


def build() -> pathlib.Path:
    """The static ticker (Scripts/build-static.sh; the order it is linked with changes where
    functions lie, not which run) and the benchmark's feedserve."""
    built = subprocess.run(["bash", ROOT / "Scripts" / "build-static.sh"], check=True, cwd=ROOT,
                           stdout=subprocess.PIPE, text=True)
    subprocess.run(["swift", "build", "-c", "release", "--product", "feedserve"], check=True, cwd=ROOT,
                   stdout=sys.stderr)
    return pathlib.Path(built.stdout.strip().splitlines()[-1])


def defined_functions(binary: pathlib.Path) -> set[str]:
    out = subprocess.run(["nm", "--defined-only", binary], check=True, capture_output=True, text=True).stdout
    return {parts[2] for parts in (line.split() for line in out.splitlines())
            if len(parts) == 3 and parts[1] in "tTwWiI"}


def profile(binary: pathlib.Path, feedserve: pathlib.Path, work: pathlib.Path) -> tuple[set[str], set[str], set[str]]:
    """The functions callgrind saw run (raw symbol names): over the ws:// workloads, over
    wss:// (OpenSSL's, linked in, among them), and in `--demo` (its server and emulators)."""
    env = dict(os.environ, FINNHUB_TOKEN="order-file")
    seen: set[str] = set()

    def run(name: str, args: list) -> None:
        out = work / f"callgrind.{name}"
        subprocess.run(["valgrind", "--tool=callgrind", "--demangle=no", f"--callgrind-out-file={out}",
                        binary, *args], check=True, env=env, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, timeout=1800)
        for line in out.read_text(errors="replace").splitlines():
            match = re.match(r"^c?fn=\(\d+\) (.+)$", line)
            if match:
                seen.add(re.sub(r"'\d+$", "", match.group(1)))  # callgrind marks recursion 'N
        print(f"make-order-file: {name}: {len(seen):,} functions so far", file=sys.stderr)

    run("demo", ["--demo", "--count", "20"])
    demo = set(seen)
    seen.clear()
    with FeedServe(feedserve, "--blast", MESSAGES, "--verbatim") as server:
        run("ws", ["--url", server.url, "--every-trade", "--engine", "native"])
    with FeedServe(feedserve, "--blast", MESSAGES, "--verbatim") as server:
        run("debounce-json", ["--url", server.url, "--engine", "native", "--format", "json"])
    plain = set(seen)
    with FeedServe(feedserve, "--blast", MESSAGES, "--verbatim") as server:
        relay = TLSRelay(server.port, work)
        try:
            run("wss", ["--url", relay.url, "--every-trade", "--engine", "native", "--cacert", relay.ca_file])
        finally:
            relay.close()
    return plain, seen - plain, demo - seen


def sampled(binary: pathlib.Path, feedserve: pathlib.Path, work: pathlib.Path) -> tuple[set[str], set[str]]:
    """The functions perf's samples saw in native runs of the same workloads (ws://, then
    wss://), repeated: what callgrind misses because its emulated CPU makes the program take
    other paths (OpenSSL's and glibc's code for the CPU's features, the reader thread's fast
    path at a native pace). Empty where perf cannot sample."""
    env = dict(os.environ, FINNHUB_TOKEN="order-file")
    plain: set[str] = set()
    secure: set[str] = set()
    data = work / "perf.data"

    def run(into: set[str], args: list) -> None:
        recorded = subprocess.run(["perf", "record", "-q", "-F", "20000", "-e", "cpu-clock", "-o", data, "--",
                                   binary, *args], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if recorded.returncode != 0:
            return
        report = subprocess.run(["perf", "report", "-i", data, "--no-children", "--no-demangle", "--sort", "symbol",
                                 "--stdio", "--dsos", binary.name], capture_output=True, text=True).stdout
        into.update(line.split("[.]", 1)[1].split()[0] for line in report.splitlines() if "[.]" in line)

    if shutil.which("perf") is None:
        return plain, secure
    for _ in range(4):
        for extra in ([], ["--format", "json"]):
            with FeedServe(feedserve, "--blast", 10 * MESSAGES, "--verbatim") as server:
                run(plain, ["--url", server.url, "--every-trade", "--engine", "native", *extra])
            with FeedServe(feedserve, "--blast", 10 * MESSAGES, "--verbatim") as server:
                relay = TLSRelay(server.port, work)
                try:
                    run(secure, ["--url", relay.url, "--every-trade", "--engine", "native", "--cacert",
                                 relay.ca_file, *extra])
                finally:
                    relay.close()
    print(f"make-order-file: native samples: {len(plain):,} functions over ws://, {len(secure - plain):,} more "
          "over wss://", file=sys.stderr)
    return plain, secure - plain


def faulting(binary: pathlib.Path, feedserve: pathlib.Path, work: pathlib.Path) -> tuple[set[str], set[str]]:
    """The functions whose code pages a native run faults in (perf's page-fault events with
    their addresses; an instruction fetch's address is its own), over ws:// and then wss://.
    Each fault maps a window of pages around it (the kernel's fault-around), so a function the
    profiles missed shows here as the one that touched a window first: listed, its window joins
    the rest, and the next build's faults show what that window hid."""
    env = dict(os.environ, FINNHUB_TOKEN="order-file")
    symbols = []
    for line in subprocess.run(["nm", "-n", "--defined-only", binary], check=True, capture_output=True,
                               text=True).stdout.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "tTwW":
            symbols.append((int(parts[0], 16), parts[2]))
    starts = [start for start, _ in symbols]
    plain: set[str] = set()
    secure: set[str] = set()
    data = work / "faults.data"

    def run(into: set[str], args: list) -> None:
        recorded = subprocess.run(["perf", "record", "-q", "-e", "page-faults", "-c", "1", "-d", "-o", data, "--",
                                   binary, *args], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if recorded.returncode != 0:
            return
        script = subprocess.run(["perf", "script", "-i", data, "-F", "addr,ip"], capture_output=True, text=True).stdout
        for fields in (line.split() for line in script.splitlines()):
            if len(fields) == 2 and fields[0] == fields[1]:
                index = bisect.bisect_right(starts, int(fields[0], 16)) - 1
                if index >= 0:
                    into.add(symbols[index][1])

    for extra in ([], ["--format", "json"]):
        with FeedServe(feedserve, "--blast", 10 * MESSAGES, "--verbatim") as server:
            run(plain, ["--url", server.url, "--every-trade", "--engine", "native", *extra])
        with FeedServe(feedserve, "--blast", 10 * MESSAGES, "--verbatim") as server:
            relay = TLSRelay(server.port, work)
            try:
                run(secure, ["--url", relay.url, "--every-trade", "--engine", "native", "--cacert", relay.ca_file,
                             *extra])
            finally:
                relay.close()
    return plain, secure - plain


def main() -> None:
    if shutil.which("valgrind") is None:
        sys.exit("make-order-file: valgrind is needed (apt-get install valgrind)")
    with tempfile.TemporaryDirectory(prefix="ticker-order-") as temporary:
        work = pathlib.Path(temporary)
        binary = build()
        # valgrind cannot read the static binary's debug information; the symbols are enough.
        stripped = work / "ticker"
        subprocess.run(["strip", "--strip-debug", "-o", stripped, binary], check=True)
        defined = defined_functions(stripped)
        feedserve = ROOT / ".build" / "release" / "feedserve"
        plain, secure, demo = profile(stripped, feedserve, work)
        native_plain, native_secure = sampled(stripped, feedserve, work)
        plain |= native_plain
        secure |= native_secure
        order = ordered(plain, secure, demo, defined)
        # Linked with the order so far, the faults of native runs show what it still misses.
        for round in range(1, 4):
            ORDER.write_text("".join(f"{name}\n" for name in order))
            if shutil.which("perf") is None:
                break
            subprocess.run(["strip", "--strip-debug", "-o", stripped, build()], check=True)
            fault_plain, fault_secure = faulting(stripped, feedserve, work)
            new = ((fault_plain | fault_secure) & defined) - set(order)
            print(f"make-order-file: faults, round {round}: {len(new):,} functions not listed", file=sys.stderr)
            if not new:
                break
            plain |= fault_plain
            secure |= fault_secure
            order = ordered(plain, secure, demo, defined)
    ORDER.write_text("".join(f"{name}\n" for name in order))
    print(f"make-order-file: {len(order):,} functions written to {ORDER.relative_to(ROOT)}", file=sys.stderr)


def ordered(plain: set[str], secure: set[str], demo: set[str], defined: set[str]) -> list[str]:
    """What every run needs first, then what only wss:// adds, then what only `--demo` runs (its
    server and emulators): a ws:// run maps none of the latter's pages (interleaved by name,
    wss://'s cost ws:// 0.3 MB more, and the demo's, 3,000 functions, spread every run's)."""
    first = (plain & defined) | {name for name in defined if STRING_VARIANTS.match(name)}
    second = (secure & defined) - first
    return sorted(first) + sorted(second) + sorted((demo & defined) - first - second)


if __name__ == "__main__":
    main()
