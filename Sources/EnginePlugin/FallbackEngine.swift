import WebSocketClient
import WebSocketWire

/// The URLSession engine until it shows a corelibs defect, the native engine from then on.
///
/// "Fail over" concretely: a URLSession connection that receives a text message that cannot be
/// a whole message (see `WholeJSONCheck`) does not pass it on. It records the defect in
/// `defects` (the ticker prints one warning), and ends its message stream with
/// `WebSocketError.abnormalClosure`, a transient failure: the session reconnects as after any
/// dropped connection (backoff, then every subscription again), and this engine opens that next
/// connection, and every later one, with the native engine. No corrupt price is printed: the cut
/// message never reaches the decoder.
public struct FallbackEngine: WebSocketEngine {
  public let name = "urlsession"
  let primary: any WebSocketEngine
  let fallback: any WebSocketEngine
  public let defects: URLSessionDefects

  public init(primary: any WebSocketEngine, fallback: any WebSocketEngine, defects: URLSessionDefects) {
    self.primary = primary
    self.fallback = fallback
    self.defects = defects
  }

  public func connect(to url: WebSocketURL, options: ConnectOptions) async throws(WebSocketError)
    -> any MessageConnection
  {
    let engine = defects.first == nil ? primary : fallback
    return try await engine.connect(to: url, options: options)
  }
}
