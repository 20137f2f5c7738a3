"""Helpers for bench.py: measured child processes, a feedserve wrapper, and a tiny raw-socket
WebSocket server that owns its send timestamps (W2)."""
import base64
import hashlib
import os
import pathlib
import select
import shutil
import socket
import ssl
import struct
import subprocess
import tempfile
import threading
import time


class Measured:
    """A finished child process: wall time (spawn to exit, time.monotonic), peak RSS (ru_maxrss,
    kB on Linux) and CPU time (user + sys), from the rusage launcher (see rusage.c) or, for
    processes started without it, from os.wait4 (whose ru_maxrss is not the child's own)."""

    def __init__(self, wall: float, exit: int, maxrss_kb: int, user: float, sys: float):
        self.wall = wall
        self.exit = exit
        self.maxrss_kb = maxrss_kb
        self.user = user
        self.sys = sys
        self.cpu = user + sys

    def as_dict(self) -> dict:
        return {"wall_s": round(self.wall, 4), "cpu_s": round(self.cpu, 4), "user_s": round(self.user, 4),
                "sys_s": round(self.sys, 4), "maxrss_kb": self.maxrss_kb, "exit": self.exit}


LAUNCHER: pathlib.Path | None = None  # set by build_launcher()


def build_launcher(directory: pathlib.Path) -> pathlib.Path:
    """Compiles rusage.c (with the C compiler next to swift, or cc)."""
    global LAUNCHER
    directory.mkdir(parents=True, exist_ok=True)
    out = directory / "rusage"
    source = pathlib.Path(__file__).resolve().parent / "rusage.c"
    if not out.exists() or out.stat().st_mtime < source.stat().st_mtime:
        compiler = shutil.which("clang") or shutil.which("cc")
        subprocess.run([compiler, "-O2", "-o", out, source], check=True)
    LAUNCHER = out
    return out


class Child:
    """A started child; with `measured`, run under the rusage launcher."""

    def __init__(self, cmd: list, env: dict | None, stdout, stdin, stderr, measured: bool):
        self.report = None
        if measured:
            handle, name = tempfile.mkstemp(prefix="rusage-")
            os.close(handle)
            self.report = pathlib.Path(name)
            cmd = [LAUNCHER, self.report, *cmd]
        self.started = time.monotonic()
        self.process = subprocess.Popen([str(c) for c in cmd], env=env, stdout=stdout, stdin=stdin, stderr=stderr)
        self.stdout = self.process.stdout
        self.stderr = self.process.stderr

    @property
    def pid(self) -> int | None:
        """The measured command's own pid (the launcher's child), or the process's."""
        if self.report is None:
            return self.process.pid
        try:
            children = pathlib.Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children").read_text()
            return int(children.split()[0]) if children.split() else None
        except (FileNotFoundError, ProcessLookupError):
            return None

    def wait(self, timeout: float) -> Measured:
        """Waits for the child (SIGTERM after `timeout` s, SIGKILL 5 s later) and measures it."""
        timers = [threading.Timer(timeout, self.process.terminate), threading.Timer(timeout + 5, self.process.kill)]
        for timer in timers:
            timer.start()
        try:
            _, status, rusage = os.wait4(self.process.pid, 0)
        finally:
            for timer in timers:
                timer.cancel()
        wall = time.monotonic() - self.started
        self.process.returncode = os.waitstatus_to_exitcode(status)  # keep Popen from reaping it again
        if self.report is not None:
            fields = self.report.read_text().split()
            self.report.unlink()
            if len(fields) == 4:
                return Measured(wall, int(fields[0]), int(fields[1]), float(fields[2]), float(fields[3]))
            return Measured(wall, self.process.returncode, 0, 0.0, 0.0)
        return Measured(wall, self.process.returncode, rusage.ru_maxrss, rusage.ru_utime, rusage.ru_stime)


def spawn(cmd: list, env: dict | None = None, stdout=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
          stderr=subprocess.PIPE, measured: bool = True) -> Child:
    return Child(cmd, env, stdout, stdin, stderr, measured)


def run_measured(cmd: list, env: dict | None = None, timeout: float = 600,
                 piped: bool = False) -> tuple[Measured, str]:
    """Runs `cmd` with stdout to /dev/null, or with `piped` into a pipe this process drains (as
    `cmd | consumer` would); returns its measurements and the tail of stderr."""
    child = spawn(cmd, env=env, stdout=subprocess.PIPE if piped else subprocess.DEVNULL)
    stderr_chunks: list[bytes] = []
    readers = [threading.Thread(target=lambda: stderr_chunks.append(child.stderr.read()), daemon=True)]
    if piped:
        readers.append(threading.Thread(target=lambda: shutil.copyfileobj(child.stdout, open(os.devnull, "wb")),
                                        daemon=True))
    for reader in readers:
        reader.start()
    measured = child.wait(timeout)
    for reader in readers:
        reader.join(5)
    return measured, b"".join(stderr_chunks).decode(errors="replace")[-2000:]


def count_lines(cmd: list, env: dict | None = None, timeout: float = 600) -> tuple[int, int, str]:
    """Runs `cmd` with stdout through a line counter; returns (lines, exit status, stderr tail)."""
    process = subprocess.Popen([str(c) for c in cmd], env=env, stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    stderr_chunks: list[bytes] = []
    reader = threading.Thread(target=lambda: stderr_chunks.append(process.stderr.read()), daemon=True)
    reader.start()
    lines = 0
    timer = threading.Timer(timeout, process.kill)
    timer.start()
    try:
        while chunk := process.stdout.read(1 << 16):
            lines += chunk.count(b"\n")
        process.wait()
    finally:
        timer.cancel()
    reader.join(5)
    return lines, process.returncode, b"".join(stderr_chunks).decode(errors="replace")[-2000:]


class FeedServe:
    """`feedserve` as a context manager: started, its PORT (and TRADES) line read, killed at the
    end (its own rusage kept in `measured`)."""

    def __init__(self, binary: pathlib.Path, *args):
        self.cmd = [binary, *args]
        self.trades: int | None = None
        self.measured: Measured | None = None

    def __enter__(self) -> "FeedServe":
        self.child = spawn(self.cmd, stdout=subprocess.PIPE, stderr=None, measured=False)
        self.process = self.child.process
        first = self.process.stdout.readline().split()
        if len(first) != 2 or first[0] != b"PORT":
            raise RuntimeError(f"feedserve did not start: {self.cmd}")
        self.port = int(first[1])
        if "--trades" in self.cmd or "--symbols" in self.cmd:
            self.trades = int(self.process.stdout.readline().split()[1])
        return self

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/"

    def __exit__(self, *exc) -> None:
        self.process.kill()
        self.measured = self.child.wait(10)  # CPU time only: its ru_maxrss includes ours


# MARK: relays on loopback (W1S, W1Z)


class LoopbackRelay:
    """A listener on a free loopback port in front of `upstream_port` (a `feedserve`): each
    accepted connection goes to `_serve` on a thread of its own. Subclasses relay the bytes."""

    def __init__(self, upstream_port: int):
        self.upstream_port = upstream_port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(client,), daemon=True).start()

    def _serve(self, client: socket.socket) -> None:
        raise NotImplementedError

    def close(self) -> None:
        self.listener.close()


class TLSRelay(LoopbackRelay):
    """A TLS server on loopback in front of a plain TCP port (a `feedserve`): each connection is
    terminated here with a certificate for localhost and 127.0.0.1 from a throwaway CA made with
    the `openssl` command, and relayed byte for byte both ways. So the consumers speak wss:// to a
    local server; only their memory and CPU are judged (Python's TLS sets the pace)."""

    def __init__(self, upstream_port: int, directory: pathlib.Path):
        self.directory = directory
        self.ca_file = directory / "ca.pem"
        if not self.ca_file.exists():
            self._make_certificates()
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(directory / "server.pem", directory / "server.key")
        self.context = context
        super().__init__(upstream_port)

    def _make_certificates(self) -> None:
        d = self.directory
        key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        run = lambda args: subprocess.run(["openssl", *args], check=True, capture_output=True)  # noqa: E731
        run(["req", "-x509", *key, "-keyout", d / "ca.key", "-out", d / "ca.pem", "-days", "2",
             "-subj", "/CN=ticker bench CA", "-addext", "basicConstraints=critical,CA:TRUE",
             "-addext", "keyUsage=critical,keyCertSign,cRLSign"])
        run(["req", "-new", *key, "-keyout", d / "server.key", "-out", d / "server.csr", "-subj", "/CN=localhost"])
        (d / "server.ext").write_text("subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\n"
                                      "keyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\n")
        run(["x509", "-req", "-in", d / "server.csr", "-CA", d / "ca.pem", "-CAkey", d / "ca.key",
             "-CAcreateserial", "-out", d / "server.pem", "-days", "2", "-extfile", d / "server.ext"])

    @property
    def url(self) -> str:
        return f"wss://localhost:{self.port}/"

    def _serve(self, client: socket.socket) -> None:
        try:
            secure = self.context.wrap_socket(client, server_side=True)
            upstream = socket.create_connection(("127.0.0.1", self.upstream_port))
        except (OSError, ssl.SSLError):
            client.close()
            return

        # One thread per connection (an SSL object must not be read and written from two threads).
        try:
            while True:
                readable = [secure] if secure.pending() else select.select([secure, upstream], [], [])[0]
                if upstream in readable:
                    data = upstream.recv(1 << 18)
                    if not data:
                        break
                    secure.sendall(data)
                if secure in readable:
                    data = secure.recv(1 << 16)
                    if not data:
                        break
                    upstream.sendall(data)
        except (OSError, ssl.SSLError):
            pass
        for end in (secure, upstream):
            try:
                end.close()
            except OSError:
                pass


class CountingRelay(LoopbackRelay):
    """A plain TCP relay on loopback in front of a port (a `feedserve`) that counts the bytes it
    carries each way: what crossed the wire as TCP payload (the HTTP upgrade, the frames, the
    close handshake), measured, not estimated. It adds a hop and a Python copy, so it is for a
    separate counting pass; the timed runs connect directly. Each connection is relayed by two
    threads (one per direction); an end of stream is passed on as a half close."""

    def __init__(self, upstream_port: int):
        self.down = 0  # server → client
        self.up = 0  # client → server
        self.connections = 0
        self.lock = threading.Lock()
        self.pumps: list[threading.Thread] = []
        self.sockets: list[socket.socket] = []
        super().__init__(upstream_port)

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/"

    def _serve(self, client: socket.socket) -> None:
        try:
            upstream = socket.create_connection(("127.0.0.1", self.upstream_port))
        except OSError:
            client.close()
            return
        with self.lock:
            self.connections += 1
            self.sockets += [client, upstream]
        for sockets in ((upstream, client, "down"), (client, upstream, "up")):
            pump = threading.Thread(target=self._pump, args=sockets, daemon=True)
            self.pumps.append(pump)
            pump.start()

    def _pump(self, source: socket.socket, sink: socket.socket, direction: str) -> None:
        try:
            while data := source.recv(1 << 18):
                sink.sendall(data)
                with self.lock:
                    setattr(self, direction, getattr(self, direction) + len(data))
            sink.shutdown(socket.SHUT_WR)
        except OSError:  # a reset: the other direction's pump must not wait for ever
            for end in (source, sink):
                try:
                    end.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def close(self, timeout: float = 10) -> None:
        """Stops accepting, waits for every connection's bytes to be counted, closes them."""
        self.listener.close()
        for pump in list(self.pumps):
            pump.join(timeout)
        for end in self.sockets:
            end.close()


# MARK: a paced raw WebSocket server (W2)

GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


class PacedServer:
    """Accepts one WebSocket client on loopback, then sends `count` one-trade Finnhub messages,
    one every `interval` seconds, each with a unique trade time `t` = first_t + i, recording
    time.monotonic() just before each send; then closes with 1000. Client frames are read: pings
    are answered (the ticker pings every 30 s and gives up after 10 s without a pong, so a run
    longer than 40 s needs it), the rest ignored (the ticker's subscribe)."""

    first_t = 1_768_655_932_976

    def __init__(self, count: int, interval: float = 0.001, gate: threading.Event | None = None):
        self.count = count
        self.interval = interval
        self.gate = gate  # when given, the first message waits for it (after the handshake)
        self.sent: dict[int, float] = {}
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.error: BaseException | None = None
        self.sending = threading.Lock()  # the pongs and the trades share the socket

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/"

    def start(self) -> None:
        self.thread.start()

    def join(self, timeout: float) -> None:
        self.thread.join(timeout)
        self.listener.close()

    def _serve(self) -> None:
        try:
            self.listener.settimeout(30)
            conn, _ = self.listener.accept()
            with conn:
                conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                self._handshake(conn)
                threading.Thread(target=self._drain, args=(conn,), daemon=True).start()
                if self.gate is not None:
                    self.gate.wait()
                start = time.monotonic()
                for i in range(self.count):
                    due = start + i * self.interval
                    delay = due - time.monotonic()
                    if delay > 0:
                        time.sleep(delay)
                    t = self.first_t + i
                    cents = 9_500_000 + (i * 7919) % 20_000
                    body = (f'{{"data":[{{"c":null,"p":{cents // 100}.{cents % 100:02d},'
                            f'"s":"BINANCE:BTCUSDT","t":{t},"v":0.00063}}],"type":"trade"}}').encode()
                    frame = self._frame(0x1, body)
                    with self.sending:
                        self.sent[t] = time.monotonic()
                        conn.sendall(frame)
                with self.sending:
                    conn.sendall(self._frame(0x8, struct.pack("!H", 1000) + b"done"))
                time.sleep(0.5)  # let the client answer the close and go
        except BaseException as error:  # reported by the caller
            self.error = error

    @staticmethod
    def _frame(opcode: int, payload: bytes) -> bytes:
        n = len(payload)
        if n < 126:
            head = struct.pack("!BB", 0x80 | opcode, n)
        elif n < 65536:
            head = struct.pack("!BBH", 0x80 | opcode, 126, n)
        else:
            head = struct.pack("!BBQ", 0x80 | opcode, 127, n)
        return head + payload

    @staticmethod
    def _handshake(conn: socket.socket) -> None:
        request = b""
        while b"\r\n\r\n" not in request:
            chunk = conn.recv(4096)
            if not chunk:
                raise RuntimeError("client went away during the handshake")
            request += chunk
        key = next(line.split(b":", 1)[1].strip() for line in request.split(b"\r\n")
                   if line.lower().startswith(b"sec-websocket-key:"))
        accept = base64.b64encode(hashlib.sha1(key + GUID).digest())
        conn.sendall(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                     b"Sec-WebSocket-Accept: " + accept + b"\r\n\r\n")

    def _drain(self, conn: socket.socket) -> None:
        """Reads the client's (masked) frames and answers each ping with its pong."""
        data = b""
        try:
            while chunk := conn.recv(4096):
                data += chunk
                while len(data) >= 2:
                    opcode, length, at = data[0] & 0x0F, data[1] & 0x7F, 2
                    if length == 126:
                        length, at = struct.unpack("!H", data[2:4])[0] if len(data) >= 4 else -1, 4
                    elif length == 127:
                        length, at = struct.unpack("!Q", data[2:10])[0] if len(data) >= 10 else -1, 10
                    if length < 0 or len(data) < at + 4 + length:
                        break
                    mask, payload = data[at:at + 4], data[at + 4:at + 4 + length]
                    data = data[at + 4 + length:]
                    if opcode == 0x9:
                        unmasked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
                        with self.sending:
                            conn.sendall(self._frame(0xA, unmasked))
        except OSError:
            pass


def percentile(sorted_values: list, fraction: float):
    """Nearest-rank percentile of an ascending list."""
    if not sorted_values:
        return None
    rank = max(1, int(-(-fraction * len(sorted_values) // 1)))
    return sorted_values[min(rank, len(sorted_values)) - 1]
