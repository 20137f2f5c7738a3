import TickerPluginABI
import WebSocketClient
import WebSocketWire

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The URLSession engine, run inside the dynamically loaded plugin and adapted to
/// `WebSocketEngine` here: messages come through C callbacks into a `MessageChannel`.
public struct PluginURLSessionEngine: WebSocketEngine {
  public let name = "urlsession"
  let plugin: URLSessionPlugin
  /// Where a text message that is not a whole JSON text is reported (nil: not checked).
  let defects: URLSessionDefects?

  public init(plugin: URLSessionPlugin, defects: URLSessionDefects? = nil) {
    self.plugin = plugin
    self.defects = defects
  }

  public func connect(to url: WebSocketURL, options: ConnectOptions) async throws(WebSocketError)
    -> any MessageConnection
  {
    if options.caCertificateFile != nil {
      throw .unsupported("--cacert is only supported by the native engine")
    }
    let urlString = "\(url.isSecure ? "wss" : "ws")://\(url.hostHeader)\(url.target)"
    let receiver = PluginReceiver(defects: defects)
    let result = await withCheckedContinuation {
      (continuation: CheckedContinuation<Result<SendablePointer, WebSocketError>, Never>) in
      let op = Unmanaged.passRetained(Completion(continuation)).toOpaque()
      // The receiver lives until the plugin's on_end (or a failed connect, below).
      let context = Unmanaged.passRetained(receiver).toOpaque()
      let callbacks = ticker_ws_callbacks(
        context: context,
        on_message: { context, isText, bytes, length in
          let receiver = Unmanaged<PluginReceiver>.fromOpaque(context!).takeUnretainedValue()
          let buffer = UnsafeBufferPointer(start: bytes, count: length)
          receiver.receive(
            isText != 0 ? .text(String(decoding: buffer, as: UTF8.self)) : .binary(Array(buffer)))
        },
        on_end: { context, closeCode, reason, error in
          let receiver = Unmanaged<PluginReceiver>.fromOpaque(context!).takeRetainedValue()
          let status =
            closeCode >= 0
            ? CloseStatus(
              code: CloseCode(UInt16(clamping: closeCode)), reason: reason.map { String(cString: $0) } ?? "")
            : nil
          receiver.end(status: status, error: error.map(PluginErrorMapping.webSocketError))
        })
      withCStrings(options.headers.map(\.name)) { names in
        withCStrings(options.headers.map(\.value)) { values in
          plugin.connectFunction(
            urlString, names, values, Int64(options.headers.count), options.connectTimeout,
            Int64(options.maximumMessageSize), callbacks, op
          ) { op, handle, error in
            let completion = Unmanaged<Completion<Result<SendablePointer, WebSocketError>>>
              .fromOpaque(op!).takeRetainedValue()
            if let handle {
              completion.resume(.success(SendablePointer(raw: handle)))
            } else {
              completion.resume(
                .failure(
                  error.map(PluginErrorMapping.webSocketError) ?? .transport(.tls("URLSession: failed"))))
            }
          }
        }
      }
    }
    switch result {
    case .success(let handle):
      return PluginURLSessionConnection(plugin: plugin, handle: handle.raw, receiver: receiver)
    case .failure(let error):
      // No callback follows a failed connect: the plugin's reference to the receiver ends here.
      Unmanaged.passUnretained(receiver).release()
      throw error
    }
  }
}

/// Calls `body` with a C array of C strings, valid during the call.
func withCStrings<T>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> T) -> T {
  let copies = strings.map { strdup($0) }
  defer { copies.forEach { free($0) } }
  let pointers = copies.map { $0.map { UnsafePointer($0) } }
  return pointers.withUnsafeBufferPointer { body($0.baseAddress) }
}
