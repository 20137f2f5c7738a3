import WebSocketClient
import WebSocketWire

/// An engine that says, with `--verbose`, what each connection's handshake agreed on about
/// compression: `compression: permessage-deflate; server_max_window_bits=12`, or why there is none.
public struct NegotiationReportingEngine: WebSocketEngine {
  let base: any WebSocketEngine
  let diagnostics: Diagnostics

  public init(_ base: any WebSocketEngine, diagnostics: Diagnostics) {
    self.base = base
    self.diagnostics = diagnostics
  }

  public var name: String { base.name }

  public func connect(to url: WebSocketURL, options: ConnectOptions) async throws(WebSocketError)
    -> any MessageConnection
  {
    let connection = try await base.connect(to: url, options: options)
    diagnostics.info(
      Self.describe(connection.extensions, offered: options.compression, engine: base.name),
      event: .compression)
    return connection
  }

  /// The line for a connection whose handshake agreed on `extensions`.
  static func describe(_ extensions: String?, offered: Bool, engine: String) -> String {
    if let extensions { return "compression: \(extensions)" }
    guard engine == "native" else { return "compression: none (the \(engine) engine offers none)" }
    return offered
      ? "compression: none (offered permessage-deflate; the server declined)"
      : "compression: none (--compression off)"
  }
}
