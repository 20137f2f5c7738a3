import TickerPluginABI
import WebSocketClient
import WebSocketWire

/// The plugin's C error (see `ticker_plugin_abi.h`) back to the engine's `WebSocketError`, as
/// `URLSessionConnection.map` made it inside the plugin.
enum PluginErrorMapping {
  static func webSocketError(_ error: UnsafePointer<ticker_ws_error>) -> WebSocketError {
    let e = error.pointee
    let text = e.text.map { String(cString: $0) } ?? ""
    let host = e.host.map { String(cString: $0) } ?? ""
    return webSocketError(kind: e.kind, code: e.code, retryAfter: e.retry_after, text: text, host: host)
  }

  static func webSocketError(kind: Int32, code: Int64, retryAfter: Int32, text: String, host: String)
    -> WebSocketError
  {
    switch ticker_ws_error_kind(rawValue: UInt32(bitPattern: kind)) {
    case TICKER_WS_ERROR_UNSUPPORTED: return .unsupported(text)
    case TICKER_WS_ERROR_HTTP_STATUS:
      return .handshake(
        .unexpectedStatus(code: Int(code), reason: text, retryAfter: retryAfter >= 0 ? Int(retryAfter) : nil))
    case TICKER_WS_ERROR_CONNECT:
      return .transport(.connect(host: host, port: Int(clamping: code), errno: retryAfter))
    case TICKER_WS_ERROR_TIMEOUT: return .transport(.timeout(text))
    case TICKER_WS_ERROR_RESOLVE: return .transport(.resolve(host: host, message: text))
    case TICKER_WS_ERROR_CERTIFICATE:
      return .transport(.certificateVerification(code: Int(code), message: text))
    case TICKER_WS_ERROR_TLS: return .transport(.tls(text))
    case TICKER_WS_ERROR_INVALID_URL: return .invalidURL(InvalidWebSocketURL(text))
    case TICKER_WS_ERROR_ABNORMAL_CLOSURE: return .abnormalClosure
    case TICKER_WS_ERROR_NOT_CONNECTED: return .notConnected
    default: return .transport(.tls("URLSession: \(text)"))
    }
  }
}
