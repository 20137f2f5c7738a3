#!/usr/bin/env python3
"""A Python `websockets` server that speaks Bitstamp's WebSocket API v2 closely enough for the
ticker, written from Bitstamp's documentation (www.bitstamp.net/websocket/v2/) and recorded frames,
independent of our own server code (docs/protocols.md §8).

Usage: bitstamp_peer.py [--ping SECONDS] [--refuse MARKET]... [--request-reconnect]
Prints "PORT <n>" once listening, then serves (any path) until stdin closes. For each connection:
"OPEN", then "GOT <text>" for every text message received, "PONG" for every answer to its own
pings, and "CLOSED <code> <reason>" when it ends: the close the client sent, or the one this server
sent when it closed first.

What it does, as Bitstamp does:
  {"event":"bts:subscribe","data":{"channel":"live_trades_<market>"}}
      answered {"event":"bts:subscription_succeeded","channel":"live_trades_<market>","data":{}}
      for any market of lower-case letters and digits, listed or not (Bitstamp acknowledges a
      market it does not list, which then stays silent); for a listed one (btcusd, ethusd) two
      `trade` messages follow, every member Bitstamp sends, the exact `price_str` and `amount_str`
      beside floats that carry binary artefacts; then nothing more
  {"event":"bts:unsubscribe",…}  ->  bts:unsubscription_succeeded naming the channel
  {"event":"bts:heartbeat"}  ->  {"event":"bts:heartbeat","channel":"","data":{"status":"success"}}
  a channel it cannot read  ->  {"event":"bts:error","channel":"","data":{"code":null,
      "message":"Invalid channel provided."}}; JSON that is no request: "Bad subscription
      string."; text that is not JSON: "Incorrect JSON format." (the socket stays open)
  a client frame over 512 bytes  ->  close 1009 "read limited at 513 bytes"
  --ping S (default 54, what Bitstamp was seen to do): a WebSocket ping every S seconds; one
      not answered by the time the next is due closes the connection with 1011 (what Bitstamp
      does then is not documented: this is websockets' own keepalive rule)
  --refuse MARKET: its subscription is answered with the "Invalid channel provided." error, as
      for a channel Bitstamp cannot read (the ticker never sends one: this stands in for it)
  --request-reconnect: on the first connection, after the first trades, the maintenance notice
      {"event":"bts:request_reconnect","channel":"","data":null}
"""
import argparse
import asyncio
import json
import re

from websockets.exceptions import ConnectionClosed

from peerlib import log, log_closed, serve_until_stdin_closes

# market: (id, microtimestamp, price_str, price float text, amount_str, amount float text, type)
LISTED = {
    "btcusd": [
        (412093371, 1791455017676000, "79412", "79412", "0.00164300", "0.0016429999999999999", 0),
        (412093372, 1791455018880000, "79411", "79411", "0.05000000", "0.05", 1),
    ],
    "ethusd": [
        (412093380, 1791455019004000, "3012.45", "3012.4500000000003", "0.21300000", "0.213", 0),
        (412093381, 1791455019311000, "3012.50", "3012.5", "1.20000000", "1.2", 1),
    ],
}
MARKET = re.compile(r"^[a-z0-9]+$")


def dumps(value):
    return json.dumps(value, separators=(",", ":"))


def trade(market, row):
    trade_id, micros, price, price_float, amount, amount_float, side = row
    # Written by hand: the floats must keep the digits Bitstamp's serializer printed.
    return ('{"data":{"id":%d,"timestamp":"%d","amount":%s,"amount_str":"%s","price":%s,"price_str":"%s",'
            '"type":%d,"microtimestamp":"%d","buy_order_id":%d,"sell_order_id":%d},'
            '"channel":"live_trades_%s","event":"trade"}'
            % (trade_id, micros // 1_000_000, amount_float, amount, price_float, price, side, micros,
               1890233431216128 + trade_id, 1890233429458944 + trade_id, market))


def error(message):
    return dumps({"event": "bts:error", "channel": "", "data": {"code": None, "message": message}})


class Connection:
    def __init__(self, ws, options, first):
        self.ws = ws
        self.options = options
        self.first = first
        self.closed_by_us = False
        self.reconnect_sent = False

    async def keep(self):
        """Pings every `--ping` seconds; a ping still unanswered when the next is due closes."""
        while True:
            await asyncio.sleep(self.options.ping)
            try:
                waiter = await self.ws.ping()
                await asyncio.wait_for(waiter, self.options.ping)
            except asyncio.TimeoutError:
                self.closed_by_us = True
                await self.ws.close(1011, "keepalive ping timeout")
                return
            except ConnectionClosed:
                return
            log("PONG")

    async def answer(self, text):
        if len(text.encode()) > 512:
            self.closed_by_us = True
            await self.ws.close(1009, "read limited at 513 bytes")
            return
        try:
            request = json.loads(text)
        except ValueError:
            await self.ws.send(error("Incorrect JSON format."))
            return
        event = request.get("event") if isinstance(request, dict) else None
        if event == "bts:heartbeat":
            await self.ws.send(dumps({"event": "bts:heartbeat", "channel": "", "data": {"status": "success"}}))
            return
        data = request.get("data") if event in ("bts:subscribe", "bts:unsubscribe") else None
        channel = data.get("channel") if isinstance(data, dict) else None
        if not isinstance(channel, str) or not channel:
            await self.ws.send(error("Bad subscription string."))
            return
        market = channel[len("live_trades_"):] if channel.startswith("live_trades_") else ""
        if not MARKET.match(market) or market in self.options.refuse:
            await self.ws.send(error("Invalid channel provided."))
            return
        if event == "bts:unsubscribe":
            await self.ws.send(dumps({"event": "bts:unsubscription_succeeded", "channel": channel, "data": {}}))
            return
        await self.ws.send(dumps({"event": "bts:subscription_succeeded", "channel": channel, "data": {}}))
        for row in LISTED.get(market, []):
            await self.ws.send(trade(market, row))
        if self.options.request_reconnect and self.first and market in LISTED and not self.reconnect_sent:
            self.reconnect_sent = True
            await self.ws.send(dumps({"event": "bts:request_reconnect", "channel": "", "data": None}))


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ping", type=float, default=54)
    parser.add_argument("--refuse", action="append", default=[])
    parser.add_argument("--request-reconnect", action="store_true")
    options = parser.parse_args()
    connections = 0

    async def handler(ws):
        nonlocal connections
        connections += 1
        log("OPEN")
        connection = Connection(ws, options, connections == 1)
        keeper = asyncio.ensure_future(connection.keep())
        try:
            async for message in ws:
                if not isinstance(message, str):
                    continue
                log("GOT " + message)
                await connection.answer(message)
        except ConnectionClosed:
            pass
        keeper.cancel()
        await ws.wait_closed()
        log_closed(ws, connection.closed_by_us)

    # Bitstamp takes client frames up to 512 bytes; a larger one is read here, then closed as it does.
    await serve_until_stdin_closes(handler, max_size=1 << 16)


if __name__ == "__main__":
    asyncio.run(main())
