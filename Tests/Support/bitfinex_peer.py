#!/usr/bin/env python3
"""A Python `websockets` server that speaks Bitfinex's public WebSocket API v2 closely enough for
the ticker, written from Bitfinex's documentation (docs.bitfinex.com: WebSocket General, Public
Channels, Trades) and independent of our own server code (docs/protocols.md §11).

Usage: bitfinex_peer.py [--heartbeat SECONDS] [--idle SECONDS]
Prints "PORT <n>" once listening, then serves (any path) until stdin closes. For each connection:
"OPEN", then "GOT <text>" for every text message received, "HB <chanId>" for every heartbeat it
sends, "DROPPED" when it drops an idle connection, and "CLOSED <code> <reason>" when the
connection ends (the client's close frame; 1006 when none came).

What it does, as Bitfinex does:
  on connecting        {"event":"info","version":2,"serverId":…,"platform":{"status":1}}
  {"event":"subscribe","channel":"trades","symbol":S}
      for tBTCUSD and tETHUSD (the pairs it lists): {"event":"subscribed","channel":"trades",
      "chanId":N,"symbol":S,"pair":…} with a channel id of this connection, the snapshot
      [N,[[ID,MTS,AMOUNT,PRICE],…]] (newest first), then two trades, each sent as "te" and again
      as "tu"; a pair already subscribed: error 10301 "subscribe: dup" naming its chanId; any
      other pair: {"channel":"trades","symbol":S,"event":"error","msg":"symbol: invalid",
      "code":10300,"pair":…}
  {"event":"unsubscribe","chanId":N}  ->  {"event":"unsubscribed","status":"OK","chanId":N},
      or error 10400 "unsubscribe: invalid" for a channel it does not have
  {"event":"ping","cid":C}  ->  {"event":"pong","ts":…,"cid":C}
  --heartbeat S (default 15; 0: none): a channel that carried nothing for S seconds gets
      [N,"hb"]
  --idle S (default 60): a connection without a channel whose client sent nothing for S seconds
      is dropped, without a close frame
"""
import argparse
import asyncio
import json
import time

from websockets.exceptions import ConnectionClosed

from peerlib import log, log_closed, serve_until_stdin_closes

# Trades as Bitfinex writes them, [ID, MTS, AMOUNT, PRICE]; the numbers spliced in as text so that
# every digit is the one the test expects. The snapshot newest first, then the live trades.
LISTED = {
    "tBTCUSD": {
        "snapshot": ["[1843000003,1791966100300,-0.02,97500]", "[1843000002,1791966100100,0.0031,97499]",
                     "[1843000001,1791966099000,0.5,97498]"],
        "trades": ["[1843000004,1791966101000,0.00081204,97501]",
                   "[1843000005,1791966101500,-1.7023900800000002,97502]"],
    },
    "tETHUSD": {
        "snapshot": ["[1843100002,1791966100200,1.25,3512.4]", "[1843100001,1791966099500,-0.4,3512.3]"],
        "trades": ["[1843100003,1791966101200,0.05,3512.5]", "[1843100004,1791966101700,-2.1,3512.6]"],
    },
}


def dumps(value):
    return json.dumps(value, separators=(",", ":"))


class Connection:
    def __init__(self, ws, heartbeat, idle):
        self.ws = ws
        self.heartbeat = heartbeat
        self.idle = idle
        self.channels = {}  # chanId -> symbol
        self.last_sent = {}  # chanId -> when the channel last carried something
        self.next_channel = 208
        self.last_client = time.monotonic()
        self.dropped = False

    async def send(self, text, channel=None):
        if channel is not None:
            self.last_sent[channel] = time.monotonic()
        await self.ws.send(text)

    async def watch(self):
        """Heartbeats for quiet channels; the drop of a connection without a channel."""
        while True:
            await asyncio.sleep(0.02)
            now = time.monotonic()
            if not self.channels and now - self.last_client >= self.idle:
                self.dropped = True
                log("DROPPED")
                self.ws.transport.abort()
                return
            if self.heartbeat <= 0:
                continue
            for channel in list(self.channels):
                if now - self.last_sent.get(channel, now) >= self.heartbeat:
                    await self.send(dumps([channel, "hb"]), channel)
                    log(f"HB {channel}")

    async def answer(self, text):
        try:
            request = json.loads(text)
            event = request["event"]
        except (ValueError, KeyError, TypeError):
            return  # Bitfinex does not answer what it cannot read
        if event == "subscribe":
            await self.subscribe(request)
        elif event == "unsubscribe":
            channel = request.get("chanId")
            if channel in self.channels:
                del self.channels[channel]
                self.last_sent.pop(channel, None)
                await self.send(dumps({"event": "unsubscribed", "status": "OK", "chanId": channel}))
            else:
                await self.send(dumps({"event": "error", "msg": "unsubscribe: invalid", "code": 10400}))
        elif event == "ping":
            await self.send(dumps({"event": "pong", "ts": int(time.time() * 1000), "cid": request.get("cid")}))
        else:
            await self.send(dumps({"event": "error", "msg": f"event: invalid ({event})", "code": 10000}))

    async def subscribe(self, request):
        symbol = request.get("symbol")
        echo = {"channel": request.get("channel"), "symbol": symbol}
        pair = symbol[1:] if isinstance(symbol, str) and symbol.startswith("t") else symbol
        if request.get("channel") != "trades" or symbol not in LISTED:
            await self.send(dumps(echo | {"event": "error", "msg": "symbol: invalid", "code": 10300, "pair": pair}))
            return
        open_channel = next((c for c, s in self.channels.items() if s == symbol), None)
        if open_channel is not None:
            await self.send(dumps(echo | {"event": "error", "msg": "subscribe: dup", "code": 10301,
                                          "chanId": open_channel, "pair": pair}))
            return
        channel = self.next_channel
        self.next_channel += 1
        self.channels[channel] = symbol
        await self.send(dumps({"event": "subscribed", "channel": "trades", "chanId": channel, "symbol": symbol,
                               "pair": pair}), channel)
        await self.send(f"[{channel},[{','.join(LISTED[symbol]['snapshot'])}]]", channel)
        for trade in LISTED[symbol]["trades"]:
            await asyncio.sleep(0.05)
            if channel not in self.channels:
                return
            await self.send(f'[{channel},"te",{trade}]', channel)
            await self.send(f'[{channel},"tu",{trade}]', channel)


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--heartbeat", type=float, default=15)
    parser.add_argument("--idle", type=float, default=60)
    options = parser.parse_args()

    async def handler(ws):
        log("OPEN")
        connection = Connection(ws, options.heartbeat, options.idle)
        watcher = asyncio.ensure_future(connection.watch())
        try:
            await ws.send(dumps({"event": "info", "version": 2, "serverId": "2f4c1d6e-8b3a-4f0e-9c57-0d1e2a3b4c5d",
                                 "platform": {"status": 1}}))
            async for message in ws:
                if not isinstance(message, str):
                    continue
                connection.last_client = time.monotonic()
                log("GOT " + message)
                await connection.answer(message)
        except ConnectionClosed:
            pass
        watcher.cancel()
        if connection.dropped:
            return
        await ws.wait_closed()
        log_closed(ws)

    await serve_until_stdin_closes(handler)


if __name__ == "__main__":
    asyncio.run(main())
