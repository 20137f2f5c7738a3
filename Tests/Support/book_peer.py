#!/usr/bin/env python3
"""An independent venue peer for the top of book (`--bid-ask`): a Python `websockets` server that
plays one venue's real top-of-book messages, as its documentation and captures show them, from a
fixture (Tests/Fixtures/book/<venue>.json). It shares no code with FeedServer; nothing in it knows
the ticker's decoding.

Usage: book_peer.py FIXTURE

The fixture: {"steps": [STEP, ...]}, each step one of
  {"expect": "TEXT"}          wait for a client message containing TEXT ("GOT <message>" is
                              printed for every client message, expected or not)
  {"send": "TEXT"}            send TEXT as a text frame
  {"send": "TEXT", "binary": true}   send TEXT's UTF-8 as a binary frame (Upbit, Bithumb)
  {"reply": "TEXT", "to": "MATCH"}   from now on, answer every client message containing MATCH
                              with TEXT ("{id}" in TEXT becomes the request's "id", "{req_id}" its
                              "req_id": acknowledgements of venues that number requests)
After the steps the connection stays open, answering replies, until the client closes it.
Prints "PORT <n>" once listening, "OPEN" per connection, "CLOSED <code> <reason>" after each.
"""
import asyncio
import json
import sys

from peerlib import log, log_closed, serve_until_stdin_closes

FIXTURE = json.load(open(sys.argv[1], encoding="utf-8"))


def answer(template, message):
    try:
        request = json.loads(message)
    except ValueError:
        request = {}
    if not isinstance(request, dict):
        request = {}
    return template.replace("{id}", json.dumps(request.get("id"))).replace(
        "{req_id}", str(request.get("req_id", "")))


async def handler(ws):
    log("OPEN")
    replies = []
    inbox = asyncio.Queue()

    async def read():
        async for message in ws:
            text = message if isinstance(message, str) else message.decode("utf-8", "replace")
            log("GOT " + text)
            for template, match in replies:
                if match in text:
                    await ws.send(answer(template, text))
            await inbox.put(text)

    reader = asyncio.create_task(read())
    try:
        for step in FIXTURE["steps"]:
            if "expect" in step:
                while step["expect"] not in await inbox.get():
                    pass
            elif "reply" in step:
                replies.append((step["reply"], step["to"]))
            elif step.get("binary"):
                await ws.send(step["send"].encode("utf-8"))
            else:
                await ws.send(step["send"])
        await reader
    except Exception:
        pass
    finally:
        reader.cancel()
        log_closed(ws)


if __name__ == "__main__":
    asyncio.run(serve_until_stdin_closes(handler))
