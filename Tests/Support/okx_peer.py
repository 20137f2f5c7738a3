#!/usr/bin/env python3
"""A Python `websockets` server that speaks OKX's v5 public feed closely enough for the ticker,
written from OKX's documentation and independent of our own server code (docs/protocols.md §5).

Usage: okx_peer.py [--quiet SECONDS]
Prints "PORT <n>" once listening, then serves (any path) until stdin closes. For each connection:
"OPEN", then "GOT <text>" for every text message received, "PING" for every text "ping" (answered
with the text "pong"), and "CLOSED <code> <reason>" when it ends: the close the client sent, or
the one this server sent (4004 "No data received in 30s") when it closed first.

What it does, as OKX does:
  {"id":…,"op":"subscribe"|"unsubscribe","args":[{"channel":"tickers","instId":…},…]}
      answered per item with {"id":…,"event":"subscribe"|"unsubscribe","arg":{…},"connId":…}, or
      for an instrument it does not list (only BTC-USDT and ETH-USDT are) with
      {"id":…,"event":"error","code":"60018","msg":"Wrong URL or channel:tickers,instId:X doesn't
      exist. …","connId":…}; after subscribing, two `tickers` pushes of the instrument (every field
      OKX sends, prices as decimal strings), then nothing more
  anything else that is not JSON with an "op"  →  {"event":"error","code":"60012",…}
  ping  →  pong
  --quiet S (default 30): a connection this server has pushed nothing to for S seconds (or that
  has no subscription S seconds after opening) is closed with 4004 "No data received in 30s"
"""
import argparse
import asyncio
import json
import sys

from websockets.asyncio.server import serve
from websockets.exceptions import ConnectionClosed

CONN_ID = "9a1c44e0"
LISTED = {
    "BTC-USDT": [("79412.6", "0.00081204", "1791278071509"), ("79412.5", "0.0125", "1791278071714")],
    "ETH-USDT": [("3012.45", "0.0213", "1791278072004"), ("3012.5", "1.2", "1791278072311")],
}


def log(line):
    print(line, flush=True)


def dumps(value):
    return json.dumps(value, separators=(",", ":"))


def ticker(inst_id, last, size, ts):
    entry = {
        "instType": "SPOT", "instId": inst_id, "last": last, "lastSz": size, "askPx": last, "askSz": "0.5",
        "bidPx": last, "bidSz": "1.25", "open24h": last, "high24h": last, "low24h": last, "sodUtc0": last,
        "sodUtc8": last, "volCcy24h": "1000.5", "vol24h": "0.0126", "ts": ts,
    }
    return dumps({"arg": {"channel": "tickers", "instId": inst_id}, "data": [entry]})


def with_id(request_id, body):
    return ({"id": request_id} if request_id is not None else {}) | body


class Connection:
    def __init__(self, ws, quiet):
        self.ws = ws
        self.quiet = quiet
        self.subscribed = set()
        self.subscribed_once = False
        self.last_push = asyncio.get_running_loop().time()
        self.closed_by_us = False

    async def push(self, text):
        self.last_push = asyncio.get_running_loop().time()
        await self.ws.send(text)

    async def watch(self):
        """Closes the connection once it has been quiet for `quiet` seconds, as OKX does."""
        loop = asyncio.get_running_loop()
        opened = loop.time()
        while True:
            since = self.last_push if self.subscribed_once else opened
            left = since + self.quiet - loop.time()
            if left <= 0:
                self.closed_by_us = True
                await self.ws.close(4004, "No data received in 30s")
                return
            await asyncio.sleep(left)

    async def answer(self, text):
        try:
            request = json.loads(text)
            op = request["op"]
        except (ValueError, KeyError, TypeError):
            await self.push(dumps({"event": "error", "code": "60012", "msg": "Invalid request: " + text,
                                   "connId": CONN_ID}))
            return
        request_id = request.get("id")
        if op not in ("subscribe", "unsubscribe"):
            await self.push(dumps(with_id(request_id, {"event": "error", "code": "60019",
                                                       "msg": "Invalid op: " + str(op), "connId": CONN_ID})))
            return
        pushes = []
        for arg in request.get("args") or []:
            inst_id = arg.get("instId")
            if arg.get("channel") != "tickers" or inst_id not in LISTED:
                msg = ("Wrong URL or channel:%s,instId:%s doesn't exist. Please use the correct URL, channel "
                       "and parameters referring to API document." % (arg.get("channel"), inst_id))
                await self.push(dumps(with_id(request_id, {"event": "error", "code": "60018", "msg": msg,
                                                           "connId": CONN_ID})))
                continue
            await self.push(dumps(with_id(request_id, {"event": op, "arg": {"channel": "tickers", "instId": inst_id},
                                                       "connId": CONN_ID})))
            if op == "subscribe":
                self.subscribed_once = True
                if inst_id not in self.subscribed:
                    self.subscribed.add(inst_id)
                    pushes += [ticker(inst_id, *row) for row in LISTED[inst_id]]
            else:
                self.subscribed.discard(inst_id)
        for text in pushes:
            await self.push(text)


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--quiet", type=float, default=30)
    options = parser.parse_args()

    async def handler(ws):
        log("OPEN")
        connection = Connection(ws, options.quiet)
        watcher = asyncio.ensure_future(connection.watch())
        try:
            async for message in ws:
                if not isinstance(message, str):
                    continue
                if message == "ping":
                    log("PING")
                    await connection.push("pong")
                    continue
                log("GOT " + message)
                await connection.answer(message)
        except ConnectionClosed:
            pass
        watcher.cancel()
        await ws.wait_closed()
        if connection.closed_by_us:
            sent = ws.protocol.close_sent
            log(f"CLOSED {sent.code} {sent.reason}")
        else:
            received = ws.protocol.close_rcvd
            log(f"CLOSED {received.code if received else 1006} {received.reason if received else ''}")

    kwargs = {"compression": None, "ping_interval": None}
    async with serve(handler, "127.0.0.1", 0, **kwargs) as server:
        port = next(iter(server.sockets)).getsockname()[1]
        log(f"PORT {port}")
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)


if __name__ == "__main__":
    asyncio.run(main())
