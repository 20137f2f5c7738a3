#!/usr/bin/env python3
"""A Python `websockets` server that speaks Bybit's v5 public spot feed closely enough for the
ticker, written from Bybit's documentation and published captures, independent of our own server
code (docs/protocols.md §9).

Usage: bybit_peer.py [--idle SECONDS]
Prints "PORT <n>" once listening, then serves (any path) until stdin closes. For each connection:
"OPEN", then "GOT <text>" for every request received, "PING" for every {"op":"ping"} (answered
with the spot pong), "CUT" when this server drops an idle connection, and "CLOSED <code> <reason>"
when it ends (1006 when it was cut).

What it does, as Bybit does:
  {"req_id":…,"op":"subscribe"|"unsubscribe","args":["publicTrade.BTCUSDT",…]}
      answered once, echoing req_id: {"success":true,"ret_msg":"subscribe","conn_id":…,
      "req_id":…,"op":"subscribe"}. More than 10 topics: {"success":false,"ret_msg":"args size
      >10",…}. A symbol it does not list (only BTCUSDT and ETHUSDT are) refuses the whole request,
      naming the first: {"success":false,"ret_msg":"Invalid symbol :[publicTrade.X]",…}. After a
      subscription, one publicTrade message per symbol with two trades (spot's fields, prices and
      sizes as decimal strings), then nothing more.
  {"op":"ping"}  →  {"success":true,"ret_msg":"pong","conn_id":…,"op":"ping"} (no req_id)
  anything else  →  {"success":false,"ret_msg":"error:invalid op",…}
  --idle S (default 600): a connection that has had no ping-pong and no data pushed for S seconds
  is cut: the TCP connection is dropped without a close frame.
"""
import argparse
import asyncio
import json

from websockets.exceptions import ConnectionClosed

from peerlib import log, serve_until_stdin_closes

CONN_ID = "d9avrj8i70nu0j2a80n0-9cfc4"
LISTED = {
    "BTCUSDT": [("2290000001202469355", 1788335009482, "77606.8", "0.000712", "Buy"),
                ("2290000001202469356", 1788335009482, "77607", "0.0105", "Buy")],
    "ETHUSDT": [("2290000000493383211", 1788335010117, "3012.45", "0.0213", "Sell"),
                ("2290000000493383212", 1788335010301, "3012.5", "1.2", "Buy")],
}
TOPIC = "publicTrade."


def dumps(value):
    return json.dumps(value, separators=(",", ":"))


def trades(symbol):
    rows = LISTED[symbol]
    data = [{"i": i, "T": t, "p": p, "v": v, "S": side, "seq": 113508069853 + n, "s": symbol, "BT": False,
             "RPI": False} for n, (i, t, p, v, side) in enumerate(rows)]
    return dumps({"topic": TOPIC + symbol, "ts": rows[-1][1] + 1, "type": "snapshot", "data": data})


def answer(op, request_id, success=True, ret_msg=None):
    body = {"success": success, "ret_msg": op if ret_msg is None else ret_msg, "conn_id": CONN_ID}
    if request_id is not None:
        body["req_id"] = request_id
    body["op"] = op
    return dumps(body)


class Connection:
    def __init__(self, ws, idle):
        self.ws = ws
        self.idle = idle
        self.subscribed = set()
        self.last_push = asyncio.get_running_loop().time()
        self.cut = False

    async def push(self, text):
        self.last_push = asyncio.get_running_loop().time()
        await self.ws.send(text)

    async def watch(self):
        """Drops the connection once nothing was pushed for `idle` seconds, as Bybit cuts it."""
        loop = asyncio.get_running_loop()
        while True:
            left = self.last_push + self.idle - loop.time()
            if left <= 0:
                self.cut = True
                log("CUT")
                self.ws.transport.abort()
                return
            await asyncio.sleep(left)

    async def handle(self, text):
        try:
            request = json.loads(text)
            op = request.get("op")
        except (ValueError, AttributeError):
            await self.push(dumps({"success": False, "ret_msg": "Failed to decode incoming data",
                                   "conn_id": CONN_ID}))
            return
        request_id = request.get("req_id")
        if op == "ping":
            log("PING")
            await self.push(dumps({"success": True, "ret_msg": "pong", "conn_id": CONN_ID, "op": "ping"}))
            return
        log("GOT " + text)
        if op not in ("subscribe", "unsubscribe"):
            await self.push(answer(op, request_id, False, "error:invalid op"))
            return
        topics = request.get("args") or []
        if len(topics) > 10:
            await self.push(answer(op, request_id, False, "args size >10"))
            return
        symbols = [topic[len(TOPIC):] if topic.startswith(TOPIC) else topic for topic in topics]
        if op == "unsubscribe":
            self.subscribed -= set(symbols)
            await self.push(answer(op, request_id))
            return
        bad = next((topic for topic, symbol in zip(topics, symbols) if symbol not in LISTED), None)
        if bad is not None:
            await self.push(answer(op, request_id, False, "Invalid symbol :[%s]" % bad))
            return
        new = [symbol for symbol in symbols if symbol not in self.subscribed]
        self.subscribed |= set(new)
        await self.push(answer(op, request_id))
        for symbol in new:
            await self.push(trades(symbol))


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--idle", type=float, default=600)
    options = parser.parse_args()

    async def handler(ws):
        log("OPEN")
        connection = Connection(ws, options.idle)
        watcher = asyncio.ensure_future(connection.watch())
        try:
            async for message in ws:
                if isinstance(message, str):
                    await connection.handle(message)
        except ConnectionClosed:
            pass
        watcher.cancel()
        await ws.wait_closed()
        received = ws.protocol.close_rcvd
        if connection.cut or received is None:
            log("CLOSED 1006 ")
        else:
            log(f"CLOSED {received.code} {received.reason}")

    await serve_until_stdin_closes(handler)


if __name__ == "__main__":
    asyncio.run(main())
