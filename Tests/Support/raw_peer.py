#!/usr/bin/env python3
"""A raw RFC 6455 server for the native engine's conformance tests (standard library only).

Python `websockets` cannot send malformed frames, so this server does everything by hand: the
HTTP upgrade (Sec-WebSocket-Accept from hashlib/base64), unmasked server frames written byte for
byte (possibly malformed), and parsing of the client's frames (checking that each one is masked).

Usage: raw_peer.py [--host 127.0.0.1]
Prints "PORT <n>" once listening, then serves any number of connections (one thread each) until
stdin closes. The request target names the case: /case/<id>?run=<n>. The server plays the case
(see CASES and the parameterised families in `script_for`), then reads the client's frames until
the client closes TCP: it answers the client's pings with pongs and its close frame with a close
frame echoing the code. After each connection it prints one JSON line:

  {"case": "2.1", "run": 3, "frames": [{"opcode": 10, "fin": true, "rsv": 0, "masked": true,
   "key": "1a2b3c4d", "len7": 0, "length": 0, "payload_hex": "", "sha1": "..."}],
   "close_code": 1000, "close_reason": "", "close_payload_hex": "03e8", "tcp_closed": true,
   "errors": [], "offered": "permessage-deflate; client_max_window_bits"}

`closed_before_rest` (only for cases with an "await_close" step) is true when the client's close
frame arrived before the rest of the case was sent. `close_code` is null when the client sent no close frame or an empty one (`close_payload_hex`
tells them apart: null or ""). `tcp_closed` is false when the client did not close the TCP
connection within the hang guard (60 s). `errors` lists protocol errors the client made (an
unmasked frame, a bad handshake request). `payload_hex` is left out for payloads over 1 KiB.
"""
import base64
import hashlib
import json
import socket
import struct
import sys
import threading
import urllib.parse
import zlib

GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
HANG_GUARD = 60.0
TEXT, BINARY, CLOSE, PING, PONG, CONT = 1, 2, 8, 9, 10, 0
MIB = 1 << 20


def frame(opcode, payload=b"", fin=True, rsv=0):
    """An unmasked (server) frame with the minimal length encoding."""
    first = (0x80 if fin else 0) | (rsv << 4) | opcode
    n = len(payload)
    if n < 126:
        head = struct.pack("!BB", first, n)
    elif n < 65536:
        head = struct.pack("!BBH", first, 126, n)
    else:
        head = struct.pack("!BBQ", first, 127, n)
    return head + payload


def close(code=None, reason=b""):
    return frame(CLOSE, b"" if code is None else struct.pack("!H", code) + reason)


def text_payload(n):
    """n ASCII bytes: "abc…z" repeated (the Swift tests build the same)."""
    return bytes(97 + i % 26 for i in range(n))


def binary_payload(n):
    """n bytes, byte i = i % 251 (the Swift tests build the same)."""
    return bytes(i % 251 for i in range(n))


DONE = close(1000, b"done")
HELLO = frame(TEXT, b"hello")
KOSME = "κόσμε".encode()
# One text frame whose payload turns invalid in the middle (F4 90 is above U+10FFFF).
INVALID_MIDDLE = frame(TEXT, KOSME + b"\xf4\x90\x80\x80" + b"edited")


def deflated(data, compressor=None):
    """`data` as a permessage-deflate sender compresses a message (raw DEFLATE, sync flush, the
    trailing 00 00 ff ff removed), with a fresh compressor unless one is given."""
    c = compressor or zlib.compressobj(wbits=-15)
    out = c.compress(data) + c.flush(zlib.Z_SYNC_FLUSH)
    assert out.endswith(b"\x00\x00\xff\xff")
    return out[:-4]


# RFC 7692 §7.2.3.1 and §7.2.3.2: "Hello", and "Hello" again referring to the first.
HELLO_Z = bytes.fromhex("f248cdc9c90700")
HELLO_Z_AGAIN = bytes.fromhex("f200110000")
RSV1 = 4
# 12 Compression (permessage-deflate, RFC 7692): the Sec-WebSocket-Extensions answer of each case
# (the request must have offered it); cases not listed answer without the header.
EXTENSION_ANSWERS = {
    "12.1": "permessage-deflate",
    "12.2": "permessage-deflate; server_no_context_takeover",
    "12.3": "permessage-deflate; server_max_window_bits=10",
    "12.4": "permessage-deflate",
    "12.5": "permessage-deflate",
    "12.6": "permessage-deflate",
    "12.7": "permessage-deflate",
    "12.8": "permessage-deflate",
    "12.10": "permessage-deflate; server_max_window_bits=16",
    "12.11": "permessage-deflate; client_max_window_bits",
    "12.12": "permessage-deflate, permessage-deflate",
    "12.13": "x-webkit-deflate-frame",
    "12.14": 'permessage-deflate; server_max_window_bits="12"; unknown',
}


def fragments(opcode, parts):
    """One message as consecutive frames: the first carries `opcode`, the last has FIN."""
    out = b""
    for i, part in enumerate(parts):
        out += frame(opcode if i == 0 else CONT, part, fin=i == len(parts) - 1)
    return out


# Each script is a list of steps: bytes to send in one write, ("bytewise", bytes) to send one
# byte per write, or ("hangup",) to close the TCP connection at once without reading further.
CASES = {
    # 1 Framing
    "1.3.1": [frame(TEXT, b"one") + frame(BINARY, b"\x01\x02\x03") + frame(TEXT, b"three")
              + frame(BINARY) + frame(TEXT, text_payload(300)) + DONE],
    "1.3.2": [("bytewise", frame(TEXT, text_payload(200))), DONE],
    "1.3.3": [("bytewise", fragments(TEXT, [b"Hello, ", b"byte by ", b"byte"]) + frame(PING, b"p")),
              DONE],
    # 12 Compression
    "12.1": [frame(TEXT, HELLO_Z, rsv=RSV1) + frame(TEXT, HELLO_Z_AGAIN, rsv=RSV1) + frame(TEXT, b"plain")
             + DONE],
    "12.2": [frame(TEXT, HELLO_Z, rsv=RSV1) + frame(BINARY, HELLO_Z, rsv=RSV1) + DONE],
    "12.3": [frame(TEXT, deflated(text_payload(300_000), zlib.compressobj(wbits=-10)), rsv=RSV1) + DONE],
    "12.4": [frame(TEXT, HELLO_Z[:3], fin=False, rsv=RSV1) + frame(PING, b"between")
             + frame(CONT, HELLO_Z[3:]) + DONE],
    "12.5": [frame(TEXT, HELLO_Z[:3], fin=False, rsv=RSV1) + frame(CONT, HELLO_Z[3:], rsv=RSV1) + DONE],
    "12.6": [frame(PING, b"p", rsv=RSV1) + DONE],
    "12.7": [frame(TEXT, b"\xff\xff\xff\xff", rsv=RSV1) + DONE],
    "12.8": [frame(BINARY, deflated(bytes(2 << 20)), rsv=RSV1) + DONE],
    "12.10": [], "12.11": [], "12.12": [], "12.13": [], "12.14": [],
    # 2 Pings and pongs
    "2.1": [frame(PING) + DONE],
    "2.2": [frame(PING, b"Hello, world!") + DONE],
    "2.3": [frame(PING, bytes([0x00, 0xFF, 0xFE, 0xFD, 0xFC, 0xFB, 0x00, 0xFF])) + DONE],
    "2.4": [frame(PING, binary_payload(125)) + DONE],
    "2.5": [frame(PING, binary_payload(126)) + DONE],
    "2.6": [("bytewise", frame(PING, binary_payload(125))), DONE],
    "2.7": [frame(PONG) + frame(TEXT, b"after pong") + DONE],
    "2.8": [frame(PONG, b"unsolicited") + frame(TEXT, b"after pong") + DONE],
    "2.9": [b"".join(frame(PING, b"ping %d" % i) for i in range(10)) + DONE],
    # 5 Fragmentation
    "5.1": [fragments(TEXT, [b"Hello, ", b"world"]) + DONE],
    "5.2": [fragments(TEXT, [bytes([c]) for c in b"fragmented into many pieces"]) + DONE],
    "5.3": [fragments(BINARY, [b"\x00\x01", b"\x02\x03\xff"]) + DONE],
    "5.4": [frame(TEXT, b"Hello, ", fin=False) + frame(PING, b"in between")
            + frame(CONT, b"world") + DONE],
    "5.5": [frame(TEXT, b"a", fin=False) + frame(PING, b"one") + frame(CONT, b"b", fin=False)
            + frame(PONG, b"unsolicited") + frame(PING, b"two") + frame(CONT, b"c") + DONE],
    "5.6": [fragments(TEXT, [b"", b"Hello"]) + DONE],
    "5.7": [fragments(TEXT, [b"Hel", b"", b"lo"]) + DONE],
    "5.8": [fragments(TEXT, [b"Hello", b""]) + DONE],
    "5.9": [fragments(TEXT, [b"", b"", b""]) + DONE],
    "5.10": [frame(CONT, b"orphan") + DONE],
    "5.11": [frame(CONT, b"orphan", fin=False) + frame(CONT, b"more") + DONE],
    "5.12": [frame(TEXT, b"open", fin=False) + frame(TEXT, b"again") + DONE],
    "5.13": [frame(TEXT, b"open", fin=False) + frame(BINARY, b"again") + DONE],
    "5.14": [frame(PING, b"ping1", fin=False) + frame(CONT, b"ping2") + DONE],
    "5.15": [frame(PONG, b"pong1", fin=False) + frame(CONT, b"pong2") + DONE],
    "5.16": [frame(CLOSE, struct.pack("!H", 1000), fin=False) + frame(CONT, b"bye") + DONE],
    # 6 UTF-8, valid; a character split between fragments is valid too
    "6.1.1": [frame(TEXT, KOSME) + DONE],
    "6.1.2": [frame(TEXT, "\U0010FFFF".encode()) + DONE],
    "6.1.3": [frame(TEXT, "€ ü 𝄞 Hello-µ@ßöäüàá-UTF-8!!".encode()) + DONE],
    "6.1.4": [frame(TEXT, "\uFFFF\uFDD0\uFFFE".encode()) + DONE],
    "6.2.1": [fragments(TEXT, [KOSME[:3], KOSME[3:]]) + DONE],
    "6.2.2": [fragments(TEXT, [bytes([b]) for b in "𝄞".encode()]) + DONE],
    "6.2.3": [fragments(TEXT, [bytes([b]) for b in KOSME]) + DONE],
    # 6 UTF-8, invalid
    "6.3.1": [frame(TEXT, b"\x80") + DONE],
    "6.3.2": [frame(TEXT, b"\xc0\x80") + DONE],
    "6.3.3": [frame(TEXT, b"\xed\xa0\x80") + DONE],
    "6.3.4": [frame(TEXT, b"\xf5\x80\x80\x80") + DONE],
    "6.3.5": [frame(TEXT, b"\xff") + DONE],
    "6.3.6": [frame(TEXT, KOSME[:-1]) + DONE],
    "6.3.7": [frame(TEXT, b"\xe0\x80\xaf") + DONE],
    "6.3.8": [frame(TEXT, b"\xf4\x90\x80\x80") + DONE],
    "6.3.9": [frame(TEXT, KOSME + b"\xed\xa0\x80" + b"edited") + DONE],
    "6.4.1": [fragments(TEXT, [KOSME, b"\xf4\x90\x80\x80", b"edited"]) + DONE],
    "6.4.2": [fragments(TEXT, [b"ab\xed", b"\xa0\x80cd"]) + DONE],
    "6.4.3": [fragments(TEXT, [KOSME, b"\xce"]) + DONE],
    # 6 UTF-8, strict: the client must fail at the offending fragment or chop, before the rest is
    # sent ("await_close" waits for its close frame; the rest follows only after that).
    "6.4.1.strict": [frame(TEXT, KOSME, fin=False), frame(CONT, b"\xf4\x90\x80\x80", fin=False),
                     ("await_close",), frame(CONT, b"edited") + DONE],
    "6.4.2.strict": [frame(TEXT, b"ab\xed", fin=False), frame(CONT, b"\xa0\x80cd", fin=False),
                     ("await_close",), frame(CONT, b"ef") + DONE],
    "6.4.3.strict": [INVALID_MIDDLE[:2 + len(KOSME)], INVALID_MIDDLE[2 + len(KOSME):2 + len(KOSME) + 4],
                     ("await_close",), INVALID_MIDDLE[2 + len(KOSME) + 4:] + DONE],
    "6.4.4.strict": [INVALID_MIDDLE[:2 + len(KOSME) + 1], INVALID_MIDDLE[2 + len(KOSME) + 1:2 + len(KOSME) + 2],
                     ("await_close",), INVALID_MIDDLE[2 + len(KOSME) + 2:] + DONE],
    # Delivered before the violation: an echoing client answers "fragment" before closing (5.15).
    "6.3.9.echo": [frame(TEXT, b"before") + frame(TEXT, KOSME + b"\xed\xa0\x80" + b"edited") + DONE],
    "5.15.echo": [fragments(TEXT, [b"frag", b"ment"]) + frame(CONT, b"nothing", fin=False)
                  + frame(TEXT, b"after") + DONE],
    # 7 Close
    "7.1.1": [close()],
    "7.1.2": [close(1000, b"bye")],
    "7.1.3": [close(1000, b"r" * 123)],
    "7.1.4": [frame(CLOSE, b"\x03")],
    "7.1.5": [close(1000, b"r" * 124)],
    "7.1.6": [close(1000, b"bad \xed\xa0\x80 reason")],
    "7.1.7": [close(1000, b"first") + frame(TEXT, b"ignored") + frame(PING, b"ignored")
              + close(1001, b"second")],
    "7.1.8": [frame(TEXT, b"last words") + close(1000, b"hanging up"), ("hangup",)],
    "7.1.9": [frame(TEXT, b"before close") + close(1001, "κόσμε".encode())],
    # 8 Message size limit (the client connects with maximumMessageSize 1024)
    "8.1": [frame(BINARY, binary_payload(2000)) + DONE],
    "8.2": [fragments(BINARY, [binary_payload(800)] * 3) + DONE],
    "8.3": [frame(TEXT, text_payload(1024)) + fragments(BINARY, [binary_payload(512)] * 2) + DONE],
    # 9 The client sends; the server only listens (and answers pings and the close).
    "9.1": [],
}


def script_for(case):
    """The steps for a case: CASES, or one of the parameterised families."""
    if case in CASES:
        return CASES[case]
    parts = case.split(".")
    if parts[:2] == ["1", "text"]:  # 1.text.<size>: one text frame of <size> bytes
        return [frame(TEXT, text_payload(int(parts[2]))) + DONE]
    if parts[:2] == ["1", "binary"]:  # 1.binary.<size>
        return [frame(BINARY, binary_payload(int(parts[2]))) + DONE]
    if parts[:2] == ["3", "rsv"]:  # 3.rsv.<opcode>.<rsv>: "hello", then a frame with RSV bits
        opcode, rsv = int(parts[2]), int(parts[3])
        payload = struct.pack("!H", 1000) if opcode == CLOSE else b"reserved bits"
        return [HELLO + frame(opcode, payload, rsv=rsv) + DONE]
    if parts[:2] == ["4", "opcode"]:  # 4.opcode.<n>: "hello", a reserved opcode, then a ping
        return [HELLO + frame(int(parts[2]), b"reserved") + frame(PING, b"after") + DONE]
    if parts[:2] == ["7", "code"]:  # 7.code.<n>: a close frame with that code
        return [close(int(parts[2]), b"code")]
    raise KeyError(case)


class Client:
    """The client's side of one connection, as seen by the server."""

    def __init__(self, sock):
        self.sock = sock
        self.buffer = b""
        self.frames = []
        self.errors = []
        self.close_payload = None
        self.sent_close = False
        self.tcp_closed = False

    def read_exactly(self, n):
        while len(self.buffer) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError
            self.buffer += chunk
        out, self.buffer = self.buffer[:n], self.buffer[n:]
        return out

    def read_frame(self):
        b0, b1 = self.read_exactly(2)
        masked = bool(b1 & 0x80)
        len7 = b1 & 0x7F
        length = len7
        if len7 == 126:
            (length,) = struct.unpack("!H", self.read_exactly(2))
        elif len7 == 127:
            (length,) = struct.unpack("!Q", self.read_exactly(8))
        key = self.read_exactly(4) if masked else b""
        payload = self.read_exactly(length)
        if masked:
            payload = bytes(b ^ key[i % 4] for i, b in enumerate(payload))
        else:
            self.errors.append(f"unmasked frame (opcode {b0 & 0x0F})")
        record = {"opcode": b0 & 0x0F, "fin": bool(b0 & 0x80), "rsv": (b0 >> 4) & 7,
                  "masked": masked, "key": key.hex(), "len7": len7, "length": length,
                  "sha1": hashlib.sha1(payload).hexdigest()}
        if length <= 1024:
            record["payload_hex"] = payload.hex()
        self.frames.append(record)
        return record["opcode"], payload

    def send(self, data):
        try:
            self.sock.sendall(data)
        except OSError:
            pass  # the client already gave up on us; what it sent is still read below
        if any(data[i] & 0x0F == CLOSE for i in frame_starts(data)):
            self.sent_close = True

    def await_close(self):
        """Reads frames until the client's close frame (answering pings and the close); true when
        it arrived, false when the client closed TCP or the hang guard passed first."""
        try:
            while self.close_payload is None:
                opcode, payload = self.read_frame()
                if opcode == PING and not self.sent_close:
                    self.send(frame(PONG, payload))
                elif opcode == CLOSE:
                    self.close_payload = payload
                    if not self.sent_close:
                        self.send(frame(CLOSE, payload[:2]))
            return True
        except (EOFError, ConnectionResetError):
            self.tcp_closed = True
            return False
        except (socket.timeout, OSError) as error:
            self.errors.append(f"read failed: {error!r}")
            return False

    def listen(self):
        """Reads frames until the client closes TCP: pongs its pings, answers its close."""
        try:
            while True:
                opcode, payload = self.read_frame()
                if opcode == PING and not self.sent_close:
                    self.send(frame(PONG, payload))
                elif opcode == CLOSE and self.close_payload is None:
                    self.close_payload = payload
                    if not self.sent_close:
                        self.send(frame(CLOSE, payload[:2]))
        except (EOFError, ConnectionResetError):
            self.tcp_closed = True
        except (socket.timeout, OSError) as error:
            self.errors.append(f"read failed: {error!r}")


def frame_starts(data):
    """Offsets of the frame headers in a run of unmasked frames (for spotting close frames)."""
    i = 0
    while i + 2 <= len(data):
        yield i
        len7 = data[i + 1] & 0x7F
        extra = 2 if len7 == 126 else 8 if len7 == 127 else 0
        if i + 2 + extra > len(data):
            return
        length = len7 if extra == 0 else int.from_bytes(data[i + 2:i + 2 + extra], "big")
        i += 2 + extra + length


def handshake(sock, errors, offered):
    """Reads the upgrade request and answers 101 (with the case's Sec-WebSocket-Extensions answer,
    if it has one); returns the request target. `offered` gets the request's extension offer."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(4096)
        if not chunk:
            raise EOFError
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    if rest:
        errors.append("bytes after the request head before the handshake finished")
    lines = head.decode("latin-1").split("\r\n")
    method, target, _ = lines[0].split(" ", 2)
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    if method != "GET":
        errors.append(f"method {method}")
    if headers.get("upgrade", "").lower() != "websocket":
        errors.append("no Upgrade: websocket")
    if "upgrade" not in headers.get("connection", "").lower():
        errors.append("no Connection: Upgrade")
    if headers.get("sec-websocket-version") != "13":
        errors.append("Sec-WebSocket-Version is not 13")
    key = headers.get("sec-websocket-key", "")
    if len(base64.b64decode(key + "==")[:16]) != 16:
        errors.append("Sec-WebSocket-Key is not 16 bytes of base64")
    accept = base64.b64encode(hashlib.sha1((key + GUID).encode()).digest()).decode()
    offered.append(headers.get("sec-websocket-extensions"))
    answer = EXTENSION_ANSWERS.get(urllib.parse.urlsplit(target).path.removeprefix("/case/"))
    extension = f"Sec-WebSocket-Extensions: {answer}\r\n" if answer else ""
    sock.sendall(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
                  f"Connection: Upgrade\r\nSec-WebSocket-Accept: {accept}\r\n{extension}\r\n").encode())
    return target


def serve(sock, output_lock):
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.settimeout(HANG_GUARD)
    client = Client(sock)
    report = {"case": None, "run": None}
    offered = []
    try:
        target = handshake(sock, client.errors, offered)
        url = urllib.parse.urlsplit(target)
        report["case"] = url.path.removeprefix("/case/")
        report["run"] = int(urllib.parse.parse_qs(url.query).get("run", ["0"])[0])
        hung_up = False
        for step in script_for(report["case"]):
            if isinstance(step, bytes):
                client.send(step)
            elif step[0] == "bytewise":
                for i in range(len(step[1])):
                    client.send(step[1][i:i + 1])
            elif step[0] == "hangup":
                hung_up = True
            elif step[0] == "await_close":
                report["closed_before_rest"] = client.await_close()
        if hung_up:
            sock.close()
        elif not client.tcp_closed:
            client.listen()
    except Exception as error:  # report it: the test fails with the reason
        client.errors.append(f"server failed: {error!r}")
    finally:
        sock.close()
    payload = client.close_payload
    report.update({
        "frames": client.frames,
        "close_code": struct.unpack("!H", payload[:2])[0] if payload and len(payload) >= 2 else None,
        "close_reason": payload[2:].decode("utf-8", "replace") if payload else "",
        "close_payload_hex": None if payload is None else payload.hex(),
        "tcp_closed": client.tcp_closed,
        "errors": client.errors,
        "offered": offered[0] if offered else None,
    })
    with output_lock:
        print(json.dumps(report), flush=True)


def main():
    host = "127.0.0.1"
    args = sys.argv[1:]
    while args:
        if args.pop(0) == "--host":
            host = args.pop(0)
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind((host, 0))
    listener.listen(128)
    print(f"PORT {listener.getsockname()[1]}", flush=True)
    output_lock = threading.Lock()

    def accept_loop():
        while True:
            sock, _ = listener.accept()
            threading.Thread(target=serve, args=(sock, output_lock), daemon=True).start()

    threading.Thread(target=accept_loop, daemon=True).start()
    # Serve until the tests close our stdin (or exit, or kill us).
    sys.stdin.read()


if __name__ == "__main__":
    main()
