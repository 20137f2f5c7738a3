import TickerPluginABI
import WebSocketClient

/// `WebSocketError` in the plugin ABI's terms (see `ticker_plugin_abi.h`).
struct PluginError: Sendable, Equatable {
  var kind: ticker_ws_error_kind
  var code: Int64 = 0
  var retryAfter: Int32 = -1
  var text: String = ""
  var host: String = ""

  init(
    kind: ticker_ws_error_kind, code: Int64 = 0, retryAfter: Int32 = -1, text: String = "", host: String = ""
  ) {
    self.kind = kind
    self.code = code
    self.retryAfter = retryAfter
    self.text = text
    self.host = host
  }

  init(_ error: WebSocketError) {
    switch error {
    case .unsupported(let text): self.init(kind: TICKER_WS_ERROR_UNSUPPORTED, text: text)
    case .handshake(.unexpectedStatus(let code, let reason, let retryAfter)):
      self.init(
        kind: TICKER_WS_ERROR_HTTP_STATUS, code: Int64(code),
        retryAfter: retryAfter.map { Int32(clamping: $0) } ?? -1,
        text: reason)
    case .transport(.connect(let host, let port, let errno)):
      self.init(kind: TICKER_WS_ERROR_CONNECT, code: Int64(port), retryAfter: errno, host: host)
    case .transport(.timeout(let text)): self.init(kind: TICKER_WS_ERROR_TIMEOUT, text: text)
    case .transport(.resolve(let host, let message)):
      self.init(kind: TICKER_WS_ERROR_RESOLVE, text: message, host: host)
    case .transport(.certificateVerification(let code, let message)):
      self.init(kind: TICKER_WS_ERROR_CERTIFICATE, code: Int64(code), text: message)
    case .transport(.tls(let text)): self.init(kind: TICKER_WS_ERROR_TLS, text: text)
    case .invalidURL(let invalid): self.init(kind: TICKER_WS_ERROR_INVALID_URL, text: invalid.reason)
    case .abnormalClosure: self.init(kind: TICKER_WS_ERROR_ABNORMAL_CLOSURE)
    case .notConnected: self.init(kind: TICKER_WS_ERROR_NOT_CONNECTED)
    default: self.init(kind: TICKER_WS_ERROR_OTHER, text: "\(error)")
    }
  }

  /// Calls `body` with the C form, valid only during the call.
  func withCError(_ body: (UnsafePointer<ticker_ws_error>) -> Void) {
    text.withCString { cText in
      host.withCString { cHost in
        var error = ticker_ws_error(
          kind: Int32(bitPattern: kind.rawValue), code: code, retry_after: retryAfter, text: cText,
          host: cHost)
        withUnsafePointer(to: &error) { body($0) }
      }
    }
  }
}
