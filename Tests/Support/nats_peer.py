#!/usr/bin/env python3
"""NATS peers for the `--publish` tests: an independent subscriber and JetStream helpers built on
nats-py (PyPI), and hostile fake servers built on the standard library.

Usage:
  nats_peer.py sub URL SUBJECT
      Subscribes, prints "READY" once the server has the subscription, then one line per message:
      "MSG <subject> <payload>" (payloads are single lines). Runs until stdin closes.
  nats_peer.py stream-add URL NAME SUBJECT
      Adds a JetStream stream (file storage) capturing SUBJECT; prints "OK".
  nats_peer.py stream-count URL NAME
      Prints the number of messages in the stream.
  nats_peer.py stream-wait URL NAME N
      Reads the stream from its start with an ordered consumer until N messages have been
      delivered; prints N, or "TIMEOUT <seen>" after 25 s (a hang guard).
  nats_peer.py stream-dump URL NAME
      Prints "MSG <subject> <payload>" for every message in the stream, in order, then "END".
  nats_peer.py giant-info
      A fake server: prints "PORT <n>", then to each client sends "INFO {" followed by up to 256 MiB
      without a newline (as fast as the client reads), until stdin closes.
  nats_peer.py silent
      A fake server: prints "PORT <n>", sends each client a valid INFO, then never reads and never
      answers, until stdin closes.
  nats_peer.py stall
      A fake server: prints "PORT <n>", completes each client's handshake (INFO; the PONG to the
      PING after CONNECT), prints "STALLED", then never reads nor answers again, until stdin closes.
  nats_peer.py hostile-source
      A fake server for a `--source` subscriber: prints "PORT <n>", and "CONNECTED" for each
      client; answers PINGs; to each subscription sends a price whose symbol holds an escape
      sequence (raw, then JSON-escaped), a payload that is not JSON and one valid price (BTCUSDT
      at 70000.10); answers a
      JetStream stream lookup with no stream; after the PONG that follows it, announces a MSG of
      1 GiB (and sends none of it).
"""
import asyncio
import socket
import sys
import threading


def wait_for_stdin_end():
    sys.stdin.read()


async def sub(url, subject):
    import nats

    nc = await nats.connect(url, max_reconnect_attempts=-1, reconnect_time_wait=0.2)

    async def on_message(msg):
        print(f"MSG {msg.subject} {msg.data.decode()}", flush=True)

    await nc.subscribe(subject, cb=on_message)
    await nc.flush()
    print("READY", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, wait_for_stdin_end)
    await nc.close()


async def stream(command, url, name, subject=None):
    import nats

    nc = await nats.connect(url)
    js = nc.jetstream()
    if command == "stream-add":
        from nats.js.api import StorageType, StreamConfig

        await js.add_stream(StreamConfig(name=name, subjects=[subject], storage=StorageType.FILE))
        print("OK", flush=True)
    elif command == "stream-wait":
        info = await js.stream_info(name)
        wanted = int(subject)
        enough = asyncio.Event()
        seen = 0

        async def on_message(msg):
            nonlocal seen
            seen += 1
            if seen >= wanted:
                enough.set()

        await js.subscribe(info.config.subjects[0], stream=name, ordered_consumer=True, cb=on_message)
        try:
            await asyncio.wait_for(enough.wait(), 25)
            print(wanted, flush=True)
        except asyncio.TimeoutError:
            print(f"TIMEOUT {seen}", flush=True)
    else:
        info = await js.stream_info(name)
        count = info.state.messages
        if command == "stream-count":
            print(count, flush=True)
        else:
            first = info.state.first_seq
            for seq in range(first, first + count):
                msg = await js.get_msg(name, seq)
                print(f"MSG {msg.subject} {msg.data.decode()}", flush=True)
            print("END", flush=True)
    await nc.close()


def fake_server(handler):
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    print(f"PORT {listener.getsockname()[1]}", flush=True)

    def accept():
        while True:
            client, _ = listener.accept()
            threading.Thread(target=handler, args=(client,), daemon=True).start()

    threading.Thread(target=accept, daemon=True).start()
    wait_for_stdin_end()


def giant_info(client):
    try:
        client.sendall(b"INFO {")
        chunk = b"x" * (1 << 20)
        for _ in range(256):
            client.sendall(chunk)
    except OSError:
        pass
    client.close()


SILENT_CLIENTS = []


def silent(client):
    client.sendall(b'INFO {"server_id":"silent","version":"0.0.0","max_payload":1048576}\r\n')
    SILENT_CLIENTS.append(client)  # kept open, never read


def stall(client):
    client.sendall(b'INFO {"server_id":"stall","version":"0.0.0","max_payload":1048576}\r\n')
    received = b""
    while b"PING\r\n" not in received:
        data = client.recv(4096)
        if not data:
            return
        received += data
    client.sendall(b"PONG\r\n")
    print("STALLED", flush=True)
    SILENT_CLIENTS.append(client)  # kept open, never read again


VALID = (b'{"symbol":"BTCUSDT","price":70000.10,"time":"2026-12-04T00:00:00.000Z","t":1796342400000,'
         b'"volume":null,"received":null,"rt":null,"provider":"binance"}')


def hostile_source(client):
    print("CONNECTED", flush=True)
    client.sendall(b'INFO {"server_id":"hostile","version":"0.0.0","max_payload":1048576}\r\n')
    received = b""
    pings = 0
    try:
        while True:
            data = client.recv(4096)
            if not data:
                return
            received += data
            while b"\r\n" in received:
                line, received = received.split(b"\r\n", 1)
                words = line.split()
                if line.startswith(b"PING"):
                    pings += 1
                    client.sendall(b"PONG\r\n")
                    if pings == 3:  # after the CONNECT's, the SUB's and the one after the lookup
                        client.sendall(b"MSG ticker.binance.BTCUSDT 1 1073741824\r\n")
                elif line.startswith(b"SUB ") and not words[1].startswith(b"_INBOX"):
                    subject, sid = words[1], words[2]

                    def msg(payload):
                        return b"MSG %s %s %d\r\n%s\r\n" % (subject, sid, len(payload), payload)

                    client.sendall(
                        msg(b'{"symbol":"BTC\x1b[2JUSDT","price":1,"t":1,"provider":"binance"}')
                        + msg(b'{"symbol":"BTC\\u001b[2JUSDT","price":2,"t":2,"provider":"binance"}')
                        + msg(b"\x1b[31mnot json") + msg(VALID))
                elif line.startswith(b"PUB $JS.API.STREAM.NAMES "):
                    answer = b'{"type":"io.nats.jetstream.api.v1.stream_names_response","streams":null}'
                    client.sendall(b"MSG %s inbox %d\r\n%s\r\n" % (words[2], len(answer), answer))
    except OSError:
        pass


def main():
    command = sys.argv[1]
    if command == "sub":
        asyncio.run(sub(sys.argv[2], sys.argv[3]))
    elif command.startswith("stream-"):
        asyncio.run(stream(command, *sys.argv[2:]))
    elif command == "giant-info":
        fake_server(giant_info)
    elif command == "silent":
        fake_server(silent)
    elif command == "stall":
        fake_server(stall)
    elif command == "hostile-source":
        fake_server(hostile_source)
    else:
        sys.exit(f"unknown command {command}")


if __name__ == "__main__":
    main()
