#!/usr/bin/env python3
"""A Python `websockets` server that speaks Hyperliquid's public WebSocket closely enough for the
ticker, written from Hyperliquid's documentation (websocket subscriptions, timeouts and heartbeats)
and its Python SDK's reading of it, independent of our own server code (docs/protocols.md §7).

Usage: hyperliquid_peer.py [--idle SECONDS]
Prints "PORT <n>" once listening, then serves (any path) until stdin closes. For each connection:
"OPEN", then "GOT <text>" for every text message received, "PING" for every {"method":"ping"}
(answered with {"channel":"pong"}), and "CLOSED <code> <reason>" when it ends: the close the
client sent, or the one this server sent (1001 "idle") when it closed first.

What it does, as Hyperliquid does:
  on connecting: the text "Websocket connection established." (not JSON)
  {"method":"subscribe","subscription":{"type":"trades","coin":C}}
      for a listed coin (BTC, ETH): {"channel":"subscriptionResponse","data":{<the request>}}, then
      the coin's recent trades in one "trades" message (newest first), then two blocks of live
      fills, then nothing more; for any other coin {"channel":"error","data":"Invalid
      subscription: {<the subscription>}"}; subscribing twice: "Already subscribed: {…}"
  {"method":"unsubscribe",…}  answered like a subscribe ("Already unsubscribed: {…}" when not)
  anything else  {"channel":"error","data":"Error parsing JSON into valid websocket request: …"}
  --idle S (default 60): a connection this server has sent nothing to for S seconds is closed
"""
import argparse
import asyncio
import json

from websockets.exceptions import ConnectionClosed

from peerlib import log, log_closed, serve_until_stdin_closes

USERS = ["0x31ca8395cf837de08b24da3f660e77761dfb974b", "0x023a3d058020fb76cca98f01b3c48c8938a22355"]


def fill(coin, side, px, sz, time, tid, users=True):
    entry = {"coin": coin, "side": side, "px": px, "sz": sz, "time": time,
             "hash": "0x" + format(tid, "064x"), "tid": tid}
    if users:
        entry["users"] = USERS if side == "B" else USERS[::-1]
    return entry


# Per coin: the back-fill (newest first), then the live blocks.
LISTED = {
    "BTC": (
        [fill("BTC", "B", "97432.0", "0.0009", 1791303604961, 901),
         fill("BTC", "A", "97430.0", "0.02585", 1791303598839, 900),
         fill("BTC", "A", "97431.0", "0.0113", 1791303595451, 899)],
        [[fill("BTC", "A", "97431.0", "0.00245", 1791303610006, 902)],
         [fill("BTC", "B", "97432.0", "0.0154", 1791303610572, 903),
          fill("BTC", "B", "97433.0", "0.00987", 1791303610572, 904, users=False)]],
    ),
    "ETH": (
        [fill("ETH", "B", "3012.5", "1.2", 1791303605120, 501),
         fill("ETH", "A", "3012.4", "0.5", 1791303604120, 500)],
        [[fill("ETH", "A", "3012.6", "0.0213", 1791303611311, 502)]],
    ),
}


def dumps(value):
    return json.dumps(value, separators=(",", ":"))


class Connection:
    def __init__(self, ws, idle):
        self.ws = ws
        self.idle = idle
        self.subscribed = set()
        self.last_sent = asyncio.get_running_loop().time()
        self.closed_by_us = False

    async def send(self, text):
        self.last_sent = asyncio.get_running_loop().time()
        await self.ws.send(text)

    async def watch(self):
        """Closes the connection once this server has sent it nothing for `idle` seconds."""
        loop = asyncio.get_running_loop()
        while True:
            left = self.last_sent + self.idle - loop.time()
            if left <= 0:
                self.closed_by_us = True
                await self.ws.close(1001, "idle")
                return
            await asyncio.sleep(left)

    async def error(self, text):
        await self.send(dumps({"channel": "error", "data": text}))

    async def answer(self, text):
        try:
            request = json.loads(text)
            method = request["method"]
        except (ValueError, KeyError, TypeError):
            await self.error("Error parsing JSON into valid websocket request: " + text)
            return
        if method == "ping":
            log("PING")
            await self.send(dumps({"channel": "pong"}))
            return
        subscription = request.get("subscription") if isinstance(request, dict) else None
        if method not in ("subscribe", "unsubscribe") or not isinstance(subscription, dict):
            await self.error("Error parsing JSON into valid websocket request: " + text)
            return
        coin = subscription.get("coin")
        quoted = dumps(subscription)
        if subscription.get("type") != "trades" or coin not in LISTED:
            await self.error("Invalid subscription: " + quoted)
            return
        if method == "subscribe" and coin in self.subscribed:
            await self.error("Already subscribed: " + quoted)
            return
        if method == "unsubscribe" and coin not in self.subscribed:
            await self.error("Already unsubscribed: " + quoted)
            return
        await self.send(dumps({"channel": "subscriptionResponse", "data": request}))
        if method == "unsubscribe":
            self.subscribed.discard(coin)
            return
        self.subscribed.add(coin)
        back_fill, blocks = LISTED[coin]
        await self.send(dumps({"channel": "trades", "data": back_fill}))
        for block in blocks:
            await asyncio.sleep(0.02)
            if coin in self.subscribed:
                await self.send(dumps({"channel": "trades", "data": block}))


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--idle", type=float, default=60)
    options = parser.parse_args()

    async def handler(ws):
        log("OPEN")
        connection = Connection(ws, options.idle)
        await connection.send("Websocket connection established.")
        watcher = asyncio.ensure_future(connection.watch())
        try:
            async for message in ws:
                if not isinstance(message, str):
                    continue
                if message != '{"method":"ping"}':
                    log("GOT " + message)
                await connection.answer(message)
        except ConnectionClosed:
            pass
        watcher.cancel()
        await ws.wait_closed()
        log_closed(ws, connection.closed_by_us)

    await serve_until_stdin_closes(handler)


if __name__ == "__main__":
    asyncio.run(main())
