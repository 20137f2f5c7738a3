"""The `ticker serve` fan-out benchmark's clients (W7): websocat processes, each writing what it
receives to a file of its own through a thread here that notes when the first and last bytes came
(trades are counted in the bytes afterwards: occurrences of `"p":`), a raw client for the
subscribe that lets the upstream's blast go, and serve's stderr read as it comes."""
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
        self.process = subprocess.Popen([str(websocat), "-t", "--no-close", url], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.process.stdin.write(('{"type":"subscribe","symbol":"%s"}\n' % symbol).encode())
        self.process.stdin.flush()
        self.first: float | None = None
        self.last: float | None = None
        self.trades = 0
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        tail = b""
        with open(self.path, "wb") as out:
            while True:
                chunk = self.process.stdout.read1(1 << 20)
                if not chunk:
                    return
                now = time.monotonic()
                if self.first is None:
                    self.first = now
                self.last = now
                data = tail + chunk
                self.trades += data.count(MARK)
                tail = data[-(len(MARK) - 1):]
                out.write(chunk)

    def finish(self) -> dict:
        """Ends the client (serve has closed it, or is gone) and says what it got."""
        try:
            self.process.stdin.close()
        except BrokenPipeError:
            pass
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.reader.join(10)
        span = (self.last - self.first) if self.first is not None and self.last is not None else None
        return {"trades": self.trades, "seconds": span}


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
