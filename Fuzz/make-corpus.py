#!/usr/bin/env python3
"""Regenerates the seed corpus in Fuzz/corpus/ from hand-written cases and the test fixtures.

Run from anywhere: python3 Fuzz/make-corpus.py. Files are named by content (seed-<name>), so
rerunning it rewrites the same files. Reproducers of fixed bugs are added by hand as
Fuzz/corpus/<target>/regression-<what> and are not touched here.
"""
import json
import os
import struct
import zlib

root = os.path.dirname(os.path.abspath(__file__))
repo = os.path.dirname(root)


def write(target, name, data):
    d = os.path.join(root, "corpus", target)
    os.makedirs(d, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    with open(os.path.join(d, "seed-" + name), "wb") as f:
        f.write(data)


def frame(opcode, payload=b"", fin=True, mask=None, rsv1=False):
    b0 = (0x80 if fin else 0) | (0x40 if rsv1 else 0) | opcode
    n = len(payload)
    mbit = 0x80 if mask is not None else 0
    if n <= 125:
        head = bytes([b0, mbit | n])
    elif n <= 0xFFFF:
        head = bytes([b0, mbit | 126]) + struct.pack(">H", n)
    else:
        head = bytes([b0, mbit | 127]) + struct.pack(">Q", n)
    if mask is None:
        return head + payload
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return head + bytes(mask) + masked


# frames: the first byte is the harness's control byte (bit 0: 0 client / 1 server role,
# bit 1: 125-byte limit, bits 2-7: split position).
key = [0x37, 0xFA, 0x21, 0x3D]
client = {
    "rfc-hello": frame(1, b"Hello"),
    "rfc-fragmented": frame(1, b"Hel", fin=False) + frame(0, b"lo"),
    "rfc-ping-pong": frame(9, b"Hello") + frame(10, b"Hello"),
    "rfc-binary-256": frame(2, bytes(range(256))),
    "len16-200": frame(2, b"x" * 200),
    "ping-between-fragments": frame(1, b"ab", fin=False) + frame(9) + frame(0, b"cd"),
    "close-1000": frame(8, struct.pack(">H", 1000) + b"bye"),
    "close-empty": frame(8),
    "close-bad-code": frame(8, struct.pack(">H", 1005)),
    "text-utf8": frame(1, "€ 95 372,10 ✓".encode()),
    "text-invalid-utf8": frame(1, b"\xc3\x28"),
    "len64-nonminimal": bytes([0x82, 127]) + struct.pack(">Q", 5) + b"hello",
    "reserved-opcode": bytes([0x83, 0]),
    "rsv-set": bytes([0xC1, 1]) + b"a",
}
for name, data in client.items():
    write("frames", "client-" + name, bytes([0x10]) + data)
write("frames", "server-rfc-masked-hello", bytes([0x11]) + frame(1, b"Hello", mask=key))
write("frames", "server-masked-close", bytes([0x21]) + frame(8, struct.pack(">H", 1001), mask=key))
write("frames", "server-small-limit", bytes([0x13]) + frame(2, b"y" * 130, mask=key))

# handshake: responses (client side) and requests (server side), and URLs.
accept = "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="
write("handshake", "101", "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
      "Connection: Upgrade\r\nSec-WebSocket-Accept: " + accept + "\r\n\r\n")
write("handshake", "101-with-frame", "HTTP/1.1 101 Switching Protocols\r\nupgrade: WebSocket\r\n"
      "connection: keep-alive, Upgrade\r\nsec-websocket-accept: " + accept + "\r\n\r\n\x81\x02hi")
write("handshake", "401", "HTTP/1.1 401 Unauthorized\r\nContent-Type: text/plain\r\n"
      "Content-Length: 12\r\nConnection: close\r\n\r\nUnauthorized")
write("handshake", "429-retry", "HTTP/1.1 429 Too Many Requests\r\nRetry-After: 30\r\n\r\n")
write("handshake", "101-extension", "HTTP/1.1 101 OK\r\nUpgrade: websocket\r\nConnection: upgrade\r\n"
      "Sec-WebSocket-Accept: " + accept + "\r\nSec-WebSocket-Extensions: permessage-deflate\r\n\r\n")
write("handshake", "folded", "HTTP/1.1 101 OK\r\nUpgrade: websocket\r\n  folded\r\n\r\n")
write("handshake", "request", "GET /chat?token=abc HTTP/1.1\r\nHost: server.example.com\r\n"
      "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
      "Sec-WebSocket-Version: 13\r\n\r\n")
write("handshake", "request-post", "POST / HTTP/1.0\r\nHost: a\r\n\r\n")
write("handshake", "url", "wss://ws.finnhub.io/?token=abc")
write("handshake", "url-ipv6", "ws://[::1]:8080/feed?x=1#frag")

# finnhub: every body of the recorded sessions (server and client lines), plus edge cases.
fixtures = os.path.join(repo, "Tests", "Fixtures")
for fixture in sorted(os.listdir(fixtures)):
    if not fixture.endswith(".ndjson"):
        continue
    with open(os.path.join(fixtures, fixture)) as f:
        for i, line in enumerate(f):
            entry = json.loads(line)
            if entry.get("kind") in ("text", "binary"):
                write("finnhub", "%s-%02d" % (fixture[:-len(".ndjson")], i), entry["body"])
write("finnhub", "exponents", '{"type":"trade","data":[{"p":1.16539E8,"s":"X","t":1,"v":4.9E-4}]}')
write("finnhub", "partial", '{"type":"trade","data":[{"p":"1","s":"X","t":1},{"p":-0.0,"s":"Y","t":2}]}')
write("finnhub", "escapes", '{"type":"error","msg":"\\u00e9\\ud83d\\ude00\\n\\"","x":[true,false,null]}')
write("finnhub", "price-text", "78860.00000000")
write("finnhub", "price-exp", "-0.5e-400")

# upbit, binance, coinbase, kraken, okx: each venue's recorded session, edge cases of its shapes,
# symbol lists (the harnesses also build subscription messages from comma-separated input).
for venue in ("upbit", "binance", "coinbase", "kraken", "okx"):
    with open(os.path.join(fixtures, venue + "-session.ndjson")) as f:
        for i, line in enumerate(f):
            entry = json.loads(line)
            if entry.get("kind") in ("text", "binary"):
                write(venue, "session-%02d" % i, entry["body"])
write("upbit", "default-keys", '{"type":"ticker","code":"KRW-ETH","trade_price":4.5E6,"trade_volume":1.2E-3,'
      '"trade_timestamp":1771247814642,"timestamp":1771247814700,"stream_type":"REALTIME","delisting_date":null}')
write("upbit", "time-fallback", '{"ty":"ticker","cd":"KRW-BTC","tp":1,"tms":1.771247814642E12,"tv":null}')
write("upbit", "both-spellings", '{"ty":"ticker","type":"trade","cd":"KRW-BTC","code":"X","tp":1,"ttms":1}')
write("upbit", "error-string", '{"error":"boom","status":"UP"}')
write("upbit", "codes", "krw-btc,KRW-ETH,BTC-1INCH,KRW--X,,usdt-btc,KRW-BTC")
write("binance", "bare-trade", '{"e":"trade","E":1789404776251,"s":"BTCUSDT","t":5206081234,'
      '"p":"78860.00000000","q":"0.00009000","T":1789404776250,"m":true,"M":true}')
write("binance", "exponent-price", '{"stream":"x","data":{"e":"trade","s":"A","p":"1.5E2","q":null,"E":7}}')
write("binance", "shutdown", '{"e":"serverShutdown","E":1789404776251}')
write("binance", "list-result", '{"result":["btcusdt@trade"],"id":3}')
write("binance", "symbols", "btcusdt,ETHUSDT,1inchusdt,BTC-USDT,,bnbbtc,BTCUSDT")
write("coinbase", "ticker-offset", '{"type":"ticker","product_id":"ETH-USD","price":"1285.22",'
      '"time":"2024-02-29T23:00:00.5-00:30","last_size":null}')
write("coinbase", "ticker-no-time", '{"type":"ticker","product_id":"ETH-USD","price":"1285.22"}')
write("coinbase", "heartbeat", '{"type":"heartbeat","last_trade_id":1,"product_id":"BTC-USD","sequence":2}')
write("coinbase", "time-micro", "2026-08-25T03:35:57.198335Z")
write("coinbase", "time-leap", "2016-12-31T23:59:60.5z")
write("coinbase", "time-leap-day", "2000-02-29t00:00:00+23:59")
write("coinbase", "products", "btc-usd,ETH-EUR,BTCUSD,,1INCH-USD,BTC-USD")
write("kraken", "two-entries", '{"channel":"ticker","type":"snapshot","data":[{"symbol":"BTC/USD","last":8.09124E4,'
      '"timestamp":"2026-09-21T14:02:11.462409Z"},{"symbol":"ETH/USD","last":null,"timestamp":null},7]}')
write("kraken", "no-timestamp", '{"channel":"ticker","type":"update","data":[{"symbol":"BTC/USD","bid":80912.3,'
      '"last":80912.4}]}')
write("kraken", "refusal-no-symbol", '{"error":"Exceeded msg rate","method":"subscribe","req_id":4,"success":false}')
write("kraken", "unsubscribe-refused", '{"error":"Subscription Not Found","method":"unsubscribe","req_id":3,'
      '"success":false,"symbol":"ETH/USD"}')
write("kraken", "ack-unsubscribe", '{"method":"unsubscribe","req_id":7,"result":{"channel":"ticker",'
      '"symbol":"BTC/USD"},"success":true,"time_in":"2026-09-21T14:02:11.462301Z","time_out":"2026-09-21T14:02:11.462318Z"}')
write("kraken", "book", '{"channel":"book","type":"snapshot","data":[{"symbol":"BTC/USD","bids":[],"asks":[]}]}')
write("kraken", "last-long", "0.000012345678901234")
write("kraken", "last-exp", "-1.5e-7")
write("kraken", "time-nanos", "2026-10-06T18:06:02.264627814Z")
write("kraken", "time-offset", "2026-09-21T16:02:11.5+02:00")
write("kraken", "pairs", "btc/usd,ETH/EUR,XBT/USD,,1INCH/USD,BTC-USD,BTC/USD,a/b/c")
write("okx", "two-entries", '{"arg":{"channel":"tickers","instId":"A-B"},"data":[{"instId":"A-B","last":"1.50",'
      '"lastSz":"","ts":"1"},{"last":"","ts":2},{"instId":"A-B","last":"2","lastSz":null,"ts":"3"}]}')
write("okx", "error-old", '{"event":"error","msg":"channel:tickers,instId:LTC-USD doesn\'t exist","code":"60018"}')
write("okx", "error-new", '{"event":"error","msg":"Subscribe failed, wrong URL or channel:tickers,instId:X-Y '
      'doesn\'t exist.","code":"60018","connId":"e1f69f02"}')
write("okx", "error-invalid", '{"id":"1512","event":"error","code":"60012","msg":"Invalid request: '
      '{\\"op\\": \\"subscribe\\", \\"argss\\":[]}","connId":"a4d3ae55"}')
write("okx", "notice", '{"event":"notice","code":"64008","msg":"The connection will soon be closed for a service '
      'upgrade. Please reconnect.","connId":"a4d3ae55"}')
write("okx", "unsubscribe", '{"event":"unsubscribe","arg":{"channel":"tickers","instId":"BTC-USDT"},"connId":"d0b44253"}')
write("okx", "trades", '{"arg":{"channel":"trades","instId":"BTC-USDT"},"data":[{"instId":"BTC-USDT","px":"1"}]}')
write("okx", "last-exponent", "1.5E2")
write("okx", "last-text", "0.000012340")
write("okx", "instruments", "btc-usdt,ETH-BTC,BTCUSDT,,BTC-USDT-SWAP,1INCH-USDT,BTC-USDT")

# config: the example file and a few variants.
with open(os.path.join(repo, "config.example.json"), "rb") as f:
    write("config", "example", f.read())
write("config", "symbols-string", '{"symbols":"BINANCE:BTCUSDT, IC MARKETS:1","count":3,"maxWait":null}')
write("config", "seconds", '{"debounce":1e-1,"connectTimeout":86400,"maxMessageSize":125}')
write("config", "unknown-key", '{"tokn":"x"}')
write("config", "url", '{"url":"ws://[::1]:9/x","engine":"NATIVE","format":"json","color":"never"}')

# text: symbols, reasons and error texts as a hostile server might send them.
write("text", "symbol", "BINANCE:BTCUSDT")
write("text", "hostile", b"EVIL\x1b[2J\x1b]0;pwned\x07\t1\n\r\x7f\xc2\x85\xc2\x9b31m\xe2\x80\xaeX")
write("text", "unicode", 'IC MARKETS:1 κόσμε \\ "q"')
write("text", "invalid", b"\xff\xfe\x00\xed\xa0\x80")


# inflate: the first byte is the harness's control byte (bit 0 no context takeover, bits 1-3 the
# window, bit 4 a 4 KiB limit, bits 5-7 the split point); then compressed server frames, made with
# Python's zlib as a permessage-deflate sender does (raw DEFLATE, sync flush, 00 00 ff ff removed).
def compressed_messages(messages, wbits=15, reset=False):
    out = b""
    c = zlib.compressobj(wbits=-wbits)
    for m in messages:
        if reset:
            c = zlib.compressobj(wbits=-wbits)
        data = c.compress(m) + c.flush(zlib.Z_SYNC_FLUSH)
        out += frame(1, data[:-4], rsv1=True)
    return out


trades = [json.dumps({"data": [{"p": 95000 + i * 0.01, "s": "BINANCE:BTCUSDT", "t": 1768655932976 + i, "v": 0.001}],
                      "type": "trade"}).encode() for i in range(8)]
write("inflate", "context-takeover", bytes([0x0C]) + compressed_messages(trades))
write("inflate", "no-context-takeover", bytes([0x0D]) + compressed_messages(trades, reset=True))
write("inflate", "window-9", bytes([0x00]) + compressed_messages(trades, wbits=9))
write("inflate", "rfc-hello", bytes([0x0C]) + bytes.fromhex("c107f248cdc9c90700"))
write("inflate", "rfc-fragmented", bytes([0x6C]) + bytes.fromhex("4103f248cd8004c9c90700"))
write("inflate", "rfc-bfinal-then-shared", bytes([0x0C]) + bytes.fromhex("c108f348cdc9c9070000c105f200110000"))
write("inflate", "mixed-plain-and-compressed", bytes([0x4C]) + frame(1, b"plain") + compressed_messages(trades[:2])
      + frame(9, b"ping"))
bomb = zlib.compressobj(wbits=-15)
write("inflate", "bomb", bytes([0x1C]) + frame(2, (bomb.compress(b"\0" * 200000) + bomb.flush(zlib.Z_SYNC_FLUSH))[:-4],
                                              rsv1=True))


# nats: what a server sends a --source subscriber (INFO, PING, MSG with published lines).
info = ('INFO {"server_id":"N","version":"2.9.10","proto":1,"max_payload":1048576,"headers":true}\r\n')
line = ('{"symbol":"BTCUSDT","price":78860.00000000,"time":"2026-09-14T16:52:56.250Z","t":1789404776250,'
        '"volume":0.00100000,"received":"2026-09-14T16:52:56.300Z","rt":1789404776300,"provider":"binance"}')
write("nats", "session", info + "PONG\r\n" + f"MSG ticker.binance.BTCUSDT 1 {len(line)}\r\n{line}\r\nPING\r\n")
write("nats", "reply-to", f"MSG ticker.binance.BTCUSDT 2 _INBOX.x {len(line)}\r\n{line}\r\n")
write("nats", "payload-with-crlf", "MSG a 1 12\r\nMSG in\r\nside\r\n+OK\r\n-ERR 'Permissions Violation'\r\n")
write("nats", "published-line", line)
write("nats", "nulls", '{"symbol":"A","price":1.5,"t":7,"volume":null,"received":null,"rt":null,"provider":"binance"}')
