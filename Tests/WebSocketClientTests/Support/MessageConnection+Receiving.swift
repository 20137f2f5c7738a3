@testable import WebSocketClient
@testable import WebSocketWire

extension MessageConnection {
  /// The next `count` messages, in order; fewer when `messages` finishes first. Throws what the
  /// stream throws.
  func receive(_ count: Int) async throws -> [WebSocketMessage] {
    var received: [WebSocketMessage] = []
    var iterator = messages.makeAsyncIterator()
    while received.count < count, let message = try await iterator.next() {
      received.append(message)
    }
    return received
  }

  /// Every message until `messages` finishes; throws what the stream throws.
  func remainingMessages() async throws -> [WebSocketMessage] {
    var received: [WebSocketMessage] = []
    for try await message in messages { received.append(message) }
    return received
  }
}
