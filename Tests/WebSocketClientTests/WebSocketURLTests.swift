import Testing

@testable import Transport
@testable import WebSocketServer
@testable import WebSocketWire

@Suite struct WebSocketURLTests {
  @Test(
    arguments: [
      ("ws://127.0.0.1:9001/feed?x=1", false, "127.0.0.1", 9001, "/feed?x=1"),
      ("wss://ws.finnhub.io", true, "ws.finnhub.io", 443, "/"),
      ("wss://ws.finnhub.io?token=abc", true, "ws.finnhub.io", 443, "/?token=abc"),
      ("WS://Example.com/a/b", false, "Example.com", 80, "/a/b"),
      ("ws://[::1]:8080/x", false, "::1", 8080, "/x"),
      ("wss://[2001:db8::1]/", true, "2001:db8::1", 443, "/"),
      (
        "wss://stream.binance.com:9443/ws/btcusdt@trade", true, "stream.binance.com", 9443,
        "/ws/btcusdt@trade"
      ),
      ("ws://h/p#fragment", false, "h", 80, "/p"),
    ])
  func parses(text: String, secure: Bool, host: String, port: Int, target: String) throws {
    let url = try WebSocketURL(parsing: text)
    #expect(url.isSecure == secure)
    #expect(url.host == host)
    #expect(url.port == port)
    #expect(url.target == target)
  }

  @Test(arguments: [
    "http://h/", "ws://", "ws://:80/", "ws://h:0/", "ws://h:70000/", "ws://h:x/", "ws://u@h/", "ws://[::1/",
    // Found by the handshake fuzzer: these would reach the request line or Host header.
    "ws://h/a\r\nX-Evil: 1", "ws://h/a b", "ws://h\u{0}x/", "ws://h/\u{7F}",
  ])
  func rejects(text: String) {
    #expect(throws: InvalidWebSocketURL.self) { try WebSocketURL(parsing: text) }
  }

  /// U+06DD is a prepended concatenation mark: with the scalar after it, it forms one Character,
  /// so a Character-by-Character reader misses a delimiter that follows it. The handshake fuzzer
  /// found `ws://h/a` + U+06DD: its target reached the request line raw and our own server parser
  /// refused the request.
  @Test(
    arguments: [
      ("ws://h/a\u{06DD}", "h", "/a%DB%9D"),
      ("ws://h/\u{06DD}?x=\u{06DD}/", "h", "/%DB%9D?x=%DB%9D/"),
      ("ws://h?\u{06DD}#frag", "h", "/?%DB%9D"),
      ("ws://h/caf\u{E9}/\u{1F600}", "h", "/caf%C3%A9/%F0%9F%98%80"),
      ("ws://h/{a}|b^`\\<\">", "h", "/%7Ba%7D%7Cb%5E%60%5C%3C%22%3E"),
      ("ws://h/keep%20this?a=b&c=%41", "h", "/keep%20this?a=b&c=%41"),
    ])
  func percentEncodesWhatCannotStandInARequestLine(text: String, host: String, target: String) throws {
    let url = try WebSocketURL(parsing: text)
    #expect(url.host == host)
    #expect(url.target == target)
    // Our own server side reads back the same target and exactly the fields we sent.
    let request = Handshake.request(for: url, key: "dGhlIHNhbXBsZSBub25jZQ==", headers: [])
    let parsed = try #require(try ServerHandshake.parseRequest(request))
    #expect(parsed.request.target == target)
    #expect(parsed.request.head.fields.count == 5)
  }

  @Test(arguments: [
    "ws://h\u{06DD}/a", "ws://\u{06DD}h:80/", "ws://b\u{FC}cher.example/", "ws://h:8\u{06DD}0/",
    "ws://h/\u{9B}31m", "ws://h/\u{85}",
  ])
  func refusesNonASCIIHostsAndC1Controls(text: String) {
    #expect(throws: InvalidWebSocketURL.self) { try WebSocketURL(parsing: text) }
  }

  @Test func hostHeaderAddsOnlyNonDefaultPorts() throws {
    #expect(try WebSocketURL(parsing: "wss://ws.finnhub.io/").hostHeader == "ws.finnhub.io")
    #expect(try WebSocketURL(parsing: "ws://localhost:8080/").hostHeader == "localhost:8080")
    #expect(try WebSocketURL(parsing: "ws://[::1]:8080/").hostHeader == "[::1]:8080")
  }

  @Test func settingAQueryItemReplacesAndEncodes() throws {
    let base = try WebSocketURL(parsing: "wss://ws.finnhub.io/?token=old&x=1")
    let url = base.settingQueryItem("token", to: "a b&c=d")
    #expect(url.target == "/?x=1&token=a%20b%26c%3Dd")
    #expect(try WebSocketURL(parsing: "ws://h").settingQueryItem("token", to: "t").target == "/?token=t")
  }

  @Test("description never shows query values")
  func descriptionRedacts() throws {
    let url = try WebSocketURL(parsing: "wss://ws.finnhub.io/?token=sk-very-secret&format=x&flag")
    #expect(url.description == "wss://ws.finnhub.io/?token=***&format=***&flag")
    #expect(!"\(url)".contains("sk-very-secret"))
  }
}
