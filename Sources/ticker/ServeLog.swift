import Gateway
import Outputs

/// What `ticker serve` says about its clients and its upstream: one status line per event
/// (Diagnostics escapes what clients control).
enum ServeLog {
  /// The status line for a hub event (Diagnostics escapes what clients control).
  static func say(_ event: ServeHub.Event, _ diagnostics: Diagnostics) {
    switch event {
    case .connected(let client, let open):
      diagnostics.note(
        "serve: client \(client) connected (\(open) open)", event: .clientConnected,
        fields: [.int("client", client), .int("open", open)])
    case .disconnected(let client, let status, let why, let open):
      let fields: [LogField] =
        [.int("client", client), .int("open", open)]
        + (status.map { [.int("code", Int($0.code.rawValue))] } ?? [])
      if let why {
        diagnostics.note(
          "serve: client \(client) closed by the server: \(why)\(status.map { " (\($0.code))" } ?? "") (\(open) open)",
          event: .clientDisconnected, fields: fields)
      } else {
        diagnostics.note(
          "serve: client \(client) disconnected\(status.map { ": \($0)" } ?? "") (\(open) open)",
          event: .clientDisconnected, fields: fields)
      }
    case .refused(let status, let why):
      diagnostics.note(
        "serve: refused a connection with HTTP \(status): \(why)", event: .clientRefused,
        fields: [.int("status", status)])
    case .request(let client, let request):
      switch request {
      case .subscribe(let symbol):
        diagnostics.info(
          "serve: client \(client) subscribes \(symbol)", event: .clientSubscribed,
          fields: [.int("client", client), .string("symbol", symbol)])
      case .unsubscribe(let symbol):
        diagnostics.info(
          "serve: client \(client) unsubscribes \(symbol)", event: .clientUnsubscribed,
          fields: [.int("client", client), .string("symbol", symbol)])
      case .ping: break
      }
    case .venueRefused(let symbol, let clients):
      diagnostics.note(
        "serve: the venue refused \(symbol); told client\(clients.count == 1 ? "" : "s") "
          + clients.map(String.init).joined(separator: ", "), event: .symbolRefused,
        fields: [.string("symbol", symbol)])
    case .clientError(let client, let message):
      diagnostics.info(
        "serve: client \(client) told: \(message)", event: .clientError, fields: [.int("client", client)])
    case .upstream(let subscribed, let unsubscribed):
      upstream(subscribed, unsubscribed, diagnostics)
    }
  }

  private static func upstream(_ subscribed: [String], _ unsubscribed: [String], _ diagnostics: Diagnostics) {
    if !subscribed.isEmpty {
      diagnostics.info(
        "serve: upstream subscribes \(subscribed.joined(separator: ", "))", event: .upstreamSubscribed,
        fields: [.strings("symbols", subscribed)])
    }
    if !unsubscribed.isEmpty {
      diagnostics.info(
        "serve: upstream unsubscribes \(unsubscribed.joined(separator: ", "))", event: .upstreamUnsubscribed,
        fields: [.strings("symbols", unsubscribed)])
    }
  }
}
