import Synchronization
import Testing
import TickerPluginABI
import TickerSupport

@testable import EnginePlugin
@testable import URLSessionEngine
@testable import WebSocketWire

/// The C pointers that cross the plugin's ABI are `@unchecked Sendable` wrappers; these tests
/// guard their invariants: a call's `op` comes back once, to its own `done`; the host's callbacks
/// are never called for a failed connect; a connection's handle goes only to the plugin's
/// functions and is released once.
@Suite("URLSession plugin pointers", .timeLimit(.minutes(1)))
struct PluginPointerTests {
  /// What came back through `op` (the plugin's side only hands it back).
  final class Returns: Sendable {
    let ops = MessageChannel<UInt>(capacity: 16)
    let ends = Mutex(0)

    static func from(_ op: UnsafeMutableRawPointer?) -> Returns {
      Unmanaged<Returns>.fromOpaque(op!).takeUnretainedValue()
    }
  }

  @Test("each call's op comes back once, to its own done, also from the plugin's tasks")
  func opsComeBack() async throws {
    let returns = Returns()
    let op = Unmanaged.passRetained(returns).toOpaque()
    defer { Unmanaged<Returns>.fromOpaque(op).release() }
    let bits = UInt(bitPattern: op)
    // No connection behind the handle: answered at once.
    tickerURLSessionSend(nil, 1, nil, 0, op) { op, _ in Returns.from(op).ops.forcePush(UInt(bitPattern: op)) }
    tickerURLSessionPing(nil, op) { op, _ in Returns.from(op).ops.forcePush(UInt(bitPattern: op)) }
    tickerURLSessionClose(nil, 1000, nil, 0, op) { op in Returns.from(op).ops.forcePush(UInt(bitPattern: op))
    }
    #expect(try await returns.ops.nextBatch() == [bits, bits, bits])
    // A connect that fails (nothing listens on port 9; this process's libcurl may not even do
    // WebSockets): answered from the plugin's task; the callbacks are never called.
    let callbacks = ticker_ws_callbacks(
      context: op, on_message: { context, _, _, _ in Returns.from(context).ends.withLock { $0 += 100 } },
      on_end: { context, _, _, _ in Returns.from(context).ends.withLock { $0 += 1 } })
    tickerURLSessionConnect("ws://127.0.0.1:9/", nil, nil, 0, 5, 1 << 20, callbacks, op) {
      op, handle, error in
      #expect(handle == nil)
      #expect(error != nil)
      Returns.from(op).ops.forcePush(UInt(bitPattern: op))
    }
    #expect(try await returns.ops.nextBatch() == [bits])
    #expect(returns.ends.withLock { $0 } == 0)
  }

  /// Calls the stand-in plugin below saw, by handle.
  static let calls = Mutex<[(function: String, handle: UInt)]>([])

  static func record(_ function: String, _ handle: UnsafeMutableRawPointer?) {
    calls.withLock { $0.append((function, UInt(bitPattern: handle))) }
  }

  @Test("a connection's handle goes only to the plugin's functions, from any task, and is released once")
  func handleGoesBackAndIsReleasedOnce() async throws {
    let plugin = URLSessionPlugin(
      path: "stand-in", probe: { _, _ in }, connect: { _, _, _, _, _, _, _, _, _ in },
      send: { handle, _, _, _, op, done in
        PluginPointerTests.record("send", handle)
        done?(op, nil)
      },
      ping: { handle, op, done in
        PluginPointerTests.record("ping", handle)
        done?(op, nil)
      },
      close: { handle, _, _, _, op, done in
        PluginPointerTests.record("close", handle)
        done?(op)
      },
      release: { handle in PluginPointerTests.record("release", handle) })
    let handle = UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1)
    defer { handle.deallocate() }
    let mine = UInt(bitPattern: handle)
    do {
      let connection = PluginURLSessionConnection(plugin: plugin, handle: handle, receiver: PluginReceiver())
      try await withThrowingDiscardingTaskGroup { group in
        for _ in 0..<8 {
          group.addTask {
            try await connection.send(.text("x"))
            try await connection.ping([])
          }
        }
      }
      await connection.close(CloseStatus(code: .normalClosure), timeout: 0)
    }
    let seen = Self.calls.withLock { calls in calls.filter { $0.handle == mine }.map(\.function) }
    #expect(seen.filter { $0 == "send" }.count == 8)
    #expect(seen.filter { $0 == "ping" }.count == 8)
    #expect(seen.suffix(2) == ["close", "release"])
    #expect(seen.filter { $0 == "release" }.count == 1)
  }
}
