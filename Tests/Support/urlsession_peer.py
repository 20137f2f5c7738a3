#!/usr/bin/env python3
"""A Python `websockets` server for the URLSession engine's tests (and the native engine's, side
by side): it plays Finnhub closely enough for the ticker, or a plain scripted peer.

Usage: urlsession_peer.py SCENARIO
Prints "PORT <n>" once listening, then serves until stdin closes. Prints "GOT <text|binary> <hex>"
for every message it receives and, after each connection, "CLOSED <code> <reason>" (the close
frame the client sent; 1006 when none came).

Scenarios
  record       only records what arrives
  echo         echoes every message; then, 0.2 s later, pings with the payload "nudge" (a server
               that keeps talking, as Finnhub does: corelibs at 6.3.1 may hold a message that
               arrives while it sends until the next bytes from the server)
  push         on "go": sends text "one", binary 00 01 ff, text "κόσμε", then pings "nudge"
  close        on "go": closes with 4000 "bye"
  goingaway    on "go": closes with 1001 "restart"
  large N      on "go": sends one text message of N ASCII bytes ("abc…z" repeated)
  fragmented   on "go": sends "Hello, " + "fragmented " + "world" as one fragmented text message
  reject       refuses the upgrade with HTTP 401
  finnhub-large       on each subscribe: one Finnhub trade message over 4 KiB (80 trades of the
                      symbol, prices 100.01 … 100.80), then one small trade at 101.5
  finnhub-fragmented  on each subscribe: one small trade message sent as 3 frames (price 99.25),
                      then one in a single frame at 101.5
The Finnhub scenarios then keep the connection open (pinging "nudge" every 0.2 s).
"""
import asyncio
import http
import json
import sys

from websockets.asyncio.server import serve
from websockets.exceptions import ConnectionClosed


def log(line):
    print(line, flush=True)


async def nudge_forever(ws):
    try:
        while True:
            await asyncio.sleep(0.2)
            await ws.ping(b"nudge")
    except ConnectionClosed:
        pass


def trades(symbol, prices, start=1700000000000):
    data = [{"p": p, "s": symbol, "t": start + i, "v": 0.001, "c": ["1"]} for i, p in enumerate(prices)]
    return json.dumps({"data": data, "type": "trade"}, separators=(",", ":"))


async def scenario(ws, name, arg):
    nudger = None
    async for message in ws:
        kind = "text" if isinstance(message, str) else "binary"
        raw = message.encode() if isinstance(message, str) else message
        log(f"GOT {kind} {raw.hex() or '-'}")
        if name == "record":
            pass
        elif name == "echo":
            await ws.send(message)
            await asyncio.sleep(0.2)
            await ws.ping(b"nudge")
        elif name == "push" and message == "go":
            await ws.send("one")
            await ws.send(b"\x00\x01\xff")
            await ws.send("κόσμε")
            await asyncio.sleep(0.2)
            await ws.ping(b"nudge")
        elif name == "close" and message == "go":
            await ws.close(4000, "bye")
        elif name == "goingaway" and message == "go":
            await ws.close(1001, "restart")
        elif name == "large" and message == "go":
            await ws.send(bytes(97 + i % 26 for i in range(arg)).decode())
            await asyncio.sleep(0.2)
            await ws.ping(b"nudge")
        elif name == "fragmented" and message == "go":
            await ws.send(["Hello, ", "fragmented ", "world"])
            await asyncio.sleep(0.2)
            await ws.ping(b"nudge")
        elif name.startswith("finnhub-") and isinstance(message, str):
            request = json.loads(message)
            if request.get("type") != "subscribe":
                continue
            symbol = request["symbol"]
            if name == "finnhub-large":
                prices = [round(100 + i / 100, 2) for i in range(1, 81)]
                big = trades(symbol, prices)
                assert len(big) > 4096, len(big)
                await ws.send(big)
            else:
                text = trades(symbol, [99.25])
                third = len(text) // 3
                await ws.send([text[:third], text[third:2 * third], text[2 * third:]])
            await ws.send(trades(symbol, [101.5], start=1700000001000))
            if nudger is None:
                nudger = asyncio.ensure_future(nudge_forever(ws))
    if nudger:
        nudger.cancel()


def reject_request(connection, request):
    return connection.respond(http.HTTPStatus.UNAUTHORIZED, "token refused\n")


async def main():
    name = sys.argv[1]
    arg = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    kwargs = {"max_size": 64 * 1024 * 1024, "compression": None, "ping_interval": None}
    if name == "reject":
        kwargs["process_request"] = reject_request

    async def handler(ws):
        try:
            await scenario(ws, name, arg)
        except ConnectionClosed:
            pass
        await ws.wait_closed()
        log(f"CLOSED {ws.close_code} {ws.close_reason}")

    async with serve(handler, "127.0.0.1", 0, **kwargs) as server:
        port = next(iter(server.sockets)).getsockname()[1]
        log(f"PORT {port}")
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)


if __name__ == "__main__":
    asyncio.run(main())
