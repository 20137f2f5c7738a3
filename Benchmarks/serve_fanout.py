"""`ticker serve` with many clients: what it costs and whether every client gets every price.

Run on its own (issue 31's measurement; not part of bench.py):

    python3 Benchmarks/serve_fanout.py                      # 1,000 clients, 1,000 prices at 100/s
    python3 Benchmarks/serve_fanout.py --clients 200 --messages 500 --rate 50

A paced upstream (benchlib.PacedServer: one-trade Finnhub messages, each with its own trade time
`t`, the send time of each recorded) feeds `ticker serve`; N raw WebSocket clients in this
process (one selector loop, one thread) subscribe, and the upstream starts once serve has logged
every subscription. Each client counts the prices it gets and notes when each `t` arrived, so the
fan-out latency is upstream send -> client read, over every client and price (p50, p99, max). The
ticker's threads are sampled from /proc during the run (the most seen), and its peak RSS comes from
the rusage launcher. The clients share the machine with serve: on two cores their reading is part
of the latency, the same in every run.

Also the W7 helpers of bench.py: websocat processes, each writing what it receives straight into
a file of its own (trades are counted in the file afterwards: occurrences of `"p":`), a raw client
for the subscribe that lets the upstream's blast go, and serve's stderr read as it comes."""
import argparse
import base64
import json
import os
import re
import selectors
import statistics
import sys
import pathlib
import socket
import subprocess
import tempfile
import threading
import time

MARK = b'"p":'


class WebsocatClient:
    def __init__(self, websocat: pathlib.Path, url: str, path: pathlib.Path, symbol: str):
        self.path = path
        self.output = open(path, "wb")
        self.process = subprocess.Popen([str(websocat), "-t", "--no-close", url], stdin=subprocess.PIPE,
                                        stdout=self.output, stderr=subprocess.DEVNULL)
        self.process.stdin.write(('{"type":"subscribe","symbol":"%s"}\n' % symbol).encode())
        self.process.stdin.flush()

    def size(self) -> int:
        return self.path.stat().st_size

    def finish(self, started: float, trades: int) -> dict:
        """Ends the client and says what it got: trades, and seconds from `started` (wall clock)
        to its file's last write."""
        try:
            self.process.stdin.close()
        except BrokenPipeError:
            pass
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.output.close()
        count = 0
        tail = b""
        with open(self.path, "rb") as data:
            while chunk := data.read(1 << 22):
                joined = tail + chunk
                count += joined.count(MARK)
                tail = joined[-(len(MARK) - 1):]
        seconds = self.path.stat().st_mtime - started if count else None
        return {"trades": count, "seconds": seconds}


def wait_until_quiet(fleet: list, quiet: float, timeout: float) -> None:
    """Waits until no client's file has grown for `quiet` seconds (or `timeout` passed)."""
    limit = time.monotonic() + timeout
    sizes = [-1] * len(fleet)
    still_since = time.monotonic()
    while time.monotonic() < limit:
        now = [client.size() for client in fleet]
        if now != sizes:
            sizes = now
            still_since = time.monotonic()
        elif any(now) and time.monotonic() - still_since >= quiet:
            return
        time.sleep(0.1)


class FanoutClient:
    """A raw WebSocket client that subscribes to one symbol and reads nothing."""

    def __init__(self, port: int, symbol: str):
        self.sock = socket.create_connection(("127.0.0.1", port))
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                           f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise RuntimeError("serve closed during the upgrade")
            head += chunk
        if not head.startswith(b"HTTP/1.1 101"):
            raise RuntimeError(f"upgrade refused: {head.splitlines()[0]!r}")
        payload = ('{"type":"subscribe","symbol":"%s"}' % symbol).encode()
        mask = os.urandom(4)
        self.sock.sendall(bytes([0x81, 0x80 | len(payload)]) + mask
                          + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))


class StderrLog:
    """A child's stderr, collected by a thread; `wait_for` counts lines containing a text."""

    def __init__(self, stream):
        self.lines: list[str] = []
        self.lock = threading.Lock()
        threading.Thread(target=self._read, args=(stream,), daemon=True).start()

    def _read(self, stream) -> None:
        for line in stream:
            with self.lock:
                self.lines.append(line.decode(errors="replace"))

    def text(self) -> str:
        with self.lock:
            return "".join(self.lines)

    def wait_for(self, needle: str, count: int, timeout: float) -> bool:
        limit = time.monotonic() + timeout
        while time.monotonic() < limit:
            if self.text().count(needle) >= count:
                return True
            time.sleep(0.05)
        return False


T_FIELD = re.compile(rb'"t":(\d+)')


class CountingClient:
    """A raw WebSocket client (like FanoutClient) whose reads this process does in one selector
    loop: it counts `"p":` in the stream and notes when each trade time `t` first arrived."""

    def __init__(self, port: int, symbol: str):
        self.sock = FanoutClient(port, symbol).sock
        self.sock.setblocking(False)
        self.prices = 0
        self.arrived: dict[int, float] = {}
        self.tail = b""

    def read(self) -> bool:
        try:
            chunk = self.sock.recv(1 << 16)
        except BlockingIOError:
            return True
        if not chunk:
            return False
        now = time.monotonic()
        data = self.tail + chunk
        self.prices += data.count(MARK) - self.tail.count(MARK)
        for match in T_FIELD.finditer(data):
            self.arrived.setdefault(int(match.group(1)), now)
        self.tail = data[-40:]  # a mark or a time split across two reads
        return True


def threads_of(pid: int) -> int:
    try:
        for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("Threads:"):
                return int(line.split()[1])
    except (FileNotFoundError, ProcessLookupError):
        pass
    return 0


def main() -> int:
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
    import benchlib  # noqa: E402

    root = pathlib.Path(__file__).resolve().parent.parent
    parser = argparse.ArgumentParser(description="ticker serve with many clients")
    parser.add_argument("--clients", type=int, default=1000)
    parser.add_argument("--messages", type=int, default=1000, help="prices the upstream sends")
    parser.add_argument("--rate", type=float, default=100, help="prices a second")
    parser.add_argument("--ticker", type=pathlib.Path, default=root / ".build" / "release" / "ticker")
    parser.add_argument("--json", type=pathlib.Path, help="write the results here as well")
    args = parser.parse_args()
    if not args.ticker.exists():
        print(f"serve_fanout: no {args.ticker} (swift build -c release)", file=sys.stderr)
        return 2
    benchlib.build_launcher(root / ".build" / "bench-tools")
    home = pathlib.Path(tempfile.mkdtemp(prefix="serve-fanout-"))
    env = {k: v for k, v in os.environ.items() if not k.startswith("TICKER_")}
    env.update(FINNHUB_TOKEN="bench-token", XDG_CONFIG_HOME=str(home), HOME=str(home))

    gate = threading.Event()
    upstream = benchlib.PacedServer(args.messages, interval=1 / args.rate, gate=gate)
    upstream.start()
    serve = benchlib.spawn([args.ticker, "serve", "--url", upstream.url, "--port", "0",
                            "--max-clients", str(args.clients + 10), "-v"], env=env, stdout=subprocess.PIPE)
    url = serve.stdout.readline().decode().strip()
    port = int(url.rstrip("/").rsplit(":", 1)[1])
    log = StderrLog(serve.stderr)
    pid = serve.pid
    most_threads = [threads_of(pid)]
    idle_threads = 0
    sampling = threading.Event()

    def sample() -> None:
        while not sampling.is_set():
            most_threads[0] = max(most_threads[0], threads_of(pid))
            time.sleep(0.1)

    threading.Thread(target=sample, daemon=True).start()
    started = time.monotonic()
    clients = [CountingClient(port, "BINANCE:BTCUSDT") for _ in range(args.clients)]
    connect_seconds = time.monotonic() - started
    if not log.wait_for("subscribes BINANCE:BTCUSDT", args.clients, timeout=120):
        print(f"serve_fanout: not every client subscribed: {log.text()[-800:]}", file=sys.stderr)
        return 1
    idle_threads = threads_of(pid)
    selector = selectors.DefaultSelector()
    for client in clients:
        selector.register(client.sock, selectors.EVENT_READ, client)
    gate.set()
    deadline = time.monotonic() + args.messages / args.rate + 60
    open_clients = len(clients)
    while time.monotonic() < deadline and open_clients:
        if all(c.prices >= args.messages for c in clients):
            break
        for key, _ in selector.select(timeout=0.5):
            if not key.data.read():
                selector.unregister(key.fileobj)
                open_clients -= 1
    sampling.set()
    serve.process.send_signal(2)
    measured = serve.wait(30)
    upstream.join(10)
    for client in clients:
        client.sock.close()

    latencies = sorted((arrived - upstream.sent[t]) * 1000 for c in clients for t, arrived in c.arrived.items()
                       if t in upstream.sent)
    complete = sum(1 for c in clients if c.prices >= args.messages)
    dropped = log.text().count("closed by the server: too slow")
    result = {
        "clients": args.clients, "messages": args.messages, "rate": args.rate,
        "complete": complete, "dropped_as_slow": dropped,
        "prices_received": sum(c.prices for c in clients),
        "threads_idle_with_clients": idle_threads, "threads_most": most_threads[0],
        "peak_rss_mb": round(measured.maxrss_kb / 1024, 1), "serve_cpu_s": round(measured.cpu, 2),
        "connect_s": round(connect_seconds, 2),
        "latency_ms": {"p50": benchlib.percentile(latencies, 0.5), "p99": benchlib.percentile(latencies, 0.99),
                       "max": latencies[-1] if latencies else None},
    }
    print(f"serve_fanout: {args.clients:,} clients, {args.messages:,} prices at {args.rate:g}/s")
    print(f"  every price to every client: {complete:,} of {args.clients:,} clients complete, "
          f"{dropped} dropped as too slow, {result['prices_received']:,} prices delivered")
    print(f"  serve threads: {idle_threads} with every client connected, at most {most_threads[0]}")
    print(f"  serve peak RSS {result['peak_rss_mb']} MB, CPU {result['serve_cpu_s']} s; "
          f"{args.clients:,} connections opened in {result['connect_s']} s")
    lat = result["latency_ms"]
    if latencies:
        print(f"  fan-out latency (upstream send -> client read): p50 {lat['p50']:.2f} ms, "
              f"p99 {lat['p99']:.2f} ms, max {lat['max']:.2f} ms")
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n")
    return 0 if complete == args.clients else 1


if __name__ == "__main__":
    sys.exit(main())
