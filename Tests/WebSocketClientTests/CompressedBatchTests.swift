import TestSupport
import Testing

@testable import WebSocketClient
@testable import WebSocketWire

/// Compressed messages are many times the bytes that carry them: one 64 KiB read of a compressed
/// stream can inflate to megabytes. The reader hands them to the consumer in bounded batches, so
/// what waits for the consumer stays within the channel's bounds plus one batch.
@Suite(.timeLimit(.minutes(1)), .ownThread)
struct CompressedBatchTests {
  @Test func oneReadOfCompressedMessagesArrivesInBoundedBatches() async throws {
    let (client, server) = SocketPairStream.makePair()
    let agreed = PerMessageDeflate()
    // 6,000 messages of 100 bytes (600 KB), about 40 KB compressed.
    let payloads = (0..<6000).map { i in Array(String(repeating: "\(i % 10)", count: 100).utf8) }
    let compressed = PrecompressedFrames.server(payloads, opcode: .text, agreed: agreed)
    #expect(compressed.compressed == payloads.count && compressed.frames.count < 64 << 10)
    // Everything is in the socket before the reader starts: its first read takes it all.
    try (compressed.frames + FrameEncoder.encodeServerFrame(.close(CloseStatus(code: .normalClosure))))
      .withUnsafeBytes { try server.write($0, timeout: 10) }
    let connection = NativeConnection(
      stream: client, role: .client, random: FixedRandom([1, 2, 3, 4]), maximumMessageSize: 1 << 20,
      deflate: agreed)
    connection.start()
    var received = 0
    var largest = 0
    while let batch = try await connection.messages.nextBatch() {
      received += batch.count
      largest = max(largest, batch.reduce(0) { $0 + $1.byteCount })
    }
    #expect(received == payloads.count)
    #expect(
      largest <= NativeConnection.byteCapacity + NativeConnection.batchByteLimit, "\(largest) bytes at once")
    server.close()
  }
}
