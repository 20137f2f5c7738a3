import WebSocketServer

/// The refusals of an upgrade `serve` makes itself.
enum ServeUpgradeRefusal {
  case unauthorized
  case full

  func send(_ writer: ServerFrameWriter) {
    switch self {
    case .unauthorized: ServerUpgrade.refuse(status: 401, reason: "Unauthorized", writer: writer)
    case .full:
      ServerUpgrade.refuse(
        status: 503, reason: "Service Unavailable", headers: [("Retry-After", "5")], writer: writer)
    }
  }
}
