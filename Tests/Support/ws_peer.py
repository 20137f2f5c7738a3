#!/usr/bin/env python3
"""An independent WebSocket server (Python `websockets`) for the native engine's tests.

Usage: ws_peer.py SCENARIO [--tls CERT KEY] [--host 127.0.0.1] [--deflate SPEC]
Prints "PORT <n>" on stdout once listening, then serves until stdin closes. After each
connection ends, prints "CLOSED <code> <reason>": the close frame it received from the client
(code 1006 when none arrived), so tests can check what our engine sent.

Compression (permessage-deflate) is off unless --deflate is given:
  --deflate default   websockets' default (compression="deflate": server_max_window_bits=12,
                      client_max_window_bits=12, memLevel 5)
  --deflate plain     a ServerPerMessageDeflateFactory with no parameter
  --deflate P,P,...   a ServerPerMessageDeflateFactory with these parameters: any of
                      server_no_context_takeover, client_no_context_takeover,
                      server_max_window_bits=N, client_max_window_bits=N,
                      require_client_max_window_bits
With compression on, each connection prints "EXTENSIONS <repr>" (what websockets agreed) when it
opens, and the scenarios answer "stats" with "compressed-in N": how many frames from the client
came with RSV1 set (counted by wrapping websockets' decoder).

Scenarios
  echo        echoes every message (text stays text, binary stays binary)
  fragmented  on "go": sends "Hello, " + "fragmented " + "world" as one fragmented text message
  ping        on "go": pings the client with payload b"are-you-there", then sends "pong:ok"
              when the pong arrived (websockets checks the payload)
  close       on "go": closes with code 4000 and reason "bye"
  large       on "go N": sends one binary message of N bytes (byte i = i % 251)
  reject      refuses the upgrade with HTTP 401 and a body
  headers     sends back the request target (path?query) and Host header as two messages
  bomb        on "go N": sends one text message of N spaces (it compresses about 1000 to 1)
"""
import asyncio
import http
import ssl
import sys

from websockets.asyncio.server import serve
from websockets.exceptions import ConnectionClosed
from websockets.extensions import permessage_deflate

COMPRESSED_IN = {"frames": 0}
_decode = permessage_deflate.PerMessageDeflate.decode


def counting_decode(self, frame, *, max_size=None):
    if frame.rsv1:
        COMPRESSED_IN["frames"] += 1
    return _decode(self, frame, max_size=max_size)


permessage_deflate.PerMessageDeflate.decode = counting_decode


async def answered(ws, message):
    """Answers "stats"; True when the message was that."""
    if message == "stats":
        await ws.send(f"compressed-in {COMPRESSED_IN['frames']}")
        return True
    return False


async def echo(ws):
    async for message in ws:
        if not await answered(ws, message):
            await ws.send(message)


async def fragmented(ws):
    async for message in ws:
        if message == "go":
            await ws.send(["Hello, ", "fragmented ", "world"])


async def ping(ws):
    async for message in ws:
        if message == "go":
            waiter = await ws.ping(b"are-you-there")
            await asyncio.wait_for(waiter, 10)
            await ws.send("pong:ok")


async def close(ws):
    async for message in ws:
        if message == "go":
            await ws.close(4000, "bye")


async def large(ws):
    async for message in ws:
        if isinstance(message, str) and message.startswith("go "):
            n = int(message[3:])
            await ws.send(bytes(i % 251 for i in range(n)))


async def bomb(ws):
    async for message in ws:
        if isinstance(message, str) and message.startswith("go "):
            await ws.send(" " * int(message[3:]))


async def headers(ws):
    await ws.send(ws.request.path)
    await ws.send(ws.request.headers.get("Host", ""))
    async for _ in ws:
        pass


def reject_request(connection, request):
    return connection.respond(http.HTTPStatus.UNAUTHORIZED, "token refused\n")


async def main():
    scenario = sys.argv[1]
    args = sys.argv[2:]
    host = "127.0.0.1"
    ctx = None
    deflate = None
    while args:
        flag = args.pop(0)
        if flag == "--tls":
            ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            ctx.load_cert_chain(args.pop(0), args.pop(0))
        elif flag == "--host":
            host = args.pop(0)
        elif flag == "--deflate":
            deflate = args.pop(0)
    handlers = {"echo": echo, "fragmented": fragmented, "ping": ping, "close": close,
                "large": large, "headers": headers, "reject": echo, "bomb": bomb}
    kwargs = {"ssl": ctx, "max_size": 64 * 1024 * 1024, "compression": None}
    if deflate == "default":
        kwargs["compression"] = "deflate"
    elif deflate == "plain":
        kwargs["extensions"] = [permessage_deflate.ServerPerMessageDeflateFactory()]
    elif deflate:
        params = {}
        for item in deflate.split(","):
            name, _, value = item.partition("=")
            params[name] = int(value) if value else True
        kwargs["extensions"] = [permessage_deflate.ServerPerMessageDeflateFactory(**params)]
    if scenario == "reject":
        kwargs["process_request"] = reject_request

    async def guarded(ws):
        if deflate:
            print(f"EXTENSIONS {ws.protocol.extensions!r}", flush=True)
        try:
            await handlers[scenario](ws)
        except ConnectionClosed:
            pass
        await ws.wait_closed()
        print(f"CLOSED {ws.close_code} {ws.close_reason}", flush=True)

    async with serve(guarded, host, 0, **kwargs) as server:
        port = next(iter(server.sockets)).getsockname()[1]
        print(f"PORT {port}", flush=True)
        loop = asyncio.get_running_loop()
        # Serve until the test closes our stdin (or kills us).
        await loop.run_in_executor(None, sys.stdin.read)


if __name__ == "__main__":
    asyncio.run(main())
