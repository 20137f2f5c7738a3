import Synchronization
import TickerPluginABI
import TickerSupport
import WebSocketClient
import WebSocketWire

/// What the plugin's callbacks feed: the connection's messages and the peer's close status.
/// `receive` runs on the plugin's URLSession delegate queue (never a Swift concurrency pool
/// thread) and blocks there while the consumer is behind: that is the backpressure.
///
/// With `defects`, a text message that is not a whole JSON text (corelibs cut it apart or
/// handed over one fragment of it) is not passed on: the defect is recorded and the stream ends
/// with `.abnormalClosure` (see `FallbackEngine`).
final class PluginReceiver: Sendable {
  let messages = MessageChannel<WebSocketMessage>(capacity: 512)
  private let peer = Mutex<CloseStatus?>(nil)
  private let defects: URLSessionDefects?

  init(defects: URLSessionDefects? = nil) { self.defects = defects }

  var peerCloseStatus: CloseStatus? { peer.withLock { $0 } }

  func receive(_ message: WebSocketMessage) {
    if let defects, case .text(let text) = message, !WholeJSONCheck.isWhole(text.utf8) {
      defects.report(Self.defect(byteCount: text.utf8.count))
      messages.finish(throwing: WebSocketError.abnormalClosure)
      return
    }
    messages.push(message)
  }

  static func defect(byteCount: Int) -> String {
    "the URLSession engine delivered a text message of \(byteCount) bytes that is not a whole JSON text "
      + "(corelibs cuts messages over ~4 KiB apart and hands over fragmented ones one fragment at a time); "
      + "the native engine takes over from the next connection"
  }

  func end(status: CloseStatus?, error: WebSocketError?) {
    if let status { peer.withLock { $0 = status } }
    messages.finish(throwing: error)
  }
}

/// One connection inside the plugin, adapted to `MessageConnection`.
final class PluginURLSessionConnection: MessageConnection {
  let plugin: URLSessionPlugin
  private let handle: SendablePointer
  private let receiver: PluginReceiver

  init(plugin: URLSessionPlugin, handle: UnsafeMutableRawPointer, receiver: PluginReceiver) {
    self.plugin = plugin
    self.handle = SendablePointer(raw: handle)
    self.receiver = receiver
  }

  deinit { plugin.releaseFunction(handle.raw) }

  var messages: MessageChannel<WebSocketMessage> { receiver.messages }
  var peerCloseStatus: CloseStatus? { receiver.peerCloseStatus }

  func send(_ message: WebSocketMessage) async throws(WebSocketError) {
    let (isText, bytes): (Int32, [UInt8]) =
      switch message {
      case .text(let text): (1, Array(text.utf8))
      case .binary(let bytes): (0, bytes)
      }
    let error = await withCheckedContinuation { (continuation: CheckedContinuation<WebSocketError?, Never>) in
      let op = Unmanaged.passRetained(Completion(continuation)).toOpaque()
      bytes.withUnsafeBufferPointer { buffer in
        plugin.sendFunction(handle.raw, isText, buffer.baseAddress, Int64(buffer.count), op, Self.resultDone)
      }
    }
    if let error { throw error }
  }

  func ping(_ payload: [UInt8]) async throws(WebSocketError) {
    // URLSession sends its own (empty) ping payload; on Linux none (see URLSessionConnection).
    let error = await withCheckedContinuation { (continuation: CheckedContinuation<WebSocketError?, Never>) in
      let op = Unmanaged.passRetained(Completion(continuation)).toOpaque()
      plugin.pingFunction(handle.raw, op, Self.resultDone)
    }
    if let error { throw error }
  }

  func close(_ status: CloseStatus, timeout: Double) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let op = Unmanaged.passRetained(Completion(continuation)).toOpaque()
      plugin.closeFunction(handle.raw, Int32(status.code.rawValue), status.reason, timeout, op) { op in
        Unmanaged<Completion<Void>>.fromOpaque(op!).takeRetainedValue().resume(())
      }
    }
    // The plugin may still be blocked handing over a message nobody will read.
    receiver.messages.finish()
  }

  private static let resultDone: ticker_result_done = { op, error in
    let completion = Unmanaged<Completion<WebSocketError?>>.fromOpaque(op!).takeRetainedValue()
    completion.resume(error.map(PluginErrorMapping.webSocketError))
  }
}

/// A C handle carried across threads (the plugin's functions may be called from any thread).
// invariant: never dereferenced here: only passed to the plugin's functions, and released once, in deinit.
struct SendablePointer: @unchecked Sendable {
  let raw: UnsafeMutableRawPointer
}
