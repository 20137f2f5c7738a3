import FeedRuntime
import Outputs
import Testing
import Venues

@testable import NATS

@Suite("NATS client commands and URLs")
struct NATSCommandsTests {
  @Test("PUB: subject, payload size in bytes, payload, CRLF")
  func publish() {
    var out: [UInt8] = []
    NATSCommands.appendPublish(
      subject: Array("ticker.finnhub.AAPL".utf8), payload: Array("{\"p\":\"é\"}".utf8), to: &out)
    #expect(String(decoding: out, as: UTF8.self) == "PUB ticker.finnhub.AAPL 10\r\n{\"p\":\"é\"}\r\n")
  }

  @Test("CONNECT: not verbose, not pedantic, the name, and the credentials when given")
  func connect() {
    let plain = String(
      decoding: NATSCommands.connect(name: "ticker", version: "0.1.0", credentials: nil), as: UTF8.self)
    #expect(
      plain
        == #"CONNECT {"verbose":false,"pedantic":false,"tls_required":false,"name":"ticker","lang":"swift","version":"0.1.0","protocol":1,"echo":false,"headers":false,"no_responders":false}"#
        + "\r\n")
    let user = String(
      decoding: NATSCommands.connect(
        name: "ticker", version: "1", credentials: .userPassword(user: "u\"", password: "p@ss")),
      as: UTF8.self)
    #expect(user.hasSuffix(#","user":"u\"","pass":"p@ss"}"# + "\r\n"))
    let token = String(
      decoding: NATSCommands.connect(name: "t", version: "1", credentials: .token("s3")), as: UTF8.self)
    #expect(token.hasSuffix(#","auth_token":"s3"}"# + "\r\n"))
    let tls = String(
      decoding: NATSCommands.connect(name: "t", version: "1", credentials: nil, tls: true), as: UTF8.self)
    #expect(tls.hasPrefix(#"CONNECT {"verbose":false,"pedantic":false,"tls_required":true,"#))
  }

  @Test(
    "URLs that parse",
    arguments: [
      ("nats://127.0.0.1:4222", NATSURL(host: "127.0.0.1", port: 4222)),
      ("nats://localhost", NATSURL(host: "localhost")),
      ("NATS://host:1/", NATSURL(host: "host", port: 1)),
      ("nats://[::1]:5000", NATSURL(host: "::1", port: 5000)),
      (
        "nats://alice:s%40cret@h:4223",
        NATSURL(host: "h", port: 4223, credentials: .userPassword(user: "alice", password: "s@cret"))
      ),
      ("nats://tok@h", NATSURL(host: "h", credentials: .token("tok"))),
      ("tls://h:4443", NATSURL(host: "h", port: 4443, isSecure: true)),
      (
        "TLS://u:p@[::1]",
        NATSURL(host: "::1", credentials: .userPassword(user: "u", password: "p"), isSecure: true)
      ),
    ])
  func parses(text: String, url: NATSURL) throws {
    #expect(try NATSURL(parsing: text) == url)
  }

  @Test(
    "URLs that do not, with the reason",
    arguments: [
      ("http://h:4222", "the URL must start with nats:// or tls://"),
      ("tls://h:4222/x", "a NATS URL has no path, query or fragment: nats://HOST:PORT"),
      ("nats://h:0", "invalid port \"0\" (1 to 65535)"),
      ("nats://h:65536", "invalid port \"65536\" (1 to 65535)"),
      ("nats://h:http", "invalid port \"http\" (1 to 65535)"),
      ("nats://:4222", "the URL has no host"),
      ("nats://h:4222/subject", "a NATS URL has no path, query or fragment: nats://HOST:PORT"),
      ("nats://h 1", "the URL contains spaces or control characters"),
      ("nats://::1:4222", "an IPv6 address goes in brackets: nats://[::1]:4222"),
      ("nats://:pw@h", "the user name before ':' is empty"),
    ])
  func refuses(text: String, reason: String) {
    #expect(throws: NATSURLError.invalid(reason)) { try NATSURL(parsing: text) }
  }

  @Test("a URL prints without its credentials, and names them as secrets")
  func redacted() throws {
    let url = try NATSURL(parsing: "nats://alice:hunter2@nats.example:4222")
    #expect(url.description == "nats://***@nats.example:4222")
    #expect(try NATSURL(parsing: "tls://tok@h").description == "tls://***@h:4222")
    #expect(url.secrets == ["hunter2"])
    #expect(try NATSURL(parsing: "nats://[::1]").description == "nats://[::1]:4222")
  }
}

@Suite("NATS client commands: sizes")
struct NATSCommandSizeTests {
  @Test("payload sizes in decimal", arguments: [0, 1, 9, 10, 99, 100, 101, 1000, 65_536, 1_048_576])
  func decimal(n: Int) {
    var out: [UInt8] = []
    NATSCommands.appendDecimal(n, to: &out)
    #expect(String(decoding: out, as: UTF8.self) == String(n))
  }
}
