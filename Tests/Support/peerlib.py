"""What the independent venue peers (Tests/Support/<venue>_peer.py) share: their line protocol
with the test (LinePeer reads stdout) and their server's life. Nothing here knows a venue, and none
of it is the ticker's code."""
import asyncio
import sys

from websockets.asyncio.server import serve


def log(line):
    print(line, flush=True)


def log_closed(ws, closed_by_us=False):
    """Prints "CLOSED <code> <reason>": the close this server sent when it closed the connection,
    else the one the client sent (1006 when none came)."""
    if closed_by_us:
        sent = ws.protocol.close_sent
        log(f"CLOSED {sent.code} {sent.reason}")
    else:
        received = ws.protocol.close_rcvd
        log(f"CLOSED {received.code if received else 1006} {received.reason if received else ''}")


async def serve_until_stdin_closes(handler, **options):
    """Serves `handler` on a free loopback port (no compression, no pings of its own unless
    `options` say otherwise), prints "PORT <n>", and serves until stdin closes."""
    async with serve(handler, "127.0.0.1", 0, **{"compression": None, "ping_interval": None, **options}) as server:
        port = next(iter(server.sockets)).getsockname()[1]
        log(f"PORT {port}")
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
