import Foundation
import TestSupport
import Testing
import WebSocketClient
import WebSocketWire

/// The URLSession engine for real on Linux: the stock FoundationNetworking with its WebSocket
/// path switched on by the harness (preload + libcurl 8.14.1), through the plugin
/// (`plugin_client` drives libTickerURLSession.so in a process of its own), against Python
/// `websockets` (`Tests/Support/urlsession_peer.py`). Errors are compared with what the native
/// engine reports against the same peer. With Debian's libcurl 7.88.1 ("imports present, support
/// absent") and without the preload, the same engine says WebSockets are unsupported.
@Suite(
  "URLSession engine end to end", .requires(.urlSessionHarness),
  .timeLimit(.minutes(2)))
struct URLSessionEngineEndToEndTests {
  @Test("the probe: supported with libcurl 8.14.1; -1002 with 7.88.1 and without the preload")
  func probe() async throws {
    for libcurl in URLSessionHarness.Libcurl.allCases {
      let client = try PluginClient(libcurl)
      let answer = await client.probe()
      await client.quit()
      guard case .some(let reason) = answer else {
        Issue.record("\(libcurl): no answer from the probe")
        continue
      }
      if libcurl == .backports {
        #expect(reason == nil, "\(libcurl): \(reason ?? "")")
      } else {
        #expect(
          reason?.contains("WebSockets not supported by libcurl") == true, "\(libcurl): \(reason ?? "nil")")
      }
    }
  }

  @Test(
    "imports present, support absent: connect fails as unsupported",
    arguments: [URLSessionHarness.Libcurl.debian, .stock])
  func unsupported(_ libcurl: URLSessionHarness.Libcurl) async throws {
    let (peer, port) = try await LinePeer.python("urlsession_peer.py", ["record"])
    let client = try PluginClient(libcurl)
    let error = await client.connect("ws://127.0.0.1:\(port)/")
    await client.quit()
    await peer.finish()
    #expect(error == .unsupported("WebSockets not supported by libcurl"))
  }

  @Test("text and binary from the client arrive; the client's close carries its code and reason")
  func clientSendsAndCloses() async throws {
    let (peer, port) = try await LinePeer.python("urlsession_peer.py", ["record"])
    let client = try PluginClient(.backports)
    #expect(await client.connect("ws://127.0.0.1:\(port)/") == nil)
    #expect(await client.send(.text("hello κόσμε")) == nil)
    #expect(await client.send(.binary([0, 1, 0xFF])) == nil)
    #expect(await client.send(.text("{\"type\":\"subscribe\",\"symbol\":\"AAPL\"}")) == nil)
    await client.close(CloseStatus(code: .normalClosure, reason: "bye"))
    #expect(await peer.expect { $0 == "GOT text \(Hex.encode("hello κόσμε".utf8))" } != nil)
    #expect(await peer.expect { $0 == "GOT binary 0001ff" } != nil)
    #expect(
      await peer.expect {
        $0 == "GOT text \(Hex.encode("{\"type\":\"subscribe\",\"symbol\":\"AAPL\"}".utf8))"
      } != nil)
    #expect(await peer.expect { $0.hasPrefix("CLOSED ") } == "CLOSED 1000 bye", "\(peer.all)")
    // The connection ends cleanly; corelibs does not report the server's answering close frame
    // after a close the client started (the native engine does), so there is no status here.
    let end = await client.end()
    #expect(end != nil)
    #expect(end?.error == nil)
    await client.quit()
    await peer.finish()
  }

  @Test("text, binary and UTF-8 text from the server arrive in order")
  func serverPushes() async throws {
    let (peer, port) = try await LinePeer.python("urlsession_peer.py", ["push"])
    let client = try PluginClient(.backports)
    #expect(await client.connect("ws://127.0.0.1:\(port)/") == nil)
    #expect(await client.send(.text("go")) == nil)
    let messages = await client.messages(3)
    #expect(messages == [.text("one"), .binary([0, 1, 0xFF]), .text("κόσμε")])
    await client.close(CloseStatus(code: .normalClosure))
    await client.quit()
    await peer.finish()
  }

  @Test("the server's close arrives with its code and reason, as on the native engine")
  func serverCloses() async throws {
    let (peer, port) = try await LinePeer.python("urlsession_peer.py", ["goingaway"])
    let client = try PluginClient(.backports)
    #expect(await client.connect("ws://127.0.0.1:\(port)/") == nil)
    #expect(await client.send(.text("go")) == nil)
    let end = await client.end()
    await client.quit()
    let native = try await Self.nativeEnd(port: port)
    await peer.finish()
    #expect(end?.error == nil)
    #expect(end?.status == CloseStatus(code: .goingAway, reason: "restart"))
    #expect(end?.status == native)
  }

  /// Pins a corelibs 6.3.1 bug listed in `CorelibsBugs`: when this fails, corelibs changed;
  /// measure again and update the list (and `auto`).
  @Test("known bug: an application close code (4000) is reported as 1003")
  func applicationCloseCode() async throws {
    let (peer, port) = try await LinePeer.python("urlsession_peer.py", ["close"])
    let client = try PluginClient(.backports)
    #expect(await client.connect("ws://127.0.0.1:\(port)/") == nil)
    #expect(await client.send(.text("go")) == nil)
    let end = await client.end()
    await client.quit()
    let native = try await Self.nativeEnd(port: port)
    await peer.finish()
    #expect(native == CloseStatus(code: CloseCode(4000), reason: "bye"))
    #expect(end?.status?.code == CloseCode(1003))
  }

  @Test("a refused upgrade fails the connect with the HTTP status, as on the native engine")
  func refusedUpgrade() async throws {
    let (peer, port) = try await LinePeer.python("urlsession_peer.py", ["reject"])
    let client = try PluginClient(.backports)
    let error = await client.connect("ws://127.0.0.1:\(port)/")
    await client.quit()
    let url = try WebSocketURL(parsing: "ws://127.0.0.1:\(port)/")
    var nativeError: WebSocketError?
    do { _ = try await NativeEngine().connect(to: url, options: ConnectOptions()) } catch {
      nativeError = error
    }
    await peer.finish()
    guard case .handshake(.unexpectedStatus(let code, _, let retry)) = error,
      case .handshake(.unexpectedStatus(let nativeCode, _, let nativeRetry)) = nativeError
    else {
      Issue.record("urlsession: \(String(describing: error)); native: \(String(describing: nativeError))")
      return
    }
    #expect(code == 401 && nativeCode == 401)
    #expect(retry == nativeRetry)
  }

  @Test("a refused TCP connection is the same error as on the native engine")
  func connectionRefused() async throws {
    let refusing = try RefusingPort()
    defer { refusing.close() }
    let port = refusing.port
    let client = try PluginClient(.backports)
    let error = await client.connect("ws://127.0.0.1:\(port)/")
    await client.quit()
    let url = try WebSocketURL(parsing: "ws://127.0.0.1:\(port)/")
    var nativeError: WebSocketError?
    do { _ = try await NativeEngine().connect(to: url, options: ConnectOptions()) } catch {
      nativeError = error
    }
    #expect(error == nativeError)
    #expect(error == .transport(.connect(host: "127.0.0.1", port: port, errno: ECONNREFUSED)))
  }

  @Test("no 426: the adapter sends Connection: Upgrade; corelibs' own keep-alive gets 426")
  func connectionUpgrade() async throws {
    let (peer, port) = try await LinePeer.python("urlsession_peer.py", ["record"])
    let fixed = try PluginClient(.backports)
    #expect(await fixed.connect("ws://127.0.0.1:\(port)/") == nil)
    await fixed.close(CloseStatus(code: .normalClosure))
    await fixed.quit()
    // What corelibs sends by itself, made explicit: the server refuses the upgrade.
    let stock = try PluginClient(.backports)
    let error = await stock.connect("ws://127.0.0.1:\(port)/", headers: [("Connection", "keep-alive")])
    await stock.quit()
    await peer.finish()
    guard case .handshake(.unexpectedStatus(let code, _, _)) = error else {
      Issue.record("\(String(describing: error))")
      return
    }
    #expect(code == 426)
  }

  /// The close status the native engine sees from the same scenario.
  static func nativeEnd(port: Int) async throws -> CloseStatus? {
    let connection = try await NativeEngine().connect(
      to: try WebSocketURL(parsing: "ws://127.0.0.1:\(port)/"), options: ConnectOptions())
    try await connection.send(.text("go"))
    do {
      for try await _ in connection.messages {}
    } catch {
      Issue.record("native: \(error)")
    }
    return connection.peerCloseStatus
  }

  /// A loopback port with nothing listening (bound, then closed).
}

/// A loopback port bound but not listening while this is open: connecting to it is refused,
/// and nothing else can take the port meanwhile (a port closed again, the tests' other servers
/// binding ports all the time, was once taken between the two engines' attempts).
struct RefusingPort {
  let fd: Int32
  let port: Int

  init() throws {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    try #require(fd >= 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
      }
    }
    if !bound { _ = Glibc.close(fd) }
    try #require(bound, "bind: errno \(errno)")
    self.fd = fd
    port = Int(UInt16(bigEndian: address.sin_port))
  }

  func close() { _ = Glibc.close(fd) }
}
