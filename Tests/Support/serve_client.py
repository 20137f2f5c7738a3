#!/usr/bin/env python3
"""An independent WebSocket client (Python `websockets`) for the `ticker serve` tests.

Usage: serve_client.py URL
Connects, prints "OPEN" (or "REFUSED <status> <headers and body as one line>" when the upgrade
is refused, then exits), then:
- sends each line read on stdin as a text message, except
    "BINARY <hex>"   sends a binary message
    "BIG <n>"        sends a text message of n bytes ({"type":"subscribe","symbol":"xxx…"})
    "CLOSE"          closes with 1000 (so does the end of stdin)
- prints each text message received as "TEXT <message>"
- prints "CLOSED <code> <reason>" when the connection ends (the close the server sent; 1006
  when none came), then exits.
"""
import asyncio
import sys

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus


def say(line):
    print(line, flush=True)


async def main(url):
    try:
        ws = await connect(url, max_size=None, ping_interval=None, open_timeout=10)
    except InvalidStatus as refused:
        response = refused.response
        headers = " ".join(f"{k}: {v}" for k, v in response.headers.raw_items())
        body = response.body.decode("utf-8", "replace").replace("\n", " ") if response.body else ""
        say(f"REFUSED {response.status_code} {headers} {body}")
        return
    say("OPEN")
    loop = asyncio.get_running_loop()

    async def reader():
        try:
            async for message in ws:
                if isinstance(message, str):
                    say("TEXT " + message)
                else:
                    say("BINARY " + message.hex())
        except ConnectionClosed:
            pass
        received = ws.protocol.close_rcvd
        if received is None:
            say("CLOSED 1006 ")
        else:
            say(f"CLOSED {received.code} {received.reason}")

    async def writer():
        while True:
            line = await loop.run_in_executor(None, sys.stdin.readline)
            if not line:
                await ws.close(1000)
                return
            line = line.rstrip("\n")
            try:
                if line.startswith("BINARY "):
                    await ws.send(bytes.fromhex(line[7:]))
                elif line.startswith("BIG "):
                    n = int(line[4:])
                    head = '{"type":"subscribe","symbol":"'
                    await ws.send(head + "x" * (n - len(head) - 2) + '"}')
                elif line == "CLOSE":
                    await ws.close(1000)
                    return
                else:
                    await ws.send(line)
            except ConnectionClosed:
                return

    read = asyncio.ensure_future(reader())
    asyncio.ensure_future(writer())
    await read


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
    sys.stdout.flush()
    # The stdin reader thread may still be blocked: leave without waiting for it.
    import os

    os._exit(0)
