#!/usr/bin/env python3
"""A Python `websockets` server that speaks Bithumb's public WebSocket feed
(wss://ws-api.bithumb.com/websocket/v1) closely enough for the ticker, written from Bithumb's
documentation (apidocs.bithumb.com: the WebSocket basics, request format, trade, connection
management and error pages) and independent of our own server code (docs/protocols.md §12).

Usage: bithumb_peer.py [--idle SECONDS]
Prints "PORT <n>" once listening, then serves (any path) until stdin closes. For each connection:
"OPEN", then "GOT <text>" for every text message received, "PING" for every text "PING"
(answered with {"status":"UP"}), and "CLOSED <code> <reason>" when it ends: the close the client
sent, or the one this server sent when it closed first.

What it does, as Bithumb does (every frame it sends is a binary frame holding UTF-8 JSON):
  [{"ticket":…},{"type":"trade","codes":[…],"isOnlySnapshot"?:…,"isOnlyRealtime"?:…},{"format":"DEFAULT"}]
      replaces the connection's whole subscription; no acknowledgement. For each code it lists
      (KRW-BTC and KRW-ETH), the latest trade as a SNAPSHOT (unless isOnlyRealtime), then, the
      first time the code is asked for in real time (unless isOnlySnapshot), one REALTIME trade.
      A code it does not list gets nothing, without a word.
  a request it cannot read  →  {"error":{"name":…,"message":…}} (WRONG_FORMAT, NO_TICKET,
      NO_TYPE, NO_CODES, INVALID_PARAM, with the documented messages), then a close
  PING  →  {"status":"UP"}, then the same every 10 s
  --idle S (default 120): a connection with nothing received or sent for S seconds is closed
      with 1001 "Idle Timeout" (the documented idle timeout; the close code is not documented)
"""
import argparse
import asyncio
import datetime
import json

from websockets.exceptions import ConnectionClosed

from peerlib import log, log_closed, serve_until_stdin_closes

STATUS_INTERVAL = 10
KST = datetime.timezone(datetime.timedelta(hours=9))
# Per listed code: its previous close, the latest trade before any request, and the next one.
# A trade is (price, volume, side, trade_timestamp ms, sequential_id).
LISTED = {
    "KRW-BTC": (94201000, (95539000, "0.00022664", "ASK", 1783658381138, "862683813820523888"),
                (95540000, "0.0105", "BID", 1783658381574, "862683815710523904")),
    "KRW-ETH": (4098000, (4145000, "0.1203", "BID", 1783658408586, "862684093200524871"),
                (4146000, "0.0482", "BID", 1783658412225, "862684133190525461")),
}
ERRORS = {
    "WRONG_FORMAT": "Format 이 맞지 않습니다.",
    "NO_TICKET": "티켓이 존재하지 않거나, 유효하지 않습니다.",
    "NO_TYPE": "type 필드가 존재하지 않습니다.",
    "NO_CODES": "codes 필드가 존재하지 않습니다.",
    "EMPTY_CODES": "codes 필드가 비어 있습니다.",
}


def trade_message(code, trade, stream_type):
    previous, _, _ = LISTED[code]
    price, volume, side, ts, sequential_id = trade
    change = price - previous
    kst = datetime.datetime.fromtimestamp(ts / 1000, KST)
    # Field order and types as Bithumb sends them; numbers raw so that they keep their digits.
    return ('{"type":"trade","code":"%s","trade_price":%d,"trade_volume":%s,"ask_bid":"%s",'
            '"prev_closing_price":%d,"change":"%s","change_price":%d,"trade_date":"%s","trade_time":"%s",'
            '"trade_timestamp":%d,"sequential_id":"%s","timestamp":%d,"stream_type":"%s"}') % (
        code, price, volume, side, previous, "RISE" if change > 0 else "FALL" if change < 0 else "EVEN",
        abs(change), kst.strftime("%Y-%m-%d"), kst.strftime("%H:%M:%S"), ts, sequential_id, ts + 260, stream_type)


class Refused(Exception):
    def __init__(self, name, message=None):
        super().__init__(name)
        self.name = "INVALID_PARAM" if name == "EMPTY_CODES" else name
        self.message = message or ERRORS[name]


def parse(text):
    """The trade codes a request asks for, each with (snapshot, realtime); raises Refused."""
    try:
        items = json.loads(text)
    except ValueError:
        raise Refused("WRONG_FORMAT")
    if not isinstance(items, list) or not items or not all(isinstance(i, dict) for i in items):
        raise Refused("WRONG_FORMAT")
    ticket = items[0].get("ticket")
    if not isinstance(ticket, str) or not ticket:
        raise Refused("NO_TICKET")
    codes = {}
    typed = False
    for index, item in enumerate(items[1:], start=1):
        if "format" in item:
            if index != len(items) - 1:
                raise Refused("WRONG_FORMAT")
            if item["format"] not in ("DEFAULT", "SIMPLE"):
                raise Refused("INVALID_PARAM", "%s은 지원하지 않는 포맷입니다." % item["format"])
            continue
        if "type" not in item:
            raise Refused("NO_TYPE")
        if item["type"] not in ("ticker", "trade", "orderbook"):
            raise Refused("INVALID_PARAM", "type: %s" % item["type"])
        typed = True
        if "codes" not in item:
            raise Refused("NO_CODES")
        if not item["codes"]:
            raise Refused("EMPTY_CODES")
        if item["type"] != "trade":
            continue
        only_snapshot = item.get("isOnlySnapshot") is True
        only_realtime = item.get("isOnlyRealtime") is True
        for code in item["codes"]:
            codes[code] = (not only_realtime, not only_snapshot)
    if not typed:
        raise Refused("NO_TYPE")
    return codes


class Connection:
    def __init__(self, ws, idle):
        self.ws = ws
        self.idle = idle
        loop = asyncio.get_running_loop()
        self.last_traffic = loop.time()
        self.realtime_sent = set()
        self.status_task = None
        self.closed_by_us = False

    async def send(self, text):
        self.last_traffic = asyncio.get_running_loop().time()
        await self.ws.send(text.encode())  # bytes: a binary frame

    async def watch(self):
        """Closes the connection once nothing was received or sent for `idle` seconds."""
        loop = asyncio.get_running_loop()
        while True:
            left = self.last_traffic + self.idle - loop.time()
            if left <= 0:
                self.closed_by_us = True
                await self.ws.close(1001, "Idle Timeout")
                return
            await asyncio.sleep(left)

    async def statuses(self):
        while True:
            await asyncio.sleep(STATUS_INTERVAL)
            await self.send('{"status":"UP"}')

    async def ping(self):
        await self.send('{"status":"UP"}')
        if self.status_task is None:
            self.status_task = asyncio.ensure_future(self.statuses())

    async def answer(self, text):
        try:
            codes = parse(text)
        except Refused as refused:
            await self.send(json.dumps({"error": {"name": refused.name, "message": refused.message}},
                                       ensure_ascii=False, separators=(",", ":")))
            await asyncio.sleep(0.15)
            self.closed_by_us = True
            await self.ws.close(1000, "")
            return
        for code, (snapshot, realtime) in codes.items():
            if code not in LISTED:
                continue
            _, before, after = LISTED[code]
            if snapshot:
                latest = after if code in self.realtime_sent else before
                await self.send(trade_message(code, latest, "SNAPSHOT"))
            if realtime and code not in self.realtime_sent:
                self.realtime_sent.add(code)
                await self.send(trade_message(code, after, "REALTIME"))

    def stop(self):
        if self.status_task is not None:
            self.status_task.cancel()


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--idle", type=float, default=120)
    options = parser.parse_args()

    async def handler(ws):
        log("OPEN")
        connection = Connection(ws, options.idle)
        watcher = asyncio.ensure_future(connection.watch())
        try:
            async for message in ws:
                connection.last_traffic = asyncio.get_running_loop().time()
                if not isinstance(message, str):
                    await connection.answer("")  # a binary request is not one it can read
                    continue
                if message == "PING":
                    log("PING")
                    await connection.ping()
                    continue
                log("GOT " + message)
                await connection.answer(message)
        except ConnectionClosed:
            pass
        watcher.cancel()
        connection.stop()
        await ws.wait_closed()
        log_closed(ws, connection.closed_by_us)

    await serve_until_stdin_closes(handler)


if __name__ == "__main__":
    asyncio.run(main())
