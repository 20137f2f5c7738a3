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
(OpenSSL's code for the CPU's features, the reader's fast path). Every function they ran that
the binary defines is listed, sorted by name (a stable file to diff): those the ws:// workloads ran first, then those
only wss:// ran (the TLS code, OpenSSL's own included: the static build links it in). glibc's
string functions are chosen at start-up for the CPU (AVX2, EVEX, ...), and valgrind's emulated
CPU chooses differently from the machine's: every variant is listed.

Run it again after larger changes to the code (StaticBuildLayoutTests checks that the file still
describes the build):

    python3 Scripts/make-order-file.py          # needs valgrind (apt-get install valgrind)
"""
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


def profile(binary: pathlib.Path, feedserve: pathlib.Path, work: pathlib.Path) -> tuple[set[str], set[str]]:
    """The functions callgrind saw run (raw symbol names): over the ws:// workloads, and over
    wss:// (OpenSSL's, linked in, among them)."""
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
    return plain, seen - plain


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
        plain, secure = profile(stripped, feedserve, work)
        native_plain, native_secure = sampled(stripped, feedserve, work)
        plain |= native_plain
        secure |= native_secure
        # What every run needs first, then what only wss:// adds: a ws:// run maps none of the
        # latter's pages (interleaved by name, they cost ws:// 0.3 MB more).
        first = (plain & defined) | {name for name in defined if STRING_VARIANTS.match(name)}
        order = sorted(first) + sorted((secure & defined) - first)
    ORDER.write_text("".join(f"{name}\n" for name in order))
    print(f"make-order-file: {len(order):,} functions written to {ORDER.relative_to(ROOT)}", file=sys.stderr)


if __name__ == "__main__":
    main()
