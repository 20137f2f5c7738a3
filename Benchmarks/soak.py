#!/usr/bin/env python3
"""Soak benchmark: push N messages through the release `ticker` binary over loopback, with a
forced reconnect every M messages, and watch its memory.

    python3 Benchmarks/soak.py                       # 1,000,000 messages, reconnect every 100,000
    python3 Benchmarks/soak.py --messages 50000 --per-connection 10000   # CI smoke

The server is `feedserve --blast` (FeedServer: pre-framed one-trade Finnhub messages, written as
fast as the socket takes them; each connection ends with close 1012 so the ticker reconnects and
resubscribes). The ticker runs with --every-trade, so every message becomes a stdout line; this
script counts the lines (every message must arrive exactly once) and samples the ticker's RSS
from /proc/<pid>/status every 50 ms against the number of lines so far.

With --hostile (on by default; --no-hostile turns it off) every 1000 messages also carry a ping,
a trade for an unsubscribed symbol full of terminal controls, an error text full of them, and a
binary frame of garbage: the ticker must answer the pings, print none of that, and still print
every real message once; no control byte but TAB and newline may reach stdout, and none but
newline stderr.

Reported: wall time, messages/s, reconnects, peak RSS (VmHWM), RSS after warm-up (once 20 % of
the messages are through) and at the end, and the growth between the two, which must stay under
1 MB. Raw results go to Benchmarks/results/soak-<UTC time>.json. Exit status 1 if a message was
lost or doubled, or the growth target is missed (never because of a timing).
"""
import argparse
import datetime
import json
import os
import pathlib
import subprocess
import sys
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
RESULTS = ROOT / "Benchmarks" / "results"


def build(configuration: str) -> pathlib.Path:
    subprocess.run(
        ["swift", "build", "-c", configuration, "--product", "ticker"], cwd=ROOT, check=True)
    subprocess.run(
        ["swift", "build", "-c", configuration, "--product", "feedserve"], cwd=ROOT, check=True)
    out = subprocess.run(
        ["swift", "build", "-c", configuration, "--show-bin-path"], cwd=ROOT, check=True,
        capture_output=True, text=True)
    return pathlib.Path(out.stdout.strip())


def rss_kb(pid: int, field: str = "VmRSS") -> int | None:
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except (FileNotFoundError, ProcessLookupError):
        return None
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--messages", type=int, default=1_000_000)
    parser.add_argument("--per-connection", type=int, default=100_000)
    parser.add_argument("--configuration", default="release")
    parser.add_argument("--growth-limit-kb", type=int, default=1024)
    parser.add_argument("--hostile", action=argparse.BooleanOptionalAction, default=True)
    args = parser.parse_args()

    bin_path = build(args.configuration)
    server = subprocess.Popen(
        [bin_path / "feedserve", "--blast", str(args.messages), "--per-connection", str(args.per_connection)]
        + (["--hostile"] if args.hostile else []),
        stdout=subprocess.PIPE, text=True)
    try:
        port = int(server.stdout.readline().split()[1])
        env = {k: v for k, v in os.environ.items() if not k.startswith("TICKER_")}
        env["FINNHUB_TOKEN"] = "soak-benchmark-token"
        started = time.monotonic()
        ticker = subprocess.Popen(
            [bin_path / "ticker", "--url", f"ws://127.0.0.1:{port}/", "--every-trade",
             "--max-backoff", "0.5"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)

        lines = 0
        samples: list[tuple[float, int, int]] = []  # (seconds, lines so far, rss kB)
        peak = [0]
        done = threading.Event()

        def sample() -> None:
            while not done.is_set():
                rss = rss_kb(ticker.pid)
                hwm = rss_kb(ticker.pid, "VmHWM")
                if rss is not None:
                    samples.append((time.monotonic() - started, lines, rss))
                if hwm is not None:
                    peak[0] = max(peak[0], hwm)
                done.wait(0.05)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        last_line = b""
        prices_in_order = True
        controls_on_stdout = 0
        for line in ticker.stdout:
            lines += 1
            last_line = line
            controls_on_stdout += sum(1 for b in line if (b < 0x20 and b not in (0x09, 0x0A)) or b == 0x7F)
        ticker.wait(timeout=600)
        elapsed = time.monotonic() - started
        done.set()
        sampler.join()
        stderr = ticker.stderr.read().decode()
    finally:
        server.kill()
        server.wait()

    reconnects = stderr.count("reconnected (attempt")
    controls_on_stderr = sum(1 for c in stderr if (ord(c) < 0x20 and c != "\n") or 0x7F <= ord(c) <= 0x9F)
    warm = [s for s in samples if s[1] >= args.messages * 0.2]
    after_warmup = warm[0][2] if warm else None
    final = samples[-1][2] if samples else None
    growth = (final - after_warmup) if (final is not None and after_warmup is not None) else None
    expected_reconnects = (args.messages + args.per_connection - 1) // args.per_connection - 1

    result = {
        "when": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "messages": args.messages,
        "per_connection": args.per_connection,
        "lines": lines,
        "hostile": args.hostile,
        "control_bytes_on_stdout": controls_on_stdout,
        "control_characters_on_stderr": controls_on_stderr,
        "exit_status": ticker.returncode,
        "reconnects": reconnects,
        "expected_reconnects": expected_reconnects,
        "seconds": round(elapsed, 3),
        "messages_per_second": round(lines / elapsed) if elapsed else None,
        "peak_rss_kb": peak[0],
        "rss_after_warmup_kb": after_warmup,
        "rss_final_kb": final,
        "rss_growth_kb": growth,
        "samples": samples[:: max(1, len(samples) // 200)],
        "stderr": stderr[-2000:],
    }
    RESULTS.mkdir(parents=True, exist_ok=True)
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    (RESULTS / f"soak-{stamp}.json").write_text(json.dumps(result, indent=2) + "\n")

    ok_count = lines == args.messages
    ok_growth = growth is not None and growth < args.growth_limit_kb
    print(f"soak: {lines:,} of {args.messages:,} messages in {elapsed:.2f} s "
          f"({result['messages_per_second']:,}/s), {reconnects} reconnects (expected {expected_reconnects}), "
          f"exit {ticker.returncode}")
    print(f"soak: peak RSS {peak[0] / 1024:.1f} MB; RSS after warm-up {after_warmup} kB, at the end {final} kB, "
          f"growth {growth} kB (target < {args.growth_limit_kb} kB: {'met' if ok_growth else 'NOT met'})")
    print(f"soak: every message once: {'yes' if ok_count else 'NO'}")
    ok_clean = controls_on_stdout == 0 and controls_on_stderr == 0
    if args.hostile:
        print(f"soak: hostile frames mixed in; control characters on stdout {controls_on_stdout}, "
              f"on stderr {controls_on_stderr}: {'none' if ok_clean else 'FOUND'}")
    return 0 if ok_count and ok_growth and ok_clean and ticker.returncode == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
