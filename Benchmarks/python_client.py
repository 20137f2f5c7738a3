#!/usr/bin/env python3
"""The Python anchor for bench.py: a `websockets` client that JSON-decodes each Finnhub message
and prints `symbol price` for each trade, until the server closes the connection.

    python_client.py ws://127.0.0.1:PORT/
"""
import asyncio
import json
import sys

from websockets.asyncio.client import connect


async def main(url: str) -> None:
    out = sys.stdout
    async with connect(url, max_size=None, compression=None) as websocket:
        async for message in websocket:
            decoded = json.loads(message)
            for trade in decoded.get("data") or ():
                out.write(f"{trade['s']} {trade['p']}\n")
    out.flush()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
