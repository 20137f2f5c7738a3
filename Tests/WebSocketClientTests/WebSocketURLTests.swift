import Testing
import WebSocketClient

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
    #expect(throws: TransportError.self) { try WebSocketURL(parsing: text) }
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
