#!/usr/bin/env python3
"""An independent Kraken WebSocket API v2 server (Python `websockets`) for the ticker's tests: the
venue's own message shapes, written here from Kraken's documentation, not by the ticker's code.

Usage: kraken_peer.py SCENARIO
Prints "PORT <n>" once listening, then serves at /v2 until stdin closes. Prints "CONNECTED" for
each connection, "GOT <text>" for every message it receives, "PONG" after answering a ping, and
after each connection "CLOSED <code> <reason>" (the client's close frame; 1006 when none came).

On every connection: the status update first. Each `subscribe` on the `ticker` channel is
answered once per pair, echoing `req_id`: BTC/USD and ETH/USD are accepted (each followed by its
snapshot, every field Kraken sends, prices as JSON numbers), any other pair is refused with
`"success":false` naming it, as Kraken refuses a pair it does not list. `unsubscribe` is answered
per pair too. `{"method":"ping"}` is answered by `{"method":"pong",…}` (echoing `req_id`).

Scenarios
  updates     after each snapshot, three updates of the pair (a heartbeat between them)
  keepalive   after the snapshots only heartbeats, every 0.2 s, until a ping has been answered;
              then one update of each subscribed pair
"""
import asyncio
import datetime
import json
import sys

from websockets.asyncio.server import serve
from websockets.exceptions import ConnectionClosed

PAIRS = {
    # last prices: the snapshot's, then the updates'
    "BTC/USD": ["80912.4", "80915.0", "80909.8", "80911.25"],
    "ETH/USD": ["2612.17", "2612.2", "2611.9", "2612.0"],
}


def log(line):
    print(line, flush=True)


def now():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def compact(value):
    return json.dumps(value, separators=(",", ":"))


def answer(method, req_id, **members):
    """An answer in Kraken's member order (alphabetical), with its times."""
    body = dict(members, time_in=now(), time_out=now())
    if method is not None:
        body["method"] = method
    if req_id is not None:
        body["req_id"] = req_id
    return compact(dict(sorted(body.items())))


def ticker(pair, last, kind, second):
    # The prices are spliced in as text, so that every digit is exactly the one the test expects.
    entry = (
        '{"symbol":%s,"bid":%s,"bid_qty":0.52031211,"ask":%s,"ask_qty":3.04471102,"last":%s,'
        '"volume":1422.57318944,"vwap":80521.7,"low":79688.0,"high":81250.0,"change":1048.9,'
        '"change_pct":1.31,"timestamp":"2026-09-21T14:02:%02d.462409Z"}'
    ) % (json.dumps(pair), last, last, last, second)
    return '{"channel":"ticker","type":"%s","data":[%s]}' % (kind, entry)


STATUS = compact({"channel": "status", "data": [{"api_version": "v2", "connection_id": 12393906104898154338,
                                                   "system": "online", "version": "2.0.10"}], "type": "update"})
HEARTBEAT = compact({"channel": "heartbeat"})


async def handle(ws, scenario):
    log("CONNECTED")
    await ws.send(STATUS)
    subscribed = []
    pinged = asyncio.Event()
    tasks = []

    async def updates(pair):
        prices = PAIRS[pair]
        for i, last in enumerate(prices[1:3], start=1):
            await asyncio.sleep(0.05)
            await ws.send(HEARTBEAT)
            await ws.send(ticker(pair, last, "update", 11 + i))

    async def keepalive():
        while not pinged.is_set():
            if subscribed:
                await ws.send(HEARTBEAT)
            try:
                await asyncio.wait_for(pinged.wait(), 0.2)
            except asyncio.TimeoutError:
                pass
        for pair in list(subscribed):
            await ws.send(ticker(pair, PAIRS[pair][3], "update", 40))

    if scenario == "keepalive":
        tasks.append(asyncio.ensure_future(keepalive()))
    async for message in ws:
        log("GOT " + (message if isinstance(message, str) else message.hex()))
        try:
            request = json.loads(message)
        except ValueError:
            await ws.send(answer(None, None, error="Malformed request", success=False))
            continue
        method = request.get("method")
        req_id = request.get("req_id")
        if method == "ping":
            await ws.send(answer("pong", req_id))
            log("PONG")
            pinged.set()
            continue
        params = request.get("params") or {}
        if method not in ("subscribe", "unsubscribe") or params.get("channel") != "ticker":
            await ws.send(answer(method, req_id, error="Unsupported request", success=False))
            continue
        for pair in params.get("symbol") or []:
            if method == "unsubscribe":
                if pair in subscribed:
                    subscribed.remove(pair)
                    await ws.send(answer(method, req_id, result={"channel": "ticker", "symbol": pair}, success=True))
                else:
                    await ws.send(answer(method, req_id, error="Subscription Not Found", success=False, symbol=pair))
            elif pair not in PAIRS:
                await ws.send(answer(method, req_id, error="Currency pair not supported " + pair, success=False,
                                     symbol=pair))
            elif pair in subscribed:
                await ws.send(answer(method, req_id, error="Already subscribed", success=False, symbol=pair))
            else:
                subscribed.append(pair)
                result = {"channel": "ticker", "snapshot": True, "symbol": pair}
                await ws.send(answer(method, req_id, result=result, success=True))
                await ws.send(ticker(pair, PAIRS[pair][0], "snapshot", 11))
                if scenario == "updates":
                    tasks.append(asyncio.ensure_future(updates(pair)))
    for task in tasks:
        task.cancel()


async def main():
    scenario = sys.argv[1]

    async def handler(ws):
        if ws.request.path.split("?")[0] != "/v2":
            await ws.close(1008, "not /v2")
            return
        try:
            await handle(ws, scenario)
        except ConnectionClosed:
            pass
        await ws.wait_closed()
        log(f"CLOSED {ws.close_code} {ws.close_reason}")

    async with serve(handler, "127.0.0.1", 0, compression=None, ping_interval=None) as server:
        port = next(iter(server.sockets)).getsockname()[1]
        log(f"PORT {port}")
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)


if __name__ == "__main__":
    asyncio.run(main())
