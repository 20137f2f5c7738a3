#!/usr/bin/env python3
"""Throughput, latency, idle cost, start-up and realistic-batch benchmark of the release `ticker`
against two anchors on loopback: websocat (the receive floor) and a Python `websockets` client.

    python3 Benchmarks/bench.py            # full run (W1 1,000,000 messages ×3 per consumer, …)
    python3 Benchmarks/bench.py --smoke    # CI: W1 50k ×1, W1S 50k ×1, W1T 50k ×1, W1Z 50k ×1, W2 2 s, W3 5 s, W4 5 runs,
                                           #     W5 20k, W6 20k, W7 20k, W8 50k ×1, W9 50k ×1, REC 50k ×1
    python3 Benchmarks/bench.py --only W1,W4 --configuration debug

W1 throughput: `feedserve --blast N --verbatim` (a fresh server per run) sends N pre-framed
    one-trade Finnhub messages (~100 bytes) as fast as the socket takes them, then closes with
    1000. Consumers, stdout to /dev/null: websocat printing each message as a line; the Python
    client (python_client.py: json-decodes, prints `symbol price` per trade); `ticker
    --every-trade --engine native`, and the same with `--metrics 127.0.0.1:0` (its cost: within
    noise, ≤ 1.05× the wall), alternating run by run. Median of --runs runs: wall time (spawn
    to exit), CPU time and peak RSS (os.wait4 rusage). A separate counting pass per consumer pipes stdout through a line
    counter: every consumer must print exactly N lines.
W2 latency: a raw-socket server in this script sends one one-trade message per ms (unique trade
    time t) and records each send time; the harness timestamps each stdout line of `ticker
    --every-trade --format json` and reports receive − send per message (p50, p99, max). Server,
    ticker and the measuring reader share the machine.
W3 idle: `feedserve --verbatim --script` sending Finnhub's {"type":"ping"} once a second, then
    close 1000; the ticker's (user+sys)/wall and peak RSS (and the CPU between the first and last
    second, from /proc/<pid>/task/*/schedstat, which leaves out start-up).
W4 start: `feedserve` replaying the demo session at --time-scale 0 (a trade right after the
    subscribe); `ticker --count 1 --every-trade`: spawn to first stdout line, median of --starts.
W5 realistic batches: `feedserve --blast N --trades 1-50 --symbols 20` (1–50 trades per message
    over 20 symbols, pseudo-random, distinct prices); the ticker subscribed to those 20 symbols in
    the default mode (debounce 0.5 s + dedupe), and with --debounce 0: wall, CPU, messages/s,
    trades/s, peak RSS; a counting pass with --every-trade must print every trade.
W7 serve fan-out: `feedserve --blast N --await 2` upstream of `ticker serve --url …` (every trade),
    with 1, 10 and 100 websocat clients subscribed to BINANCE:BTCUSDT, each writing to a file of
    its own; a raw client's subscribe lets the blast go once all are in. Per client: trades
    received (counted in its file afterwards) and trades/s from the blast's start to the file's
    last write; clients serve dropped as too slow (its stderr); serve's peak RSS and CPU (stopped
    with SIGINT once no file has grown for 2 s). Serve, 100 websocats and the upstream share the
    machine's cores.
W6 venue firehoses: `feedserve --blast N --venue binance|upbit --verbatim`: W1 in the venue's wire
    format (Binance: wrapped trades with decimal-string prices; Upbit: SIMPLE tickers in binary
    frames), websocat and `ticker --provider V --every-trade` alternating, --runs each, against
    the same ratio targets as W1; a counting pass must print every message.
REC record and replay: the W1 firehose (`feedserve --blast N --verbatim`), `ticker --every-trade
    --engine native` plain and with `--record FILE` (a fresh file in a temporary directory)
    alternating, --runs each: wall, CPU and peak RSS, and the ratio --record/plain (target: the
    recording costs the live output nothing measurable, ≤ 1.10× wall); then `--replay FILE --speed
    max --every-trade` of the last recording (stdout to /dev/null): messages/s. Counting passes:
    the recording run must print every message, the recording hold every frame, and its replay
    print the same number of lines. Then W2 (one message per ms, send → stdout latency) plain and
    with --record: what recording costs a person watching a live feed.
W8 --publish cost: W1's firehose (`feedserve --blast N --verbatim`) into `ticker --every-trade
    --format json`, plain and with `--publish nats://…` to a `nats-server` this script starts on a
    free loopback port (alternating, --runs each): wall, CPU and peak RSS, and the publish/plain
    ratios. A counting pass with a nats-py subscriber on `ticker.>` reports how many of the N
    prices reached NATS (the publisher may drop under a firehose, by design; it is reported, not
    judged). Skipped with a note where nats-server or nats-py is missing.
W9 message shapes: `feedserve --blast M --verbatim` with 10 trades per message (M = N/10) and 100
    (M = N/100), one symbol, into `ticker --every-trade`; and N one-trade messages over 1,000
    symbols (`--symbols 1000`) into the ticker subscribed to all 1,000 with the default debounce,
    and N/10 messages of 10 trades over the same 1,000 symbols, likewise, to /dev/null and piped
    ("|": stdout a pipe this script drains, as `ticker | consumer`); and N/10,000 (at least 2) messages of 10,000 trades (about 760 KB each). websocat and the
    ticker alternate on the same blast (--runs each): median wall (min–max), trades/s, CPU, peak
    RSS and ticker/websocat ratios against 1.3× (must) and 1.0× (goal); for the 760 KB messages,
    the ticker's peak RSS against its own with 10-trade messages plus 3× (must) and 2× (goal) the
    message size.
W10 top of book: `feedserve --blast N --venue binance --symbols 1000 --book --verbatim` (book tickers,
    `<symbol>@bookTicker`, over 1,000 symbols) into `ticker --provider binance --bid-ask`, subscribed to
    all 1,000 with the default debounce, and the same blast of trades (without --book) into
    `ticker --provider binance`; websocat and the ticker alternating (--runs each): ratios to
    websocat (the book's within 0.1 of the trades', and ≤ 1.3×) and the ticker's peak RSS (the
    book's within 1 MB of the trades').
W1S W1 over wss://: the same blast behind a TLS relay in
    this script (`benchlib.TLSRelay`: Python's ssl with a throwaway CA from the `openssl` command),
    websocat (`--insecure`) and the dynamically linked `ticker --cacert` alternating; figures
    only (issue 11's memory must over wss:// is judged in W1T, on the installed static build);
    the wall time is Python's TLS's.
W1T W1 with the static build (Scripts/build-static.sh: `-static-executable`, no shared library),
    the ticker Scripts/install.sh installs: websocat, the dynamically linked ticker (W1's) and the
    static one alternating on W1's blast (--runs each), then the static one over wss:// (W1S's
    relay; OpenSSL is linked into it), with the environment's SSL_CERT_FILE and SSL_CERT_DIR
    and without them (a stock system's trust: the hashed /etc/ssl/certs), websocat over the same
    relay beside it; a counting pass for each. Issue 11's memory must (≤ 10.5 MB over ws:// and
    wss://) and goal (websocat's) are judged here, on the static ticker, with the environment's
    trust.
W1Z W1 compressed: `feedserve --blast N --verbatim --deflate` agrees on permessage-deflate (RFC 7692)
    with a client that offers it and sends one batch of 1000 messages compressed once (context
    takeover inside the batch, a fresh window at each batch's start) again and again. `ticker
    --every-trade --engine native` (which offers) against it, the same ticker against the plain
    server (W1's), and websocat against the compressing server (websocat 1.x offers nothing, so
    it gets plain frames: the anchor), alternating, --runs each: wall, CPU, peak RSS, the
    server's CPU. Then a counting pass per variant through a byte-counting TCP relay
    (`benchlib.CountingRelay`): the bytes on the wire each way (TCP payload, the upgrade
    included) and the lines printed (must be N). Reports the ticker's compressed/plain ratios of
    wall, CPU, RSS and bytes on the wire; no target is judged.

Prints the machine, a table of absolute figures and ratios and, in a full run, each target as
met/NOT met. A --smoke run judges no target (its counts are too small to mean anything): it prints
"smoke run: targets not judged" and the figures only. Raw results (every run) go to
<results>/bench-<UTC>.json: --results DIR, by default Benchmarks/results/ for a full run (the
committed record) and .build/bench-results/ for --smoke, so that CI leaves the tree clean.
Exit status 1 only if a consumer missed messages or a run failed (never because of a timing).
"""
import argparse
import datetime
import json
import os
import pathlib
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from benchlib import (CountingRelay, FeedServe, PacedServer, TLSRelay, build_launcher, count_lines,  # noqa: E402
                      percentile, run_measured, spawn)
from soak import RESULTS, ROOT, build  # noqa: E402
import serve_fanout  # noqa: E402

VENV = ROOT / ".build" / "venv"
SMOKE_RESULTS = ROOT / ".build" / "bench-results"
CEILINGS = ROOT / "Benchmarks" / "memory-ceilings.json"
CEILING_RUNS = 5  # the static ticker's W1T runs whose median peak RSS is judged
W5_SYMBOLS = 20


class Bench:
    def __init__(self, args, bin_path: pathlib.Path):
        self.args = args
        self.ticker = bin_path / "ticker"
        self.feedserve = bin_path / "feedserve"
        self.websocat = VENV / "bin" / "websocat"
        self.python = VENV / "bin" / "python"
        self.home = tempfile.mkdtemp(prefix="bench-ticker-")  # no user config file
        env = {k: v for k, v in os.environ.items() if not k.startswith("TICKER_") and k != "NO_COLOR"}
        env.update(FINNHUB_TOKEN="bench-token", XDG_CONFIG_HOME=self.home, HOME=self.home)
        self.ticker_env = env
        self.results: dict = {}
        self.failures: list[str] = []

    def fail(self, message: str) -> None:
        print(f"bench: FAILED: {message}", flush=True)
        self.failures.append(message)

    def measured_run(self, label: str, cmd: list, env: dict | None = None) -> dict:
        """One measured run of `cmd` (`run_measured`): a non-zero exit fails the bench; wall time
        and peak RSS are printed as it goes."""
        measured, stderr = run_measured(cmd, env=env)
        if measured.exit != 0:
            self.fail(f"{label} exited {measured.exit}: {stderr.strip()[-300:]}")
        print(f"bench: {label}: {measured.wall:.3f} s, {measured.maxrss_kb / 1024:.1f} MB", flush=True)
        return measured.as_dict()

    # MARK: W1

    def consumers(self, url: str) -> dict[str, list]:
        return {
            "websocat": [self.websocat, "-t", "-U", "--no-close", url],
            "python": [self.python, ROOT / "Benchmarks" / "python_client.py", url],
            "ticker": [self.ticker, "--url", url, "--every-trade", "--engine", "native"],
            # The same with the metrics endpoint up (and each symbol's last price kept for it).
            "ticker+metrics": [self.ticker, "--url", url, "--every-trade", "--engine", "native",
                               "--metrics", "127.0.0.1:0"],
        }

    def w1(self) -> None:
        """websocat, the Python client and the ticker, alternating run by run on the same blast, so
        that a noisy minute on the machine falls on all of them alike."""
        n = self.args.messages
        names = ("websocat", "python", "ticker", "ticker+metrics")
        out: dict = {"messages": n, "runs": {name: [] for name in names}, "count": {}}
        for _ in range(self.args.runs):
            for name in names:
                env = self.ticker_env if name.startswith("ticker") else None
                with FeedServe(self.feedserve, "--blast", n, "--verbatim") as server:
                    measured, stderr = run_measured(self.consumers(server.url)[name], env=env)
                run = measured.as_dict() | {"server_cpu_s": round(server.measured.cpu, 3)}
                if measured.exit != 0:
                    self.fail(f"W1 {name} exited {measured.exit}: {stderr.strip()[-300:]}")
                out["runs"][name].append(run)
                print(f"bench: W1 {name}: {run['wall_s']:.3f} s, {run['maxrss_kb'] / 1024:.1f} MB", flush=True)
        for name in names:
            env = self.ticker_env if name.startswith("ticker") else None
            with FeedServe(self.feedserve, "--blast", n, "--verbatim") as server:
                lines, status, stderr = count_lines(self.consumers(server.url)[name], env=env)
            out["count"][name] = {"lines": lines, "exit": status}
            if lines != n:
                self.fail(f"W1 {name} printed {lines:,} lines for {n:,} messages (exit {status}) {stderr[-300:]}")
        self.results["W1"] = out

    def w1s(self) -> None:
        """W1 over wss://: the same blast behind a local TLS relay (`benchlib.TLSRelay`), websocat and
        the ticker alternating; judged on the ticker's peak RSS (OpenSSL is loaded for it)."""
        n = self.args.messages
        out: dict = {"messages": n, "runs": {"websocat": [], "ticker": []}}
        directory = pathlib.Path(tempfile.mkdtemp(prefix="bench-tls-"))
        try:
            for _ in range(self.args.runs):
                for name in ("websocat", "ticker"):
                    with FeedServe(self.feedserve, "--blast", n, "--verbatim") as server:
                        relay = TLSRelay(server.port, directory)
                        if name == "websocat":
                            cmd = [self.websocat, "-t", "-U", "--no-close", "--insecure", relay.url]
                        else:
                            cmd = [self.ticker, "--url", relay.url, "--every-trade", "--engine", "native",
                                   "--cacert", relay.ca_file]
                        out["runs"][name].append(
                            self.measured_run(f"W1S {name}", cmd, self.ticker_env if name == "ticker" else None))
                        relay.close()
            with FeedServe(self.feedserve, "--blast", n, "--verbatim") as server:
                relay = TLSRelay(server.port, directory)
                lines, status, stderr = count_lines(
                    [self.ticker, "--url", relay.url, "--every-trade", "--engine", "native", "--cacert", relay.ca_file],
                    env=self.ticker_env)
                relay.close()
            out["ticker_lines"] = lines
            if lines != n:
                self.fail(f"W1S ticker printed {lines:,} lines for {n:,} messages (exit {status}) {stderr[-300:]}")
        finally:
            shutil.rmtree(directory, ignore_errors=True)
        self.results["W1S"] = out

    # MARK: W1T

    def w1t(self) -> None:
        """W1 with the static build: websocat, the default ticker and the static one alternating
        over ws://, then the static one over wss://; counting passes for both."""
        built = subprocess.run(["bash", ROOT / "Scripts" / "build-static.sh"], check=True,
                               capture_output=True, text=True)
        static = pathlib.Path(built.stdout.strip().splitlines()[-1])
        n = self.args.messages
        names = ("websocat", "ticker", "ticker static")
        out: dict = {"messages": n, "runs": {name: [] for name in names}, "wss": [], "wss_stock": [],
                     "wss_websocat": [], "count": {}}
        # A stock Debian system sets neither variable: OpenSSL then reads the one CA a chain
        # needs from the hashed /etc/ssl/certs. With SSL_CERT_FILE (as on this project's build
        # machines) it parses the whole bundle, as the ticker must: both are measured.
        stock_env = {k: v for k, v in self.ticker_env.items() if k not in ("SSL_CERT_FILE", "SSL_CERT_DIR")}
        directory = pathlib.Path(tempfile.mkdtemp(prefix="bench-tls-"))

        def command(name: str, url: str, *extra) -> list:
            if name == "websocat":  # over wss://, the relay's throwaway CA is not checked
                insecure = ["--insecure"] if url.startswith("wss") else []
                return [self.websocat, "-t", "-U", "--no-close", *insecure, url]
            binary = static if name == "ticker static" else self.ticker
            return [binary, "--url", url, "--every-trade", "--engine", "native", *extra]

        try:
            for _ in range(self.args.runs):
                for name in names:
                    with FeedServe(self.feedserve, "--blast", n, "--verbatim") as server:
                        out["runs"][name].append(self.measured_run(
                            f"W1T {name}", command(name, server.url), None if name == "websocat" else self.ticker_env))
                secure = [("wss_websocat", "websocat over wss://", "websocat", None),
                          ("wss", "ticker static over wss://", "ticker static", self.ticker_env),
                          ("wss_stock", "ticker static over wss://, stock trust", "ticker static", stock_env)]
                for key, label, name, env in secure:
                    with FeedServe(self.feedserve, "--blast", n, "--verbatim") as server:
                        relay = TLSRelay(server.port, directory)
                        extra = [] if name == "websocat" else ["--cacert", relay.ca_file]
                        out[key].append(self.measured_run(f"W1T {label}", command(name, relay.url, *extra), env))
                        relay.close()
            with FeedServe(self.feedserve, "--blast", n, "--verbatim") as server:
                lines, status, stderr = count_lines(command("ticker static", server.url), env=self.ticker_env)
            out["count"]["ws"] = lines
            if lines != n:
                self.fail(f"W1T static ticker printed {lines:,} lines for {n:,} messages (exit {status}) {stderr[-300:]}")
            with FeedServe(self.feedserve, "--blast", n, "--verbatim") as server:
                relay = TLSRelay(server.port, directory)
                lines, status, stderr = count_lines(
                    command("ticker static", relay.url, "--cacert", relay.ca_file), env=self.ticker_env)
                relay.close()
            out["count"]["wss"] = lines
            if lines != n:
                self.fail(f"W1T static ticker over wss:// printed {lines:,} lines for {n:,} messages "
                          f"(exit {status}) {stderr[-300:]}")
            # One run's peak RSS moves by up to 0.8 MB with the page cache's folios (6.6 to 7.4 MB
            # on ws:// in one afternoon), so the ceilings judge the median of at least five.
            for _ in range(max(0, CEILING_RUNS - self.args.runs)):
                with FeedServe(self.feedserve, "--blast", n, "--verbatim") as server:
                    out["runs"]["ticker static"].append(self.measured_run(
                        "W1T ticker static (ceiling run)", command("ticker static", server.url), self.ticker_env))
                with FeedServe(self.feedserve, "--blast", n, "--verbatim") as server:
                    relay = TLSRelay(server.port, directory)
                    out["wss_stock"].append(self.measured_run(
                        "W1T ticker static over wss://, stock trust (ceiling run)",
                        command("ticker static", relay.url, "--cacert", relay.ca_file), stock_env))
                    relay.close()
        finally:
            shutil.rmtree(directory, ignore_errors=True)
        self.results["W1T"] = out
        self.check_memory_ceilings(out)

    def check_memory_ceilings(self, w1t: dict) -> None:
        """The static build's peak RSS on W1T against the ceilings kept in the repository
        (memory-ceilings.json), the median of at least CEILING_RUNS runs, smoke or full, so a
        regression such as Foundation linked in again fails the bench (and CI) with both figures.
        Times are not judged here."""
        ceilings = json.loads(CEILINGS.read_text())["W1T"]
        measured = {"ws": median_of(w1t["runs"]["ticker static"], "maxrss_kb") / 1024,
                    "wss_stock": median_of(w1t["wss_stock"], "maxrss_kb") / 1024}
        for key, peak in measured.items():
            ceiling = ceilings[key]["peak_rss_mb"]
            verdict = "within" if peak <= ceiling else "OVER"
            print(f"bench: W1T {ceilings[key]['label']}: peak RSS {peak:.1f} MB, ceiling {ceiling:.1f} MB: {verdict}",
                  flush=True)
            if peak > ceiling:
                self.fail(f"W1T {ceilings[key]['label']}: peak RSS {peak:.1f} MB is over its ceiling of "
                          f"{ceiling:.1f} MB ({CEILINGS.relative_to(ROOT)})")

    # MARK: W1Z

    # W1Z's variants: (label, consumer, feedserve arguments after the blast's).
    W1Z_VARIANTS = (("ticker plain", "ticker", ()), ("ticker deflate", "ticker", ("--deflate",)),
                    ("websocat deflate", "websocat", ("--deflate",)))

    def w1z(self) -> None:
        """W1 with the server compressing (`feedserve --deflate`): the ticker offers permessage-deflate
        and inflates; the same ticker against the plain server; websocat (which offers nothing, so
        it gets plain frames from the compressing server) as the anchor. Alternating run by run;
        then a counting pass per variant through `benchlib.CountingRelay` for the bytes on the wire
        and the lines printed."""
        n = self.args.messages
        out: dict = {"messages": n, "runs": {label: [] for label, _, _ in self.W1Z_VARIANTS}, "count": {}}
        for _ in range(self.args.runs):
            for label, consumer, extra in self.W1Z_VARIANTS:
                env = self.ticker_env if consumer == "ticker" else None
                with FeedServe(self.feedserve, "--blast", n, "--verbatim", *extra) as server:
                    measured, stderr = run_measured(self.consumers(server.url)[consumer], env=env)
                run = measured.as_dict() | {"server_cpu_s": round(server.measured.cpu, 3)}
                if measured.exit != 0:
                    self.fail(f"W1Z {label} exited {measured.exit}: {stderr.strip()[-300:]}")
                out["runs"][label].append(run)
                print(f"bench: W1Z {label}: {run['wall_s']:.3f} s, {run['maxrss_kb'] / 1024:.1f} MB", flush=True)
        for label, consumer, extra in self.W1Z_VARIANTS:
            env = self.ticker_env if consumer == "ticker" else None
            with FeedServe(self.feedserve, "--blast", n, "--verbatim", *extra) as server:
                relay = CountingRelay(server.port)
                lines, status, stderr = count_lines(self.consumers(relay.url)[consumer], env=env)
                relay.close()
            out["count"][label] = {"lines": lines, "exit": status, "bytes_down": relay.down, "bytes_up": relay.up,
                                   "connections": relay.connections}
            print(f"bench: W1Z {label}: {relay.down:,} bytes server → client, {relay.up:,} back, "
                  f"{lines:,} lines", flush=True)
            if lines != n:
                self.fail(f"W1Z {label} printed {lines:,} lines for {n:,} messages (exit {status}) {stderr[-300:]}")
        self.results["W1Z"] = out

    # MARK: REC

    def rec(self) -> None:
        n = self.args.messages
        out: dict = {"messages": n, "runs": {"plain": [], "record": []}}
        directory = pathlib.Path(tempfile.mkdtemp(prefix="bench-record-"))
        recording = directory / "firehose.ndjson"
        base = [self.ticker, "--every-trade", "--engine", "native"]
        try:
            for _ in range(self.args.runs):
                for name in ("plain", "record"):
                    recording.unlink(missing_ok=True)
                    extra = ["--record", recording] if name == "record" else []
                    with FeedServe(self.feedserve, "--blast", n, "--verbatim") as server:
                        measured, stderr = run_measured([*base, "--url", server.url, *extra], env=self.ticker_env)
                    if measured.exit != 0:
                        self.fail(f"REC {name} exited {measured.exit}: {stderr.strip()[-300:]}")
                    out["runs"][name].append(measured.as_dict())
                    print(f"bench: REC {name}: {measured.wall:.3f} s, {measured.maxrss_kb / 1024:.1f} MB",
                          flush=True)
            frames = sum(1 for line in open(recording, "rb") if line.startswith(b'{"dir":"S>"'))
            out["recording"] = {"bytes": recording.stat().st_size, "frames": frames}
            if frames != n:
                self.fail(f"REC the recording holds {frames:,} frames for {n:,} messages")
            replay = [self.ticker, "--replay", recording, "--speed", "max", "--every-trade"]
            measured, stderr = run_measured(replay, env=self.ticker_env)
            if measured.exit != 0:
                self.fail(f"REC replay exited {measured.exit}: {stderr.strip()[-300:]}")
            out["replay"] = measured.as_dict()
            print(f"bench: REC replay: {measured.wall:.3f} s, {measured.maxrss_kb / 1024:.1f} MB", flush=True)
            lines, status, stderr = count_lines(replay, env=self.ticker_env)
            out["replay_lines"] = lines
            if lines != n:
                self.fail(f"REC the replay printed {lines:,} lines for {n:,} messages (exit {status}) {stderr[-300:]}")
            recording.unlink(missing_ok=True)
            with FeedServe(self.feedserve, "--blast", n, "--verbatim") as server:
                lines, status, stderr = count_lines([*base, "--url", server.url, "--record", recording],
                                                    env=self.ticker_env)
            out["record_lines"] = lines
            if lines != n:
                self.fail(f"REC --record printed {lines:,} lines for {n:,} messages (exit {status}) {stderr[-300:]}")
            # At a live pace (W2: one message per ms), what a person sees: the latency to stdout.
            previous = sys.getswitchinterval()
            sys.setswitchinterval(0.0001)
            try:
                count = int(self.args.latency_seconds * 1000)
                out["latency"] = {"plain": self._w2(count, label="REC latency plain")}
                recording.unlink(missing_ok=True)
                out["latency"]["record"] = self._w2(count, ("--record", recording), label="REC latency --record")
            finally:
                sys.setswitchinterval(previous)
        finally:
            recording.unlink(missing_ok=True)
            directory.rmdir()
        self.results["REC"] = out

    # MARK: W6

    VENUES = {"binance": "btcusdt", "upbit": "KRW-BTC"}

    def w6(self) -> None:
        """W1 in each keyless venue's wire format: Binance's wrapped trades with decimal-string
        prices (~210 bytes), Upbit's SIMPLE tickers in binary frames (~800 bytes)."""
        n = self.args.venue_messages
        out: dict = {"messages": n}
        for venue, symbol in self.VENUES.items():
            commands = {
                "websocat": lambda url: [self.websocat, "-t", "-U", "--no-close", url],
                "ticker": lambda url: [self.ticker, "--provider", venue, "--url", url, "-s", symbol,
                                       "--every-trade", "--engine", "native"],
            }
            runs: dict[str, list] = {"websocat": [], "ticker": []}
            # websocat and the ticker alternate, each against a server of its own.
            for _ in range(self.args.runs):
                for name, command in commands.items():
                    env = self.ticker_env if name == "ticker" else None
                    with FeedServe(self.feedserve, "--blast", n, "--venue", venue, "--verbatim") as server:
                        measured, stderr = run_measured(command(server.url), env=env)
                    if measured.exit != 0:
                        self.fail(f"W6 {venue} {name} exited {measured.exit}: {stderr.strip()[-300:]}")
                    runs[name].append(measured.as_dict())
                    print(f"bench: W6 {venue} {name}: {measured.wall:.3f} s, {measured.maxrss_kb / 1024:.1f} MB",
                          flush=True)
            with FeedServe(self.feedserve, "--blast", n, "--venue", venue, "--verbatim") as server:
                lines, status, stderr = count_lines(commands["ticker"](server.url), env=self.ticker_env)
            if lines != n:
                self.fail(f"W6 {venue} ticker printed {lines:,} lines for {n:,} messages (exit {status}) "
                          f"{stderr[-300:]}")
            out[venue] = {"runs": runs, "ticker_lines": lines}
        self.results["W6"] = out

    # MARK: W7

    def w7(self) -> None:
        n = self.args.fanout_trades
        out: dict = {"trades": n, "runs": {}}
        for clients in (1, 10, 100):
            with FeedServe(self.feedserve, "--blast", n, "--await", 2, "--hold") as upstream, \
                    tempfile.TemporaryDirectory(prefix="bench-w7-") as scratch:
                serve = spawn([self.ticker, "serve", "--url", upstream.url, "--port", "0", "--max-clients", "200",
                               "-v"], env=self.ticker_env, stdout=subprocess.PIPE)
                url = serve.stdout.readline().decode().strip()
                port = int(url.rstrip("/").rsplit(":", 1)[1])
                log = serve_fanout.StderrLog(serve.stderr)
                fleet = [serve_fanout.WebsocatClient(self.websocat, url, pathlib.Path(scratch) / f"client-{i}",
                                                     "BINANCE:BTCUSDT") for i in range(clients)]
                if not log.wait_for("subscribes BINANCE:BTCUSDT", clients, timeout=60):
                    self.fail(f"W7: not every client subscribed: {log.text()[-500:]}")
                # The second upstream subscription request lets the blast go.
                started = time.time()
                gate = serve_fanout.FanoutClient(port, "GO")
                serve_fanout.wait_until_quiet(fleet, quiet=2.0, timeout=300)
                serve.process.send_signal(2)
                measured = serve.wait(30)
                gate.sock.close()
                per_client = [client.finish(started, n) for client in fleet]
            dropped = log.text().count("closed by the server: too slow")
            rates = [c["trades"] / c["seconds"] for c in per_client if c["seconds"]]
            run = {"clients": clients, "per_client": per_client, "dropped": dropped,
                   "complete": sum(1 for c in per_client if c["trades"] >= n),
                   "median_trades_per_s": statistics.median(rates) if rates else None,
                   "min_trades_per_s": min(rates) if rates else None,
                   "serve": measured.as_dict()}
            out["runs"][str(clients)] = run
            print(f"bench: W7 {clients} client(s): {run['complete']} got every trade, {dropped} dropped as too "
                  f"slow, median {run['median_trades_per_s'] or 0:,.0f} trades/s per client, "
                  f"serve peak RSS {measured.maxrss_kb / 1024:.1f} MB", flush=True)
            if run["complete"] + dropped != clients:
                self.fail(f"W7 {clients} clients: {clients - run['complete'] - dropped} neither got every trade "
                          f"nor were dropped: {log.text()[-500:]}")
        self.results["W7"] = out

    # MARK: W2

    def w2(self) -> None:
        count = int(self.args.latency_seconds * 1000)
        # The sender and the reader are threads of this process: hand the GIL over quickly.
        previous = sys.getswitchinterval()
        sys.setswitchinterval(0.0001)
        try:
            self.results["W2"] = self._w2(count)
        finally:
            sys.setswitchinterval(previous)

    def _w2(self, count: int, extra: tuple = (), label: str = "W2") -> dict:
        server = PacedServer(count)
        server.start()
        child = spawn([self.ticker, "--url", server.url, "--every-trade", "--format", "json",
                       "--engine", "native", *extra], env=self.ticker_env, stdout=subprocess.PIPE)
        received: dict[int, float] = {}
        pattern = re.compile(rb'"t":(\d+)')
        for line in child.stdout:
            now = time.monotonic()
            match = pattern.search(line)
            if match:
                received[int(match.group(1))] = now
        measured = child.wait(60)
        server.join(10)
        latencies = sorted((received[t] - sent) * 1000 for t, sent in server.sent.items() if t in received)
        out = {"messages": count, "received": len(received), "exit": measured.exit,
               "p50_ms": percentile(latencies, 0.5), "p99_ms": percentile(latencies, 0.99),
               "max_ms": latencies[-1] if latencies else None,
               "mean_ms": statistics.fmean(latencies) if latencies else None,
               "server_error": repr(server.error) if server.error else None,
               "latencies_ms_sample": [round(x, 4) for x in latencies[:: max(1, len(latencies) // 500)]]}
        if server.error or len(received) != count or len(server.sent) != count:
            self.fail(f"{label}: {len(received)} of {count} messages seen (server error {server.error!r})")
        print(f"bench: {label} p50 {out['p50_ms']:.3f} ms, p99 {out['p99_ms']:.3f} ms, max {out['max_ms']:.3f} ms",
              flush=True)
        return out

    # MARK: W3

    def w3(self) -> None:
        seconds = self.args.idle_seconds
        script = pathlib.Path(self.home) / "pings.ndjson"
        step = {"dir": "S>", "kind": "text", "after_ms": 1000, "body": '{"type":"ping"}'}
        script.write_text("".join(json.dumps(step) + "\n" for _ in range(seconds)))
        with FeedServe(self.feedserve, "--verbatim", "--script", script) as server:
            child = spawn([self.ticker, "--url", server.url, "--engine", "native"], env=self.ticker_env)
            window: list[tuple[float, float | None]] = []

            def sample() -> None:  # on-CPU time of all threads at t = 1 s and t = seconds - 0.5 s
                for at in (1.0, seconds - 0.5):
                    time.sleep(max(0.0, child.started + at - time.monotonic()))
                    pid = child.pid
                    window.append((time.monotonic(), schedstat_seconds(pid) if pid else None))

            sampler = threading.Thread(target=sample, daemon=True)
            sampler.start()
            measured = child.wait(seconds + 30)
            sampler.join(5)
        out = measured.as_dict() | {"seconds": seconds, "cpu_percent": 100 * measured.cpu / measured.wall}
        if len(window) == 2 and window[0][1] is not None and window[1][1] is not None:
            out["steady_cpu_percent"] = 100 * (window[1][1] - window[0][1]) / (window[1][0] - window[0][0])
        self.results["W3"] = out
        if measured.exit != 0:
            self.fail(f"W3: the ticker exited {measured.exit}")
        print(f"bench: W3 {out['cpu_percent']:.3f} % CPU, {out['maxrss_kb'] / 1024:.1f} MB", flush=True)

    # MARK: W4

    def w4(self) -> None:
        times = []
        with FeedServe(self.feedserve, "--time-scale", "0") as server:
            for _ in range(self.args.starts):
                child = spawn([self.ticker, "--url", server.url, "--count", "1", "--every-trade",
                               "--engine", "native"], env=self.ticker_env, stdout=subprocess.PIPE, measured=False)
                line = child.stdout.readline()
                first = time.monotonic() - child.started
                child.stdout.read()
                measured = child.wait(30)
                if not line or measured.exit != 0:
                    self.fail(f"W4: no price line (exit {measured.exit})")
                    continue
                times.append(first * 1000)
        # For reference: what the binary costs before it does anything (`ticker --version`).
        baseline, _ = run_measured([self.ticker, "--version"], env=self.ticker_env, timeout=30)
        self.results["W4"] = {"runs_ms": [round(t, 3) for t in times],
                              "median_ms": statistics.median(times) if times else None,
                              "version_only": baseline.as_dict()}
        if times:
            print(f"bench: W4 median {statistics.median(times):.1f} ms", flush=True)

    # MARK: W5

    def w5(self) -> None:
        n = self.args.batch_messages
        out: dict = {"messages": n}
        for mode, extra in (("default", []), ("debounce0", ["--debounce", "0"])):
            with FeedServe(self.feedserve, "--blast", n, "--trades", "1-50", "--symbols", W5_SYMBOLS) as server:
                symbols = ",".join(mix_symbols(W5_SYMBOLS))
                measured, stderr = run_measured(
                    [self.ticker, "--url", server.url, "--symbol", symbols, "--engine", "native", *extra],
                    env=self.ticker_env)
            run = measured.as_dict() | {
                "trades": server.trades, "server_cpu_s": round(server.measured.cpu, 3),
                "messages_per_s": n / measured.wall, "trades_per_s": server.trades / measured.wall}
            out[mode] = run
            if measured.exit != 0:
                self.fail(f"W5 {mode}: the ticker exited {measured.exit}: {stderr.strip()[-300:]}")
            print(f"bench: W5 {mode}: {run['wall_s']:.2f} s, {run['trades']:,} trades, "
                  f"{run['maxrss_kb'] / 1024:.1f} MB", flush=True)
        # Counting pass: with --every-trade the ticker must print every trade the server sent.
        with FeedServe(self.feedserve, "--blast", n, "--trades", "1-50", "--symbols", W5_SYMBOLS) as server:
            lines, status, stderr = count_lines(
                [self.ticker, "--url", server.url, "--symbol", symbols, "--engine", "native", "--every-trade"],
                env=self.ticker_env)
        out["count"] = {"lines": lines, "trades": server.trades, "exit": status}
        if lines != server.trades:
            self.fail(f"W5 --every-trade printed {lines:,} lines for {server.trades:,} trades (exit {status}) "
                      f"{stderr[-300:]}")
        self.results["W5"] = out

    # MARK: W10

    def w10(self) -> None:
        """The top of the book: N Binance book tickers over 1,000 symbols (`feedserve --venue binance
        --symbols 1000 --book`) into `ticker --provider binance --bid-ask` with the default debounce,
        beside the same blast of trades into `ticker --provider binance`; websocat and the ticker
        alternating on the same blast."""
        n = self.args.messages
        symbols = ",".join(f"SYM{i}USDT" for i in range(1000))
        shapes = [("trades", [], []), ("book", ["--book"], ["--bid-ask"])]
        out: dict = {}
        for label, server_args, ticker_args in shapes:
            runs: dict[str, list] = {"websocat": [], "ticker": []}
            for _ in range(self.args.runs):
                for name in ("websocat", "ticker"):
                    with FeedServe(self.feedserve, "--blast", n, "--venue", "binance", "--symbols", 1000,
                                   "--verbatim", *server_args) as server:
                        if name == "websocat":
                            cmd, env = [self.websocat, "-t", "-U", "--no-close", server.url], None
                        else:
                            cmd = [self.ticker, "--provider", "binance", "--url", server.url, "--engine", "native",
                                   "--symbol", symbols, *ticker_args]
                            env = self.ticker_env
                        measured, stderr = run_measured(cmd, env=env)
                    if measured.exit != 0:
                        self.fail(f"W10 {label} {name} exited {measured.exit}: {stderr.strip()[-300:]}")
                    runs[name].append(measured.as_dict())
            out[label] = {"messages": n, "runs": runs}
            walls = {name: median_of(r, "wall_s") for name, r in runs.items()}
            print(f"bench: W10 {label}: ticker {walls['ticker']:.3f} s, websocat {walls['websocat']:.3f} s",
                  flush=True)
        self.results["W10"] = out

    # MARK: W9

    def w9(self) -> None:
        """Message shapes beyond W1's one trade: 10 and 100 trades per message (--every-trade, one
        symbol), 1,000 symbols (one and ten trades per message, the default debounce), websocat and the
        ticker alternating on the same `feedserve --verbatim` blast."""
        n = self.args.messages
        x10 = ["--trades", "10", "--symbols", "1000"]
        shapes = [("10 trades/msg", max(1, n // 10), ["--trades", "10"], ["--every-trade"], 1, False),
                  ("100 trades/msg", max(1, n // 100), ["--trades", "100"], ["--every-trade"], 1, False),
                  ("1,000 symbols", n, ["--trades", "1", "--symbols", "1000"], [], 1000, False),
                  ("1,000 sym × 10", max(1, n // 10), x10, [], 1000, False),
                  ("1,000 sym × 10 |", max(1, n // 10), x10, [], 1000, True),
                  ("10,000 trades/msg", max(2, n // 10_000), ["--trades", "10000"], ["--every-trade"], 1, False)]
        out: dict = {}
        for label, messages, server_args, ticker_args, symbols, piped in shapes:
            runs: dict[str, list] = {"websocat": [], "ticker": []}
            trades = 0
            for _ in range(self.args.runs):
                for name in ("websocat", "ticker"):
                    with FeedServe(self.feedserve, "--blast", messages, "--verbatim", *server_args) as server:
                        if name == "websocat":
                            cmd, env = [self.websocat, "-t", "-U", "--no-close", server.url], None
                        else:
                            cmd = [self.ticker, "--url", server.url, "--engine", "native",
                                   "--symbol", ",".join(mix_symbols(symbols)), *ticker_args]
                            env = self.ticker_env
                        measured, stderr = run_measured(cmd, env=env, piped=piped)
                    trades = server.trades or messages
                    if measured.exit != 0:
                        self.fail(f"W9 {label} {name} exited {measured.exit}: {stderr.strip()[-300:]}")
                    runs[name].append(measured.as_dict())
            out[label] = {"messages": messages, "trades": trades, "runs": runs,
                          "message_bytes": self.message_bytes(server_args)}
            walls = {name: median_of(r, "wall_s") for name, r in runs.items()}
            print(f"bench: W9 {label}: ticker {walls['ticker']:.3f} s, websocat {walls['websocat']:.3f} s",
                  flush=True)
        self.results["W9"] = out

    def message_bytes(self, server_args: list) -> int:
        """The size of one message of `feedserve --blast 1 --verbatim *server_args`, as websocat
        prints it (without its newline)."""
        with FeedServe(self.feedserve, "--blast", 1, "--verbatim", *server_args) as server:
            got = subprocess.run([self.websocat, "-t", "-U", "--no-close", server.url],
                                 capture_output=True, timeout=60).stdout
        return max(0, len(got.rstrip(b"\n")))

    # MARK: W8

    def w8(self) -> None:
        n = self.args.messages
        server_bin = shutil.which("nats-server") or next(
            (p for p in ("/usr/sbin/nats-server", "/usr/bin/nats-server") if os.access(p, os.X_OK)), None)
        has_nats_py = subprocess.run([self.python, "-c", "import nats"], capture_output=True).returncode == 0
        if server_bin is None or not has_nats_py:
            print("bench: W8 skipped: nats-server or nats-py is missing (bash Scripts/setup-test-env.sh)", flush=True)
            self.results["W8"] = {"skipped": "nats-server or nats-py is missing"}
            return
        nats = NATSServer(server_bin)
        try:
            url = nats.url
            base = [self.ticker, "--every-trade", "--engine", "native", "--format", "json"]
            variants = {"plain": [], "publish": ["--publish", url]}
            runs: dict[str, list] = {"plain": [], "publish": []}
            for _ in range(self.args.runs):
                for name, extra in variants.items():
                    with FeedServe(self.feedserve, "--blast", n, "--verbatim") as server:
                        measured, stderr = run_measured([*base, "--url", server.url, *extra], env=self.ticker_env)
                    if measured.exit != 0:
                        self.fail(f"W8 {name} exited {measured.exit}: {stderr.strip()[-300:]}")
                    runs[name].append(measured.as_dict() | {"stderr_tail": stderr.strip()[-300:]})
                    print(f"bench: W8 {name}: {measured.wall:.3f} s, CPU {measured.user + measured.sys:.2f} s, "
                          f"{measured.maxrss_kb / 1024:.1f} MB", flush=True)
            # Counting pass: stdout must print every message; the subscriber counts what NATS got.
            subscriber = subprocess.Popen(
                [self.python, ROOT / "Tests" / "Support" / "nats_peer.py", "sub", url, "ticker.>"],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
            assert subscriber.stdout.readline().strip() == "READY"
            received = [0]

            def count_messages():
                for line in subscriber.stdout:
                    if line.startswith("MSG "):
                        received[0] += 1

            counter = threading.Thread(target=count_messages, daemon=True)
            counter.start()
            with FeedServe(self.feedserve, "--blast", n, "--verbatim") as server:
                lines, status, stderr = count_lines([*base, "--url", server.url, "--publish", url],
                                                    env=self.ticker_env)
            # The subscriber is slower than the ticker: let it catch up (bounded).
            deadline = time.monotonic() + 60
            last, still = -1, 0
            while time.monotonic() < deadline and received[0] < n and still < 20:
                still = still + 1 if received[0] == last else 0
                last = received[0]
                time.sleep(0.1)
            subscriber.stdin.close()
            subscriber.wait(30)
            if lines != n:
                self.fail(f"W8 --publish printed {lines:,} lines for {n:,} messages (exit {status}) {stderr[-300:]}")
            self.results["W8"] = {"messages": n, "runs": runs,
                                  "count": {"lines": lines, "exit": status, "nats_received": received[0],
                                            "stderr_tail": stderr.strip()[-300:]}}
        finally:
            nats.stop()


class NATSServer:
    """A nats-server on a free loopback port (`-p -1`, read back from its log)."""

    def __init__(self, binary: str):
        self.process = subprocess.Popen([binary, "-a", "127.0.0.1", "-p", "-1"], stdout=subprocess.DEVNULL,
                                        stderr=subprocess.PIPE, text=True)
        self.port = None
        for line in self.process.stderr:
            found = re.search(r"Listening for client connections on 127\.0\.0\.1:(\d+)", line)
            if found:
                self.port = int(found.group(1))
            if "Server is ready" in line:
                break
        if self.port is None:
            self.stop()
            raise RuntimeError("nats-server did not start")
        threading.Thread(target=lambda: self.process.stderr.read(), daemon=True).start()

    @property
    def url(self) -> str:
        return f"nats://127.0.0.1:{self.port}"

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()


def mix_symbols(count: int) -> list[str]:
    """The symbols of feedserve's mixed blast (BlastMix.symbolNames)."""
    pairs = ["BTC", "ETH", "SOL", "BNB", "XRP", "ADA", "DOGE", "AVAX", "DOT", "LINK",
             "LTC", "TRX", "ATOM", "NEAR", "UNI", "ETC", "XLM", "BCH", "FIL", "APT"]
    return [f"BINANCE:{pairs[i]}USDT" if i < len(pairs) else f"BINANCE:SYM{i}USDT" for i in range(count)]


def schedstat_seconds(pid: int) -> float | None:
    """On-CPU time of every live thread of `pid`, from /proc/<pid>/task/*/schedstat (ns)."""
    try:
        total = 0
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/schedstat") as stat:
                total += int(stat.read().split()[0])
        return total / 1e9
    except (FileNotFoundError, ProcessLookupError, ValueError):
        return None


def machine() -> dict:
    model = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo")
                  if line.startswith("model name")), platform.processor())
    swift = subprocess.run(["swift", "--version"], capture_output=True, text=True)
    swift_line = next((line for line in (swift.stdout + swift.stderr).splitlines() if line.strip()), "")
    return {"nproc": os.cpu_count(), "cpu": model, "kernel": platform.release(), "swift": swift_line}


def median_of(runs: list[dict], key: str):
    values = [run[key] for run in runs if run.get(key) is not None]
    return statistics.median(values) if values else None


def run_header(label: str) -> str:
    """The column headings over `run_row`s: `label` (padded by the caller), then the figures'."""
    return f"  {label} {'wall s (min–max)':>22} {'msg/s':>11} {'CPU s':>7} {'peak RSS MB':>12}"


def run_row(label: str, runs: list[dict], count: int) -> str:
    """One table row: `label` (padded by the caller), then the median wall time with its min–max,
    `count` per second at that median, the median CPU time and peak RSS of `runs`."""
    walls = [r["wall_s"] for r in runs]
    wall = median_of(runs, "wall_s")
    return (f"  {label} {wall:>8.3f} ({min(walls):.3f}–{max(walls):.3f}) {count / wall:>11,.0f} "
            f"{median_of(runs, 'cpu_s'):>7.2f} {median_of(runs, 'maxrss_kb') / 1024:>12.1f}")


def paired_rows(key: str, runs: dict, count: int) -> tuple[list[str], float]:
    """One table row per consumer of a websocat/ticker pairing (median wall with min–max, `count`
    per second, CPU, peak RSS), and the ticker/websocat ratio of median walls."""
    rows = [run_row(f"{key} {name:<9}", runs[name], count) for name in ("websocat", "ticker")]
    return rows, median_of(runs["ticker"], "wall_s") / median_of(runs["websocat"], "wall_s")


def verdict(ok: bool | None) -> str:
    return "n/a" if ok is None else ("met" if ok else "NOT met")


def report(results: dict, info: dict, judge: bool = True) -> list[str]:
    """The table and, when `judge`, the targets met or not, as lines."""
    lines = [f"machine: {info['nproc']} cores, {info['cpu']}, Linux {info['kernel']}; {info['swift']}",
             "(server, consumers and this harness share the machine; figures are noisy)", ""]
    targets: list[tuple[str, bool | None]] = []
    if "W1" in results:
        w1 = results["W1"]
        med = {name: {k: median_of(runs, k) for k in ("wall_s", "cpu_s", "maxrss_kb")}
               for name, runs in w1["runs"].items()}
        n = w1["messages"]
        lines.append(f"W1 throughput: {n:,} one-trade messages, median of {len(w1['runs']['ticker'])} run(s)")
        lines.append(f"  {'consumer':<14} {'wall s':>8} {'msg/s':>11} {'CPU s':>7} {'peak RSS MB':>12} "
                     f"{'lines seen':>12}")
        for name, m in med.items():
            lines.append(f"  {name:<14} {m['wall_s']:>8.3f} {n / m['wall_s']:>11,.0f} {m['cpu_s']:>7.2f} "
                         f"{m['maxrss_kb'] / 1024:>12.1f} {w1['count'][name]['lines']:>12,}")
        t, w, p = med["ticker"], med["websocat"], med["python"]
        lines.append(f"  ratios: ticker/websocat wall {t['wall_s'] / w['wall_s']:.2f}×, "
                     f"python/ticker wall {p['wall_s'] / t['wall_s']:.2f}×, "
                     f"ticker/websocat RSS {t['maxrss_kb'] / w['maxrss_kb']:.2f}×")
        targets += [
            (f"W1 ticker wall ≤ 1.5 × websocat's ({t['wall_s'] / w['wall_s']:.2f}×)",
             t["wall_s"] <= 1.5 * w["wall_s"]),
            (f"W1 goal: ticker wall ≤ 1.0 × websocat's ({t['wall_s'] / w['wall_s']:.2f}×)",
             t["wall_s"] <= w["wall_s"]),
            (f"W1 ticker ≥ 6 × faster than Python ({p['wall_s'] / t['wall_s']:.2f}×)",
             p["wall_s"] >= 6 * t["wall_s"]),
            (f"W1 ticker peak RSS ≤ 16 MB ({t['maxrss_kb'] / 1024:.1f} MB)", t["maxrss_kb"] <= 16 * 1024),
        ]
        if "ticker+metrics" in med:
            tm = med["ticker+metrics"]
            lines.append(f"  --metrics: wall {tm['wall_s'] / t['wall_s']:.2f}×, CPU {tm['cpu_s'] / t['cpu_s']:.2f}×, "
                         f"peak RSS {tm['maxrss_kb'] / t['maxrss_kb']:.2f}× the plain ticker's")
            targets.append((f"W1 with --metrics within noise of without: wall ≤ 1.05× ({tm['wall_s'] / t['wall_s']:.2f}×)",
                            tm["wall_s"] <= 1.05 * t["wall_s"]))
        # Issue 11's ≤ 10.5 MB and its goal are judged on the build install.sh installs, the
        # static one (W1T); this one is `swift build -c release`.
    if "W1S" in results:
        w1s = results["W1S"]
        lines += ["", f"W1S W1 over wss:// (a local TLS relay): {w1s['messages']:,} one-trade messages, "
                  f"websocat and ticker alternating ({w1s.get('ticker_lines', 0):,} lines counted)",
                  run_header(f"{'consumer':<9}")]
        rows, _ = paired_rows("", w1s["runs"], w1s["messages"])
        lines += rows
        # Issue 11's memory must over wss:// is judged on the installed (static) build, in W1T:
        # this is `swift build -c release`, which maps the shared Swift runtime and OpenSSL.
        lines.append("  (the dynamically linked build; issue 11's wss:// memory is judged in W1T, on the static one)")
    if "W1T" in results:
        w1t = results["W1T"]
        n = w1t["messages"]
        lines += ["", f"W1T W1 with the static build (Scripts/build-static.sh): {n:,} one-trade messages, "
                  f"alternating; lines counted: ws:// {w1t['count'].get('ws', 0):,}, wss:// "
                  f"{w1t['count'].get('wss', 0):,}",
                  run_header(f"{'consumer':<22}")]
        secure = [("websocat, wss://", w1t.get("wss_websocat", [])), ("ticker static, wss://", w1t["wss"]),
                  ("  stock trust", w1t.get("wss_stock", []))]
        for label, runs in [*w1t["runs"].items(), *secure]:
            if runs:
                lines.append(run_row(f"{label:<22}", runs, n))
        rss = median_of(w1t["runs"]["ticker static"], "maxrss_kb") / 1024
        rss_tls = median_of(w1t["wss"], "maxrss_kb") / 1024
        wall_ratio = median_of(w1t["runs"]["ticker static"], "wall_s") / median_of(w1t["runs"]["websocat"], "wall_s")
        lines.append(f"  ratios: static/websocat wall {wall_ratio:.2f}×, static/default peak RSS "
                     f"{rss / (median_of(w1t['runs']['ticker'], 'maxrss_kb') / 1024):.2f}×")
        targets += [(f"W1T installed (static) ticker peak RSS over ws:// ≤ 10.5 MB, issue 11 ({rss:.1f} MB)",
                     rss <= 10.5),
                    (f"W1T installed (static) ticker peak RSS over wss:// ≤ 10.5 MB, issue 11 ({rss_tls:.1f} MB)",
                     rss_tls <= 10.5),
                    (f"W1T goal: installed (static) ticker peak RSS ≤ websocat's ({rss:.1f} vs "
                     f"{median_of(w1t['runs']['websocat'], 'maxrss_kb') / 1024:.1f} MB)",
                     rss <= median_of(w1t["runs"]["websocat"], "maxrss_kb") / 1024)]
    if "W1Z" in results:
        w1z = results["W1Z"]
        n = w1z["messages"]
        lines += ["", f"W1Z W1 with permessage-deflate (`feedserve --deflate`): {n:,} one-trade messages, median of "
                  f"{len(w1z['runs']['ticker deflate'])} run(s); bytes on the wire counted by a relay (TCP payload, "
                  f"handshake included) in a separate pass",
                  run_header(f"{'consumer, server':<17}") + f" {'server CPU s':>12} {'bytes down':>13} {'bytes up':>9} {'lines':>10}"]
        med = {}
        for label, runs in w1z["runs"].items():
            med[label] = {k: median_of(runs, k) for k in ("wall_s", "cpu_s", "maxrss_kb", "server_cpu_s")}
            m, count = med[label], w1z["count"].get(label, {})
            lines.append(run_row(f"{label:<17}", runs, n) + f" {m['server_cpu_s']:>12.2f} "
                         f"{count.get('bytes_down', 0):>13,} {count.get('bytes_up', 0):>9,} "
                         f"{count.get('lines', 0):>10,}")
        z, plain = med["ticker deflate"], med["ticker plain"]
        zb, pb = (w1z["count"].get(k, {}).get("bytes_down", 0) for k in ("ticker deflate", "ticker plain"))
        lines.append(f"  ratios ticker deflate/plain: wall {z['wall_s'] / plain['wall_s']:.2f}×, "
                     f"CPU {z['cpu_s'] / plain['cpu_s']:.2f}×, RSS {z['maxrss_kb'] / plain['maxrss_kb']:.2f}×, "
                     f"bytes on the wire {zb / pb if pb else float('nan'):.3f}× ({zb:,} of {pb:,}); "
                     f"ticker deflate/websocat wall {z['wall_s'] / med['websocat deflate']['wall_s']:.2f}×")
    if "W6" in results:
        w6 = results["W6"]
        n = w6["messages"]
        lines += ["", f"W6 venue firehoses: {n:,} one-trade messages in the venue's format, "
                  f"websocat and ticker alternating",
                  run_header(f"{'venue':<8} {'consumer':<9}")]
        for venue in ("binance", "upbit"):
            if venue not in w6:
                continue
            rows, ratio = paired_rows(f"{venue:<8}", w6[venue]["runs"], n)
            lines += rows
            lines.append(f"  {venue}: ticker/websocat wall {ratio:.2f}×; ticker lines {w6[venue]['ticker_lines']:,}")
            targets += [(f"W6 {venue} ticker wall ≤ 1.5 × websocat's ({ratio:.2f}×)", ratio <= 1.5),
                        (f"W6 {venue} goal: ticker wall ≤ 1.0 × websocat's ({ratio:.2f}×)", ratio <= 1.0)]
    if "W9" in results:
        w9 = results["W9"]
        lines += ["", "W9 message shapes: websocat and ticker alternating on the same blast (10, 100 and 10,000 "
                  "trades per message with --every-trade; 1,000 symbols with the default debounce)",
                  f"  {'shape':<17} {'consumer':<9} {'wall s (min–max)':>22} {'trades/s':>11} {'CPU s':>7} "
                  f"{'peak RSS MB':>12}"]
        for label, shape in w9.items():
            rows, ratio = paired_rows(f"{label:<17}", shape["runs"], shape["trades"])
            lines += rows
            lines.append(f"  {label}: ticker/websocat wall {ratio:.2f}× ({shape['messages']:,} messages, "
                         f"{shape['trades']:,} trades, median of {len(shape['runs']['ticker'])})")
            if shape.get("message_bytes", 0) >= 100_000 and "10 trades/msg" in w9:
                # Big messages: judged on memory. The base is the same ticker's peak RSS with
                # small messages (the 10 trades/msg shape).
                size = shape["message_bytes"] / 1024 / 1024
                base = median_of(w9["10 trades/msg"]["runs"]["ticker"], "maxrss_kb") / 1024
                peak = median_of(shape["runs"]["ticker"], "maxrss_kb") / 1024
                over = (peak - base) / size
                lines.append(f"  {label}: {shape['message_bytes']:,}-byte messages; ticker peak RSS {peak:.1f} MB "
                             f"= base {base:.1f} MB + {over:.1f} × message")
                targets += [(f"W9 {label}: peak RSS ≤ base + 3 × message ({over:.1f}×)", over <= 3),
                            (f"W9 {label} goal: peak RSS ≤ base + 2 × message ({over:.1f}×)", over <= 2)]
                continue
            targets += [(f"W9 {label}: ticker wall ≤ 1.3 × websocat's ({ratio:.2f}×)", ratio <= 1.3),
                        (f"W9 {label} goal: ticker wall ≤ 1.0 × websocat's ({ratio:.2f}×)", ratio <= 1.0)]
    if "W10" in results:
        w10 = results["W10"]
        lines += ["", "W10 top of book: Binance messages over 1,000 symbols, the default debounce; trades into "
                  "`ticker --provider binance`, book tickers into `ticker --provider binance --bid-ask`",
                  f"  {'shape':<17} {'consumer':<9} {'wall s (min–max)':>22} {'msgs/s':>11} {'CPU s':>7} "
                  f"{'peak RSS MB':>12}"]
        ratios = {}
        for label, shape in w10.items():
            rows, ratios[label] = paired_rows(f"{label:<17}", shape["runs"], shape["messages"])
            lines += rows
            lines.append(f"  {label}: ticker/websocat wall {ratios[label]:.2f}× ({shape['messages']:,} messages, "
                         f"median of {len(shape['runs']['ticker'])})")
        if "trades" in w10 and "book" in w10:
            trade_rss = median_of(w10["trades"]["runs"]["ticker"], "maxrss_kb") / 1024
            book_rss = median_of(w10["book"]["runs"]["ticker"], "maxrss_kb") / 1024
            lines.append(f"  book − trades: ticker peak RSS {book_rss - trade_rss:+.1f} MB "
                         f"({book_rss:.1f} MB against {trade_rss:.1f} MB)")
            targets += [(f"W10 book: ticker wall ≤ 1.3 × websocat's ({ratios['book']:.2f}×)", ratios["book"] <= 1.3),
                        (f"W10 book: ratio within the trades' + 0.1 ({ratios['book']:.2f}× against "
                         f"{ratios['trades']:.2f}×)", ratios["book"] <= ratios["trades"] + 0.1),
                        (f"W10 book: peak RSS within 1 MB of the trades' ({book_rss - trade_rss:+.1f} MB)",
                         book_rss - trade_rss <= 1.0)]
    if "REC" in results:
        rec = results["REC"]
        n = rec["messages"]
        lines += ["", f"REC record and replay: {n:,} one-trade messages, --every-trade, plain and --record "
                  f"alternating, median of {len(rec['runs']['record'])} run(s)",
                  run_header(f"{'run':<9}")]
        for name in ("plain", "record"):
            lines.append(run_row(f"{name:<9}", rec["runs"][name], n))
        ratio = median_of(rec["runs"]["record"], "wall_s") / median_of(rec["runs"]["plain"], "wall_s")
        replay = rec["replay"]
        lines.append(f"  --record/plain wall {ratio:.2f}×; recording {rec['recording']['bytes'] / 1e6:.1f} MB, "
                     f"{rec['recording']['frames']:,} frames")
        lines.append(f"  replay --speed max: {replay['wall_s']:.3f} s = {n / replay['wall_s']:,.0f} msg/s, "
                     f"{replay['cpu_s']:.2f} s CPU, peak RSS {replay['maxrss_kb'] / 1024:.1f} MB; "
                     f"{rec['replay_lines']:,} lines")
        latency = rec["latency"]
        for name in ("plain", "record"):
            lat = latency[name]
            lines.append(f"  latency at 1 message/ms, {name:<6}: p50 {lat['p50_ms']:.3f} ms   p99 {lat['p99_ms']:.3f} ms   "
                         f"max {lat['max_ms']:.3f} ms")
        p99 = (latency["plain"]["p99_ms"], latency["record"]["p99_ms"])
        targets += [(f"REC --record p99 latency at 1 message/ms ≤ plain's + 0.1 ms ({p99[1]:.3f} vs {p99[0]:.3f} ms)",
                     p99[1] <= p99[0] + 0.1),
                    (f"REC goal: --record firehose wall ≤ 1.10 × plain ({ratio:.2f}×)", ratio <= 1.10)]
    if "W2" in results and results["W2"]["p99_ms"] is not None:
        w2 = results["W2"]
        lines += ["", f"W2 latency: {w2['messages']:,} messages at 1/ms, send → ticker stdout line "
                  f"({w2['received']:,} seen)",
                  f"  p50 {w2['p50_ms']:.3f} ms   p99 {w2['p99_ms']:.3f} ms   max {w2['max_ms']:.3f} ms   "
                  f"mean {w2['mean_ms']:.3f} ms"]
        targets.append((f"W2 p99 ≤ 1 ms ({w2['p99_ms']:.3f} ms)", w2["p99_ms"] <= 1.0))
    if "W3" in results:
        w3 = results["W3"]
        steady = w3.get("steady_cpu_percent")
        lines += ["", f"W3 idle: {w3['seconds']} s of one Finnhub ping per second",
                  f"  CPU {w3['cpu_s'] * 1000:.1f} ms in {w3['wall_s']:.1f} s = {w3['cpu_percent']:.3f} % of a core "
                  f"(after start-up: {'n/a' if steady is None else f'{steady:.3f} %'}); "
                  f"peak RSS {w3['maxrss_kb'] / 1024:.1f} MB"]
        targets.append((f"W3 ≤ 0.1 % of a core ({w3['cpu_percent']:.3f} %)", w3["cpu_percent"] <= 0.1))
    if "W4" in results and results["W4"]["median_ms"] is not None:
        w4 = results["W4"]
        runs = w4["runs_ms"]
        lines += ["", f"W4 start: spawn → first price line, {len(runs)} runs",
                  f"  median {w4['median_ms']:.1f} ms   min {min(runs):.1f} ms   max {max(runs):.1f} ms",
                  f"  (`ticker --version` alone: {w4['version_only']['wall_s'] * 1000:.1f} ms, "
                  f"peak RSS {w4['version_only']['maxrss_kb'] / 1024:.1f} MB)"]
        targets.append((f"W4 ≤ 50 ms ({w4['median_ms']:.1f} ms)", w4["median_ms"] <= 50))
    if "W5" in results:
        w5 = results["W5"]
        lines += ["", f"W5 realistic batches: {w5['messages']:,} messages of 1–50 trades over {W5_SYMBOLS} symbols",
                  f"  {'mode':<16} {'wall s':>8} {'CPU s':>7} {'msg/s':>9} {'trades/s':>11} {'peak RSS MB':>12}"]
        for mode, label in (("default", "debounce 0.5 s"), ("debounce0", "--debounce 0")):
            r = w5[mode]
            lines.append(f"  {label:<16} {r['wall_s']:>8.2f} {r['cpu_s']:>7.2f} {r['messages_per_s']:>9,.0f} "
                         f"{r['trades_per_s']:>11,.0f} {r['maxrss_kb'] / 1024:>12.1f}")
        lines.append(f"  ({w5['default']['trades']:,} trades per run; --every-trade counting pass: "
                     f"{w5['count']['lines']:,} lines)")
    if "W7" in results:
        w7 = results["W7"]
        lines += ["", f"W7 serve fan-out: {w7['trades']:,} one-trade messages upstream, every trade to each client",
                  f"  {'clients':>7} {'complete':>9} {'dropped':>8} {'trades/s per client (median, min)':>34} "
                  f"{'serve CPU s':>12} {'serve peak RSS MB':>18}"]
        for clients, run in w7["runs"].items():
            median = run["median_trades_per_s"] or 0
            low = run["min_trades_per_s"] or 0
            lines.append(f"  {clients:>7} {run['complete']:>9} {run['dropped']:>8} {median:>22,.0f} ({low:>9,.0f}) "
                         f"{run['serve']['cpu_s']:>12.2f} {run['serve']['maxrss_kb'] / 1024:>18.1f}")
    if "W8" in results:
        w8 = results["W8"]
        if "skipped" in w8:
            lines += ["", f"W8 --publish: skipped ({w8['skipped']})"]
        else:
            n = w8["messages"]
            lines += ["", f"W8 --publish cost: {n:,} one-trade messages, --every-trade --format json, "
                      f"plain and publishing to a local nats-server, median of {len(w8['runs']['plain'])} run(s)",
                      f"  {'run':<9} {'wall s':>8} {'msg/s':>11} {'CPU s':>7} {'peak RSS MB':>12}"]
            med = {name: {k: median_of(runs, k) for k in ("wall_s", "cpu_s", "maxrss_kb")}
                   for name, runs in w8["runs"].items()}
            for name, m in med.items():
                lines.append(f"  {name:<9} {m['wall_s']:>8.3f} {n / m['wall_s']:>11,.0f} {m['cpu_s']:>7.2f} "
                             f"{m['maxrss_kb'] / 1024:>12.1f}")
            pub, plain = med["publish"], med["plain"]
            count = w8["count"]
            lines.append(f"  ratios publish/plain: wall {pub['wall_s'] / plain['wall_s']:.2f}×, "
                         f"CPU {pub['cpu_s'] / plain['cpu_s']:.2f}×, RSS {pub['maxrss_kb'] / plain['maxrss_kb']:.2f}×; "
                         f"counting pass: {count['lines']:,} lines printed, {count['nats_received']:,} "
                         f"received by a nats-py subscriber")
    if not judge:
        return lines + ["", "smoke run: targets not judged"]
    lines += ["", "targets:"] + [f"  {verdict(ok):<8} {name}" for name, ok in targets]
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--smoke", action="store_true", help="short CI run")
    parser.add_argument("--configuration", default="release")
    parser.add_argument("--only", default="W1,W1S,W1T,W1Z,W2,W3,W4,W5,W6,W7,W8,W9,W10,REC",
                        help="comma-separated workloads")
    parser.add_argument("--messages", type=int,
                        help="W1, W1S, W1T, W1Z, W8, W9 and REC messages (1,000,000; smoke 50,000)")
    parser.add_argument("--runs", type=int, help="W1, W1S, W1T, W1Z, W6, W8, W9 and REC runs per consumer (3; smoke 1)")
    parser.add_argument("--latency-seconds", type=float, help="W2 duration (10; smoke 2)")
    parser.add_argument("--idle-seconds", type=int, help="W3 duration (60; smoke 5)")
    parser.add_argument("--starts", type=int, help="W4 runs (20; smoke 5)")
    parser.add_argument("--batch-messages", type=int, help="W5 messages (200,000; smoke 20,000)")
    parser.add_argument("--venue-messages", type=int, help="W6 messages per venue (500,000; smoke 20,000)")
    parser.add_argument("--fanout-trades", type=int, help="W7 trades upstream (200,000; smoke 20,000)")
    parser.add_argument("--results", type=pathlib.Path,
                        help="directory for bench-<UTC>.json (Benchmarks/results; smoke .build/bench-results)")
    args = parser.parse_args()
    defaults = dict(messages=(1_000_000, 50_000), runs=(3, 1), latency_seconds=(10, 2), idle_seconds=(60, 5),
                    starts=(20, 5), batch_messages=(200_000, 20_000), venue_messages=(500_000, 20_000),
                    fanout_trades=(200_000, 20_000))
    for key, (full, smoke) in defaults.items():
        if getattr(args, key) is None:
            setattr(args, key, smoke if args.smoke else full)

    subprocess.run(["bash", ROOT / "Scripts" / "setup-test-env.sh"], check=True)
    bin_path = build(args.configuration)
    build_launcher(ROOT / ".build" / "bench")
    info = machine()
    bench = Bench(args, bin_path)
    workloads = {"W1": bench.w1, "W2": bench.w2, "W3": bench.w3, "W4": bench.w4, "W5": bench.w5,
                 "W6": bench.w6, "W7": bench.w7, "W8": bench.w8, "W9": bench.w9, "W10": bench.w10, "REC": bench.rec,
                 "W1S": bench.w1s, "W1T": bench.w1t, "W1Z": bench.w1z}
    for name in args.only.split(","):
        try:
            workloads[name.strip()]()
        except Exception as error:  # a broken workload must not hide the others
            bench.fail(f"{name}: {type(error).__name__}: {error}")

    try:
        lines = report(bench.results, info, judge=not args.smoke)
    except Exception as error:  # only after a failed workload left partial results
        lines = [f"(no table: {type(error).__name__}: {error})"]
    print("\n".join(["", *lines]))
    results_dir = args.results or (SMOKE_RESULTS if args.smoke else RESULTS)
    results_dir.mkdir(parents=True, exist_ok=True)
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    path = results_dir.resolve() / f"bench-{stamp}.json"
    path.write_text(json.dumps({
        "when": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "smoke": args.smoke, "configuration": args.configuration, "machine": info,
        "settings": {k: getattr(args, k) for k in defaults}, "results": bench.results,
        "failures": bench.failures, "table": lines}, indent=2) + "\n")
    shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
    print(f"\nbench: raw results in {shown}")
    if bench.failures:
        print("bench: FAILED:\n  " + "\n  ".join(bench.failures))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
