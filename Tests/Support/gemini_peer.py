#!/usr/bin/env python3
"""A Python `websockets` server that speaks Gemini's market data v2 closely enough for the ticker,
written from Gemini's documentation and independent of our own server code (docs/protocols.md §10).

Usage: gemini_peer.py [--heartbeat SECONDS]
Prints "PORT <n>" once listening, then serves (any path) until stdin closes. For each connection:
"OPEN", then "GOT <text>" for every text message received, "BEAT" for every heartbeat sent, and
"CLOSED <code> <reason>" when it ends (the close the client sent).

What it does, as Gemini does:
  {"type":"subscribe","subscriptions":[{"name":"l2","symbols":[…]}]}
      for each symbol it lists (only BTCUSD and ETHUSD are), the symbol's first l2_updates at
      once: its book ("changes": [side, price, quantity]), its last trades newest first
      ("trades") and "auction_events"; then, 0.3 s later, two trade messages. A request naming
      none of them: {"reason":"NoValidTradingPairs","result":"error"}, the connection stays.
  {"type":"unsubscribe",…}  →  nothing
  --heartbeat S (default 5): {"type":"heartbeat","timestamp":<ms>} every S seconds from the
  connection's start (0: none). The client owes nothing in return.
"""
import argparse
import asyncio
import json
import time

from websockets.exceptions import ConnectionClosed

from peerlib import log, log_closed, serve_until_stdin_closes

# Per symbol: the book, the last trades (newest first) and two trades to come.
LISTED = {
    "BTCUSD": {
        "book": [["buy", "97412.58", "0.0413"], ["buy", "97412.55", "0.08213"], ["sell", "97412.61", "0.31208"]],
        "trades": [(294811706120, 1791469264038, "97412.58", "0.0013", "sell"),
                   (294811706047, 1791469262911, "97410.40", "0.01", "buy")],
        "next": [(294811706871, 1791469265458, "97412.61", "0.00021", "buy"),
                 (294811707335, 1791469266621, "97412.58", "0.0413", "sell")],
    },
    "ETHUSD": {
        "book": [["buy", "3612.07", "1.5"], ["sell", "3612.35", "0.75"]],
        "trades": [(294811705990, 1791469263502, "3612.10", "0.25", "buy")],
        "next": [(294811706902, 1791469265733, "3612.35", "0.102", "buy"),
                 (294811707410, 1791469266804, "3612.07", "1.5", "sell")],
    },
}


def dumps(value):
    return json.dumps(value, separators=(",", ":"))


def trade(symbol, event_id, timestamp, price, quantity, side):
    return {"type": "trade", "symbol": symbol, "event_id": event_id, "timestamp": timestamp, "price": price,
            "quantity": quantity, "side": side}


async def heartbeats(ws, every):
    try:
        while True:
            await asyncio.sleep(every)
            await ws.send(dumps({"type": "heartbeat", "timestamp": int(time.time() * 1000)}))
            log("BEAT")
    except ConnectionClosed:
        pass


async def later(ws, symbol):
    try:
        await asyncio.sleep(0.3)
        for row in LISTED[symbol]["next"]:
            await ws.send(dumps(trade(symbol, *row)))
    except ConnectionClosed:
        pass


async def answer(ws, text, subscribed, tasks):
    try:
        request = json.loads(text)
        kind = request["type"]
        symbols = [s for item in request["subscriptions"] if item.get("name") == "l2" for s in item["symbols"]]
    except (ValueError, KeyError, TypeError, AttributeError):
        await ws.send(dumps({"reason": "InvalidJson", "result": "error"}))
        return
    if kind == "unsubscribe":
        subscribed.difference_update(symbols)
        return
    listed = [s for s in symbols if s in LISTED]
    if not listed:
        await ws.send(dumps({"reason": "NoValidTradingPairs", "result": "error"}))
        return
    for symbol in listed:
        if symbol in subscribed:
            continue
        subscribed.add(symbol)
        entry = LISTED[symbol]
        await ws.send(dumps({"type": "l2_updates", "symbol": symbol, "changes": entry["book"],
                             "trades": [trade(symbol, *row) for row in entry["trades"]], "auction_events": []}))
        tasks.append(asyncio.ensure_future(later(ws, symbol)))


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--heartbeat", type=float, default=5)
    options = parser.parse_args()

    async def handler(ws):
        log("OPEN")
        tasks = []
        if options.heartbeat > 0:
            tasks.append(asyncio.ensure_future(heartbeats(ws, options.heartbeat)))
        subscribed = set()
        try:
            async for message in ws:
                if not isinstance(message, str):
                    continue
                log("GOT " + message)
                await answer(ws, message, subscribed, tasks)
        except ConnectionClosed:
            pass
        for task in tasks:
            task.cancel()
        await ws.wait_closed()
        log_closed(ws)

    await serve_until_stdin_closes(handler)


if __name__ == "__main__":
    asyncio.run(main())
