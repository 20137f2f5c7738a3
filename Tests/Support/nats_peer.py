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
    else:
        sys.exit(f"unknown command {command}")


if __name__ == "__main__":
    main()
