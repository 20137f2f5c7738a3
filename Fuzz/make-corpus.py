#!/usr/bin/env python3
"""Regenerates the seed corpus in Fuzz/corpus/ from hand-written cases and the test fixtures.

Run from anywhere: python3 Fuzz/make-corpus.py. Files are named by content (seed-<name>), so
rerunning it rewrites the same files. Reproducers of fixed bugs are added by hand as
Fuzz/corpus/<target>/regression-<what> and are not touched here.
"""
import json
import os
import re
import struct
import subprocess
import zlib

root = os.path.dirname(os.path.abspath(__file__))
repo = os.path.dirname(root)


def write(target, name, data):
    d = os.path.join(root, "corpus", target)
    os.makedirs(d, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    with open(os.path.join(d, "seed-" + name), "wb") as f:
        f.write(data)


def frame(opcode, payload=b"", fin=True, mask=None, rsv1=False):
    b0 = (0x80 if fin else 0) | (0x40 if rsv1 else 0) | opcode
    n = len(payload)
    mbit = 0x80 if mask is not None else 0
    if n <= 125:
        head = bytes([b0, mbit | n])
    elif n <= 0xFFFF:
        head = bytes([b0, mbit | 126]) + struct.pack(">H", n)
    else:
        head = bytes([b0, mbit | 127]) + struct.pack(">Q", n)
    if mask is None:
        return head + payload
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return head + bytes(mask) + masked


# frames: the first byte is the harness's control byte (bit 0: 0 client / 1 server role,
# bit 1: 125-byte limit, bits 2-7: split position).
key = [0x37, 0xFA, 0x21, 0x3D]
client = {
    "rfc-hello": frame(1, b"Hello"),
    "rfc-fragmented": frame(1, b"Hel", fin=False) + frame(0, b"lo"),
    "rfc-ping-pong": frame(9, b"Hello") + frame(10, b"Hello"),
    "rfc-binary-256": frame(2, bytes(range(256))),
    "len16-200": frame(2, b"x" * 200),
    "ping-between-fragments": frame(1, b"ab", fin=False) + frame(9) + frame(0, b"cd"),
    "close-1000": frame(8, struct.pack(">H", 1000) + b"bye"),
    "close-empty": frame(8),
    "close-bad-code": frame(8, struct.pack(">H", 1005)),
    "text-utf8": frame(1, "€ 95 372,10 ✓".encode()),
    "text-invalid-utf8": frame(1, b"\xc3\x28"),
    "len64-nonminimal": bytes([0x82, 127]) + struct.pack(">Q", 5) + b"hello",
    "reserved-opcode": bytes([0x83, 0]),
    "rsv-set": bytes([0xC1, 1]) + b"a",
}
for name, data in client.items():
    write("frames", "client-" + name, bytes([0x10]) + data)
write("frames", "server-rfc-masked-hello", bytes([0x11]) + frame(1, b"Hello", mask=key))
write("frames", "server-masked-close", bytes([0x21]) + frame(8, struct.pack(">H", 1001), mask=key))
write("frames", "server-small-limit", bytes([0x13]) + frame(2, b"y" * 130, mask=key))

# handshake: responses (client side) and requests (server side), and URLs.
accept = "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="
write("handshake", "101", "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
      "Connection: Upgrade\r\nSec-WebSocket-Accept: " + accept + "\r\n\r\n")
write("handshake", "101-with-frame", "HTTP/1.1 101 Switching Protocols\r\nupgrade: WebSocket\r\n"
      "connection: keep-alive, Upgrade\r\nsec-websocket-accept: " + accept + "\r\n\r\n\x81\x02hi")
write("handshake", "401", "HTTP/1.1 401 Unauthorized\r\nContent-Type: text/plain\r\n"
      "Content-Length: 12\r\nConnection: close\r\n\r\nUnauthorized")
write("handshake", "429-retry", "HTTP/1.1 429 Too Many Requests\r\nRetry-After: 30\r\n\r\n")
write("handshake", "101-extension", "HTTP/1.1 101 OK\r\nUpgrade: websocket\r\nConnection: upgrade\r\n"
      "Sec-WebSocket-Accept: " + accept + "\r\nSec-WebSocket-Extensions: permessage-deflate\r\n\r\n")
write("handshake", "folded", "HTTP/1.1 101 OK\r\nUpgrade: websocket\r\n  folded\r\n\r\n")
write("handshake", "request", "GET /chat?token=abc HTTP/1.1\r\nHost: server.example.com\r\n"
      "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
      "Sec-WebSocket-Version: 13\r\n\r\n")
write("handshake", "request-post", "POST / HTTP/1.0\r\nHost: a\r\n\r\n")
write("handshake", "url", "wss://ws.example.com/?token=abc")
write("handshake", "url-ipv6", "ws://[::1]:8080/feed?x=1#frag")

# venues: for the harness over the catalog, each venue's seeds as its emulation declares them
# (`feedserve --fuzz-seeds`: edge cases of its shapes, symbol lists, every message of its demo
# session) and every body of the fixtures named after it, each as "<venue>\n<message>"; and a
# dictionary of the JSON keys and short string values they hold.
fixtures = os.path.join(repo, "Tests", "Fixtures")
subprocess.run(["swift", "build", "--product", "feedserve"], cwd=repo, check=True, stdout=subprocess.DEVNULL)
binary = subprocess.run(["swift", "build", "--show-bin-path"], cwd=repo, check=True, capture_output=True,
                        text=True).stdout.strip()
seeds = [json.loads(line) for line in subprocess.run([os.path.join(binary, "feedserve"), "--fuzz-seeds"],
                                                     check=True, capture_output=True, text=True).stdout.splitlines()]
venues = sorted({seed["venue"] for seed in seeds})
for fixture in sorted(os.listdir(fixtures)):
    venue = fixture.split("-")[0]
    if venue not in venues or not fixture.endswith(".ndjson"):
        continue
    with open(os.path.join(fixtures, fixture)) as f:
        for i, line in enumerate(f):
            entry = json.loads(line)
            if entry.get("kind") in ("text", "binary"):
                seeds.append({"venue": venue, "name": "%s-%02d" % (fixture[:-len(".ndjson")], i), "text": entry["body"]})
tokens = set()
for seed in seeds:
    write("venues", "%s-%s" % (seed["venue"], seed["name"]), seed["venue"] + "\n" + seed["text"])
    tokens.update(t for t in re.findall(r'"[A-Za-z_][A-Za-z0-9_]{0,23}"', seed["text"]))
with open(os.path.join(root, "dicts", "venues.dict"), "w") as f:
    f.write("# libFuzzer dictionary for fuzz-venues, written by Fuzz/make-corpus.py: the JSON keys and\n"
            "# short strings of every venue's seeds.\n")
    for token in sorted(tokens):
        f.write('"%s"\n' % token.replace("\\", "\\\\").replace('"', '\\"'))

# config: the example file and a few variants.
with open(os.path.join(repo, "config.example.json"), "rb") as f:
    write("config", "example", f.read())
write("config", "symbols-string", '{"symbols":"BINANCE:BTCUSDT, IC MARKETS:1","count":3,"maxWait":null}')
write("config", "seconds", '{"debounce":1e-1,"connectTimeout":86400,"maxMessageSize":125}')
write("config", "unknown-key", '{"tokn":"x"}')
write("config", "url", '{"url":"ws://[::1]:9/x","engine":"NATIVE","format":"json","color":"never"}')

# text: symbols, reasons and error texts as a hostile server might send them.
write("text", "symbol", "BINANCE:BTCUSDT")
write("text", "hostile", b"EVIL\x1b[2J\x1b]0;pwned\x07\t1\n\r\x7f\xc2\x85\xc2\x9b31m\xe2\x80\xaeX")
write("text", "unicode", 'IC MARKETS:1 κόσμε \\ "q"')
write("text", "invalid", b"\xff\xfe\x00\xed\xa0\x80")


# inflate: the first byte is the harness's control byte (bit 0 no context takeover, bits 1-3 the
# window, bit 4 a 4 KiB limit, bits 5-7 the split point); then compressed server frames, made with
# Python's zlib as a permessage-deflate sender does (raw DEFLATE, sync flush, 00 00 ff ff removed).
def compressed_messages(messages, wbits=15, reset=False):
    out = b""
    c = zlib.compressobj(wbits=-wbits)
    for m in messages:
        if reset:
            c = zlib.compressobj(wbits=-wbits)
        data = c.compress(m) + c.flush(zlib.Z_SYNC_FLUSH)
        out += frame(1, data[:-4], rsv1=True)
    return out


trades = [json.dumps({"data": [{"p": 95000 + i * 0.01, "s": "BINANCE:BTCUSDT", "t": 1768655932976 + i, "v": 0.001}],
                      "type": "trade"}).encode() for i in range(8)]
write("inflate", "context-takeover", bytes([0x0C]) + compressed_messages(trades))
write("inflate", "no-context-takeover", bytes([0x0D]) + compressed_messages(trades, reset=True))
write("inflate", "window-9", bytes([0x00]) + compressed_messages(trades, wbits=9))
write("inflate", "rfc-hello", bytes([0x0C]) + bytes.fromhex("c107f248cdc9c90700"))
write("inflate", "rfc-fragmented", bytes([0x6C]) + bytes.fromhex("4103f248cd8004c9c90700"))
write("inflate", "rfc-bfinal-then-shared", bytes([0x0C]) + bytes.fromhex("c108f348cdc9c9070000c105f200110000"))
write("inflate", "mixed-plain-and-compressed", bytes([0x4C]) + frame(1, b"plain") + compressed_messages(trades[:2])
      + frame(9, b"ping"))
bomb = zlib.compressobj(wbits=-15)
write("inflate", "bomb", bytes([0x1C]) + frame(2, (bomb.compress(b"\0" * 200000) + bomb.flush(zlib.Z_SYNC_FLUSH))[:-4],
                                              rsv1=True))


# nats: what a server sends a --source subscriber (INFO, PING, MSG with published lines).
info = ('INFO {"server_id":"N","version":"2.9.10","proto":1,"max_payload":1048576,"headers":true}\r\n')
line = ('{"symbol":"BTCUSDT","price":78860.00000000,"time":"2026-09-14T16:52:56.250Z","t":1789404776250,'
        '"volume":0.00100000,"received":"2026-09-14T16:52:56.300Z","rt":1789404776300,"provider":"%s"}' % venues[0])
write("nats", "session", info + "PONG\r\n" + f"MSG ticker.{venues[0]}.BTCUSDT 1 {len(line)}\r\n{line}\r\nPING\r\n")
write("nats", "reply-to", f"MSG ticker.{venues[0]}.BTCUSDT 2 _INBOX.x {len(line)}\r\n{line}\r\n")
write("nats", "payload-with-crlf", "MSG a 1 12\r\nMSG in\r\nside\r\n+OK\r\n-ERR 'Permissions Violation'\r\n")
write("nats", "published-line", line)
write("nats", "nulls", '{"symbol":"A","price":1.5,"t":7,"volume":null,"received":null,"rt":null,"provider":"%s"}' % venues[0])
