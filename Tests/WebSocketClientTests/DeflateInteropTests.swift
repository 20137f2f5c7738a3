import TestSupport
import Testing

@testable import WebSocketClient
@testable import WebSocketWire

/// permessage-deflate (RFC 7692) between the native engine and Python's `websockets` server
/// (`Tests/Support/ws_peer.py --deflate …`), with each parameter it can be configured with. Python's
/// `zlib` compresses what we inflate and inflates what we compress. The time limit only bounds a
/// hang.
@Suite(.requires(.pythonWebsockets, .openssl), .timeLimit(.minutes(1)), .ownThread)
struct DeflateInteropTests {
  let engine = NativeEngine()
  let normalClose = CloseStatus(code: .normalClosure, reason: "done")

  /// `ws_peer.py --deflate` arguments, what the server answers our offer with, and how websockets
  /// describes the agreement on its side.
  static let combinations: [(spec: String, response: String, server: [String])] = [
    (
      "default", "permessage-deflate; server_max_window_bits=12; client_max_window_bits=12",
      ["remote_max_window_bits=12", "local_max_window_bits=12"]
    ),
    (
      "server_no_context_takeover", "permessage-deflate; server_no_context_takeover",
      ["remote_no_context_takeover=False", "local_no_context_takeover=True"]
    ),
    (
      "client_no_context_takeover", "permessage-deflate; client_no_context_takeover",
      ["remote_no_context_takeover=True", "local_no_context_takeover=False"]
    ),
    ("server_max_window_bits=9", "permessage-deflate; server_max_window_bits=9", ["local_max_window_bits=9"]),
    (
      "client_max_window_bits=9", "permessage-deflate; client_max_window_bits=9", ["remote_max_window_bits=9"]
    ),
    (
      "server_no_context_takeover,client_no_context_takeover,server_max_window_bits=10,client_max_window_bits=11",
      "permessage-deflate; server_no_context_takeover; client_no_context_takeover; "
        + "server_max_window_bits=10; client_max_window_bits=11",
      [
        "remote_no_context_takeover=True", "local_no_context_takeover=True", "remote_max_window_bits=11",
        "local_max_window_bits=10",
      ]
    ),
    (
      "server_max_window_bits=15,client_max_window_bits=15",
      "permessage-deflate; server_max_window_bits=15; client_max_window_bits=15",
      ["remote_max_window_bits=15", "local_max_window_bits=15"]
    ),
  ]

  /// Every combination of the four parameters websockets' server can be configured with, the
  /// windows at their ends (9, 15) or unset, with `require_client_max_window_bits` where a client
  /// window is set; `plain` is the factory with none of them.
  static let matrix: [(spec: String, response: String, server: [String])] = {
    var out: [(spec: String, response: String, server: [String])] = []
    for serverReset in [false, true] {
      for clientReset in [false, true] {
        for serverBits in [nil, 9, 15] as [Int?] {
          for clientBits in [nil, 9, 15] as [Int?] {
            var parameters: [String] = []
            if serverReset { parameters.append("server_no_context_takeover") }
            if clientReset { parameters.append("client_no_context_takeover") }
            if let serverBits { parameters.append("server_max_window_bits=\(serverBits)") }
            if let clientBits { parameters.append("client_max_window_bits=\(clientBits)") }
            let spec =
              parameters.isEmpty
              ? "plain"
              : (parameters + (clientBits == nil ? [] : ["require_client_max_window_bits"])).joined(
                separator: ",")
            let server = [
              "remote_no_context_takeover=\(clientReset ? "True" : "False")",
              "local_no_context_takeover=\(serverReset ? "True" : "False")",
              "remote_max_window_bits=\(clientBits ?? 15)", "local_max_window_bits=\(serverBits ?? 15)",
            ]
            out.append((spec, (["permessage-deflate"] + parameters).joined(separator: "; "), server))
          }
        }
      }
    }
    return out
  }()

  /// One server at a time: 36 Python servers starting at once would hold both cores for seconds.
  @Test(.serialized, arguments: 0..<matrix.count)
  func everyParameterCombinationAgreesAndCarriesMessages(_ index: Int) async throws {
    let combination = Self.matrix[index]
    try await exchange(combination.spec, expecting: combination.response, server: combination.server)
  }

  /// Messages that compress (repeated text, a patterned binary), one that does not (random
  /// bytes: we send it as it is), and an empty one. Every repeat is shorter than 250 bytes, the
  /// farthest a 9-bit zlib window reaches back.
  static func messages() -> (sent: [WebSocketMessage], compressible: Int) {
    var random = SystemRandomNumberGenerator()
    let noise = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &random) }
    let compressible: [WebSocketMessage] =
      (0..<10).map { .text(String(repeating: "BINANCE:BTCUSDT,\($0);", count: 20)) } + [
        .binary((0..<200_000).map { UInt8(truncatingIfNeeded: $0 % 97) }),
        .text(String(repeating: "ünïcødé ✓ € ", count: 30)),
      ]
    return (compressible + [.binary(noise), .text("")] + compressible, 2 * compressible.count)
  }

  @Test(arguments: 0..<combinations.count)
  func eachParameterCombinationCarriesMessagesBothWays(_ index: Int) async throws {
    let combination = Self.combinations[index]
    try await exchange(combination.spec, expecting: combination.response, server: combination.server)
  }

  /// Connects to ws_peer.py with `--deflate spec`: both sides agree on what they should, and
  /// every message goes both ways, ours compressed when that helps.
  func exchange(_ spec: String, expecting response: String, server: [String]) async throws {
    let peer = try await PythonPeer.start("echo", deflate: spec)
    defer { peer.stop() }
    let connection = try await engine.connect(to: peer.url(), options: ConnectOptions())
    #expect(connection.extensions == response)
    let agreed = try #require(await peer.agreedExtensions())
    for expected in server { #expect(agreed.contains(expected), "\(spec): \(agreed)") }

    let (sent, compressible) = Self.messages()
    for message in sent { try await connection.send(message) }
    #expect(try await connection.receive(sent.count) == sent)
    // Every compressible message went out compressed; the random and the empty one did not.
    try await connection.send(.text("stats"))
    let stats = try await connection.receive(1)
    #expect(stats == [.text("compressed-in \(compressible)")], "of \(sent.count) sent")
    await connection.close(normalClose, timeout: 10)
    #expect(await peer.closeReport() == "1000 done")
  }

  /// Compression sits above the byte stream: over TLS (the test CA) it is the same.
  @Test func compressedOverTLS() async throws {
    let ca = try await offPool { try TestCA.shared() }
    let peer = try await PythonPeer.start("echo", tls: ca, deflate: "default")
    defer { peer.stop() }
    let connection = try await engine.connect(
      to: peer.url(name: "localhost", secure: true), options: ConnectOptions(caCertificateFile: ca.caFile))
    #expect(connection.extensions == Self.combinations[0].response)
    let (sent, compressible) = Self.messages()
    for message in sent { try await connection.send(message) }
    #expect(try await connection.receive(sent.count) == sent)
    try await connection.send(.text("stats"))
    #expect(try await connection.receive(1) == [.text("compressed-in \(compressible)")])
    await connection.close(normalClose, timeout: 10)
  }

  @Test func fragmentedCompressedMessageIsReassembled() async throws {
    let peer = try await PythonPeer.start("fragmented", deflate: "default")
    defer { peer.stop() }
    let connection = try await engine.connect(to: peer.url(), options: ConnectOptions())
    try await connection.send(.text("go"))
    #expect(try await connection.receive(1) == [.text("Hello, fragmented world")])
    await connection.close(normalClose, timeout: 10)
  }

  @Test func largeCompressedMessageInflatesWhole() async throws {
    let peer = try await PythonPeer.start("large", deflate: "default")
    defer { peer.stop() }
    let connection = try await engine.connect(to: peer.url(), options: ConnectOptions())
    try await connection.send(.text("go 3000000"))
    let received = try await connection.receive(1)
    #expect(received == [.binary((0..<3_000_000).map { UInt8($0 % 251) })])
    await connection.close(normalClose, timeout: 10)
  }

  /// 50 MB of spaces is about 50 KB compressed: the limit applies to the inflated size, and
  /// inflating stops at it (1009), whatever the compressed frame would expand to.
  @Test func decompressionBombIsRefusedWith1009() async throws {
    let peer = try await PythonPeer.start("bomb", deflate: "server_max_window_bits=15")
    defer { peer.stop() }
    let connection = try await engine.connect(
      to: peer.url(), options: ConnectOptions(maximumMessageSize: 1 << 20))
    try await connection.send(.text("go 50000000"))
    await #expect {
      _ = try await connection.remainingMessages()
    } throws: { error in
      guard case .protocolViolation(.messageTooLarge(let size)) = error as? WebSocketError else {
        return false
      }
      // Refused on the first piece past the limit, not after inflating it all.
      return size > 1 << 20 && size <= (1 << 20) + UInt64(Inflater.pieceSize)
    }
    #expect(await peer.closeReport() == "1009 ")
  }

  /// A message that inflates to exactly the limit is taken.
  @Test func messageOfExactlyTheLimitInflates() async throws {
    let peer = try await PythonPeer.start("bomb", deflate: "default")
    defer { peer.stop() }
    let connection = try await engine.connect(
      to: peer.url(), options: ConnectOptions(maximumMessageSize: 1 << 20))
    try await connection.send(.text("go \(1 << 20)"))
    #expect(try await connection.receive(1) == [.text(String(repeating: " ", count: 1 << 20))])
    await connection.close(normalClose, timeout: 10)
  }

  /// websockets lets a server ask for an 8-bit client window, which zlib cannot compress with:
  /// the client fails the connection rather than accept a window it cannot keep to.
  @Test func eightBitClientWindowIsRefused() async throws {
    let peer = try await PythonPeer.start("echo", deflate: "client_max_window_bits=8")
    defer { peer.stop() }
    await #expect {
      _ = try await engine.connect(to: peer.url(), options: ConnectOptions())
    } throws: { error in
      guard case .handshake(.invalidExtension(let why)) = error as? WebSocketError else { return false }
      return why.contains("client_max_window_bits=8")
    }
  }

  /// `compression: false` offers nothing: a server with compression on answers without it.
  @Test func compressionOffOffersNothing() async throws {
    let peer = try await PythonPeer.start("echo", deflate: "default")
    defer { peer.stop() }
    let connection = try await engine.connect(to: peer.url(), options: ConnectOptions(compression: false))
    #expect(connection.extensions == nil)
    #expect(await peer.agreedExtensions() == "[]")
    try await connection.send(.text(String(repeating: "compressible ", count: 50)))
    #expect(try await connection.receive(1) == [.text(String(repeating: "compressible ", count: 50))])
    try await connection.send(.text("stats"))
    #expect(try await connection.receive(1) == [.text("compressed-in 0")])
    await connection.close(normalClose, timeout: 10)
  }
}
