import TestSupport
import Testing

@testable import WebSocketClient
@testable import WebSocketWire

/// permessage-deflate between the native engine and Node's `ws` (Debian's node-ws,
/// `Tests/Support/node_ws_peer.js`), a second independent implementation, with zlib behind both
/// but none of our framing or negotiation code. ws compresses only messages over its `threshold`
/// (1 KiB by default): a connection then carries compressed and plain messages side by side.
/// The time limit only bounds a hang.
@Suite(.requires(.nodeWS), .timeLimit(.minutes(1)), .ownThread)
struct DeflateNodeInteropTests {
  let engine = NativeEngine()
  let normalClose = CloseStatus(code: .normalClosure, reason: "done")

  /// ws's `perMessageDeflate` option, what its answer to our offer is, and what ws reports it
  /// agreed to.
  static let combinations: [(option: String, response: String?, server: String)] = [
    ("true", "permessage-deflate", "{}"),
    (
      #"{"threshold":0,"serverNoContextTakeover":true,"clientNoContextTakeover":true}"#,
      "permessage-deflate; server_no_context_takeover; client_no_context_takeover",
      #""server_no_context_takeover":true"#
    ),
    (
      #"{"threshold":0,"serverMaxWindowBits":10,"clientMaxWindowBits":9}"#,
      // ws puts client_max_window_bits first.
      "permessage-deflate; client_max_window_bits=9; server_max_window_bits=10",
      #""client_max_window_bits":9"#
    ),
    ("false", nil, "{}"),
  ]

  @Test(arguments: 0..<combinations.count)
  func messagesRoundTripUnderEachConfiguration(_ index: Int) async throws {
    let combination = Self.combinations[index]
    let peer = try await NodeWSPeer.start(deflate: combination.option)
    defer { peer.stop() }
    let connection = try await engine.connect(to: peer.url, options: ConnectOptions())
    #expect(connection.extensions == combination.response)
    let agreed = try #require(await peer.agreedParameters())
    #expect(agreed.contains(combination.server), "\(agreed)")
    let (sent, _) = DeflateInteropTests.messages()
    for message in sent { try await connection.send(message) }
    #expect(try await connection.receive(sent.count) == sent)
    await connection.close(normalClose, timeout: 10)
    #expect(await peer.closeReport() == "1000 done")
  }
}
