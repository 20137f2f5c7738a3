import Foundation
import TestSupport
import Testing
import WebSocketClient

@testable import Emulators
@testable import Recording
@testable import WebSocketWire

/// FeedServer with `Options.compression`: the permessage-deflate answer, compressed script
/// messages and blasts (a batch compressed once and written again and again must inflate to the
/// very messages the uncompressed blast carries), inflated client messages, and no agreement
/// when either side does not want one. Read by the native engine and, independently, by Python's
/// `websockets` (`serve_client.py`, which offers permessage-deflate by default). The time limit
/// only bounds a hang.
@Suite("FeedServer: permessage-deflate", .timeLimit(.minutes(2)), .ownThread)
struct FeedServerDeflateTests {
  static let done = CloseStatus(code: .normalClosure, reason: "done")

  /// A verbatim server (no subscribe needed) whose every connection gets `script`, then `ending`.
  func server(
    _ ending: ConnectionPlan.Ending, script: SessionScript = SessionScript(steps: []),
    compression: PerMessageDeflate.ServerPolicy?
  ) throws -> FeedServer {
    let server = try FeedServer(
      script: script,
      options: .init(
        timeScale: 0, emulation: .verbatim, plans: [ConnectionPlan(script: script, ending: ending)],
        compression: compression))
    server.start()
    return server
  }

  /// Every message of one connection to `server`, until the server closes; and the agreement.
  func receiveAll(
    _ server: FeedServer, offering: Bool = true
  ) async throws -> (messages: [WebSocketMessage], extensions: String?) {
    let connection = try await NativeEngine().connect(
      to: server.url, options: ConnectOptions(compression: offering))
    var messages: [WebSocketMessage] = []
    for try await message in connection.messages { messages.append(message) }
    return (messages, connection.extensions)
  }

  /// What a Finnhub blast of `count` carries: the batch of 1000 again and again, then the start
  /// of it.
  static func blast(_ count: Int) -> [String] {
    (0..<count).map { BlastFrames.message($0 % BlastFrames.messagesPerBatch) }
  }

  /// The index of the first difference (or the shorter count), for a readable failure.
  static func firstDifference<T: Equatable>(_ a: [T], _ b: [T]) -> Int? {
    a.indices.first { $0 >= b.count || a[$0] != b[$0] } ?? (a.count == b.count ? nil : a.count)
  }

  /// Server policies, the response each gives the native engine's offer, and whether every
  /// blast message compresses (with context takeover each one is mostly a copy of the one
  /// before; compressed on its own, a ~100-byte message is sometimes not smaller, and goes out
  /// as it is).
  static let policies: [(policy: PerMessageDeflate.ServerPolicy, response: String, all: Bool)] = [
    (.init(), "permessage-deflate", true),
    (.init(serverNoContextTakeover: true), "permessage-deflate; server_no_context_takeover", false),
    (.init(serverMaxWindowBits: 9), "permessage-deflate; server_max_window_bits=9", true),
  ]

  @Test(
    "a Finnhub blast of 2,500 (two whole batches and a remainder) inflates to the blast's messages",
    arguments: 0..<policies.count)
  func compressedBlast(_ index: Int) async throws {
    let (policy, response, all) = Self.policies[index]
    let feed = try server(.blast(count: 2500, then: .close(Self.done)), compression: policy)
    defer { feed.stop() }
    let (messages, extensions) = try await receiveAll(feed)
    #expect(extensions == response)
    let expected = Self.blast(2500).map { WebSocketMessage.text($0) }
    #expect(messages.count == 2500)
    #expect(Self.firstDifference(messages, expected) == nil)
    #expect(feed.record.deflateAgreements == [response])
    #expect(feed.record.blasted == 2500)
    if all {
      #expect(feed.record.compressedMessages == 2500)
    } else {
      // Most still compress, and the rest show that plain frames mix with compressed ones.
      #expect(feed.record.compressedMessages > 1250, "\(feed.record.compressedMessages)")
    }
  }

  @Test("a compressed blast is several times smaller than the plain one")
  func compressedBatchIsSmaller() {
    let plain = BlastFrames.frames(count: BlastFrames.messagesPerBatch)
    let compressed = BlastFrames.compressed(
      count: BlastFrames.messagesPerBatch, venue: .finnhub, agreed: PerMessageDeflate())
    #expect(compressed.compressed == BlastFrames.messagesPerBatch)
    // Each message differs from the one before in a few digits only.
    #expect(compressed.frames.count * 3 < plain.count, "\(compressed.frames.count) of \(plain.count) bytes")
  }

  @Test("an Upbit blast (binary frames) and a mixed blast inflate to what the plain ones carry")
  func otherBlasts() async throws {
    let mix = BlastMix(trades: 1...20, symbols: 5, seed: 7)
    for ending: ConnectionPlan.Ending in [
      .venueBlast(.upbit, count: 1200, then: .close(Self.done)),
      .mixedBlast(count: 250, mix: mix, then: .close(Self.done)),
    ] {
      let plainFeed = try server(ending, compression: nil)
      defer { plainFeed.stop() }
      let plain = try await receiveAll(plainFeed)
      let compressedFeed = try server(ending, compression: .init())
      defer { compressedFeed.stop() }
      let compressed = try await receiveAll(compressedFeed)
      #expect(plain.extensions == nil)
      #expect(compressed.extensions == "permessage-deflate")
      #expect(!plain.messages.isEmpty)
      #expect(compressed.messages.count == plain.messages.count)
      #expect(Self.firstDifference(compressed.messages, plain.messages) == nil, "\(ending)")
      #expect(plainFeed.record.compressedMessages == 0)
      #expect(compressedFeed.record.compressedMessages == compressedFeed.record.blasted)
      #expect(compressedFeed.record.blasted == plain.messages.count)
    }
  }

  @Test("script messages go out compressed, and a compressed client message is inflated")
  func scriptAndClientMessages() async throws {
    let trades = (0..<20).map { i in
      SessionScript.Step(
        direction: .server, kind: .text, afterMilliseconds: 0,
        body:
          #"{"data":[{"c":null,"p":95372.\#(i),"s":"BINANCE:BTCUSDT","t":\#(1_768_655_932_976 + i),"v":1}],"#
          + #""type":"trade"}"#)
    }
    let feed = try server(.hold, script: SessionScript(steps: trades), compression: .init())
    defer { feed.stop() }
    let connection = try await NativeEngine().connect(to: feed.url, options: ConnectOptions())
    #expect(connection.extensions == "permessage-deflate")
    var received: [WebSocketMessage] = []
    for try await message in connection.messages {
      received.append(message)
      if received.count == trades.count { break }
    }
    #expect(received == trades.map { .text($0.body) })
    // 2 KB that compresses well: it goes out compressed (RSV1), and the server must inflate it.
    let long = String(repeating: #"{"type":"subscribe","symbol":"BINANCE:BTCUSDT"}"#, count: 40)
    try await connection.send(.text(long))
    // The server reads in order: the close is answered after the message was recorded.
    await connection.close(Self.done, timeout: 10)
    #expect(feed.record.clientMessages == [long])
    #expect(feed.record.clientCloses == [Self.done])
    #expect(feed.record.compressedMessages == trades.count)
    #expect(feed.record.extensionOffers == [PerMessageDeflate.clientOffer])
  }

  @Test("no agreement when the client offers nothing, or the server is not configured to")
  func noAgreement() async throws {
    let ending = ConnectionPlan.Ending.blast(count: 1500, then: .close(Self.done))
    let expected = Self.blast(1500).map { WebSocketMessage.text($0) }

    let willing = try server(ending, compression: .init())
    defer { willing.stop() }
    let silent = try await receiveAll(willing, offering: false)
    #expect(silent.extensions == nil)
    #expect(silent.messages.count == expected.count)
    #expect(Self.firstDifference(silent.messages, expected) == nil)
    #expect(willing.record.extensionOffers == [""])
    #expect(willing.record.deflateAgreements.isEmpty)
    #expect(willing.record.compressedMessages == 0)

    let unwilling = try server(ending, compression: nil)
    defer { unwilling.stop() }
    let offering = try await receiveAll(unwilling)
    #expect(offering.extensions == nil)
    #expect(offering.messages.count == expected.count)
    #expect(Self.firstDifference(offering.messages, expected) == nil)
    #expect(unwilling.record.extensionOffers == [PerMessageDeflate.clientOffer])
    #expect(unwilling.record.deflateAgreements.isEmpty)
    #expect(unwilling.record.compressedMessages == 0)
  }

  @Test(
    "Python's websockets inflates the compressed blast to the same messages", .requires(.pythonWebsockets))
  func pythonReadsCompressedBlast() async throws {
    let feed = try server(.blast(count: 2500, then: .close(Self.done)), compression: .init())
    defer { feed.stop() }
    let peer = try LinePeer(
      TestTools.python,
      [TestTools.supportScript("serve_client.py"), "ws://127.0.0.1:\(feed.port)/"])
    let closed = await peer.expect(within: 60) { $0.hasPrefix("CLOSED") }
    #expect(closed == "CLOSED 1000 done")
    let texts = peer.all.filter { $0.hasPrefix("TEXT ") }.map { String($0.dropFirst(5)) }
    #expect(texts.count == 2500)
    #expect(Self.firstDifference(texts, Self.blast(2500)) == nil)
    // websockets (17) offers what the native engine does, and gets the same answer.
    #expect(feed.record.extensionOffers == ["permessage-deflate; client_max_window_bits"])
    #expect(feed.record.deflateAgreements == ["permessage-deflate"])
    #expect(feed.record.compressedMessages == 2500)
  }
}
