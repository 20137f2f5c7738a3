#!/usr/bin/env python3
"""A WebSocket client that subscribes and then never reads (a raw socket with a small receive
buffer), for the `ticker serve` slow-client test.

Usage: stalled_client.py PORT SYMBOL
Upgrades, prints the status line, sends a Finnhub subscribe for SYMBOL, prints "SUBSCRIBED",
then reads nothing until stdin closes.
"""
import base64
import os
import socket
import sys

port, symbol = int(sys.argv[1]), sys.argv[2]
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
s.connect(("127.0.0.1", port))
key = base64.b64encode(os.urandom(16)).decode()
s.sendall(
    (
        "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
    ).encode()
)
head = b""
while b"\r\n\r\n" not in head:
    byte = s.recv(1)
    if not byte:
        break
    head += byte
print(head.split(b"\r\n")[0].decode(), flush=True)
payload = ('{"type":"subscribe","symbol":"%s"}' % symbol).encode()
mask = os.urandom(4)
s.sendall(bytes([0x81, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))
print("SUBSCRIBED", flush=True)
sys.stdin.read()
