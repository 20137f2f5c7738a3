import Gateway
import Outputs

/// What `ticker serve` says about its clients and its upstream: one status line per event
/// (Diagnostics escapes what clients control).
enum ServeLog {
  /// The status line for a hub event (Diagnostics escapes what clients control).
  static func say(_ event: ServeHub.Event, _ diagnostics: Diagnostics) {
    switch event {
    case .connected(let client, let open):
      diagnostics.note("serve: client \(client) connected (\(open) open)")
    case .disconnected(let client, let status, let why, let open):
      if let why {
        diagnostics.note(
          "serve: client \(client) closed by the server: \(why)\(status.map { " (\($0.code))" } ?? "") (\(open) open)"
        )
      } else {
        diagnostics.note(
          "serve: client \(client) disconnected\(status.map { ": \($0)" } ?? "") (\(open) open)")
      }
    case .refused(let status, let why):
      diagnostics.note("serve: refused a connection with HTTP \(status): \(why)")
    case .request(let client, let request):
      switch request {
      case .subscribe(let symbol): diagnostics.info("serve: client \(client) subscribes \(symbol)")
      case .unsubscribe(let symbol): diagnostics.info("serve: client \(client) unsubscribes \(symbol)")
      case .ping: break
      }
    case .venueRefused(let symbol, let clients):
      diagnostics.note(
        "serve: the venue refused \(symbol); told client\(clients.count == 1 ? "" : "s") "
          + clients.map(String.init).joined(separator: ", "))
    case .clientError(let client, let message):
      diagnostics.info("serve: client \(client) told: \(message)")
    case .upstream(let subscribed, let unsubscribed):
      if !subscribed.isEmpty {
        diagnostics.info("serve: upstream subscribes \(subscribed.joined(separator: ", "))")
      }
      if !unsubscribed.isEmpty {
        diagnostics.info("serve: upstream unsubscribes \(unsubscribed.joined(separator: ", "))")
      }
    }
  }
}
