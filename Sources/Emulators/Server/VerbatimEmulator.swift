import Recording
import WebSocketServer

/// No venue at all: the script's server messages go out as they are, from the first moment,
/// and nothing the client says is answered.
struct VerbatimEmulator: VenueEmulator {
  func admit(_ request: ServerHandshake.Request) -> Admission { .accept }
  func receive(_ input: ClientInput, at now: Duration) -> [EmulatorAction] { [] }

  func outgoing(_ step: SessionScript.Step, at now: Duration) -> [EmulatorAction] {
    switch step.kind {
    case .text: [.text(step.body)]
    case .binary: [.binary(step.body)]
    case .ping: [.ping(Array(step.body.utf8.prefix(125)))]
    case .close: [.close(SessionScript.closeStatus(step.body))]
    case .http, .raw: []
    }
  }

  func tick(at now: Duration) -> [EmulatorAction] { [] }
  var nextDeadline: Duration? { nil }
  var isClosing: Bool { false }
  func isReady(awaiting: Int) -> Bool { true }
  var requestCount: Int { 0 }
  var subscribed: [String] { [] }
  var lastPrices: [String: (price: String, time: Int64)] { [:] }
  func synthetic(_ trades: [SyntheticTrade]) -> [EmulatorAction] { [] }
  func walkStart(for symbol: String) -> WalkStart? { nil }
  var syntheticKeepalive: (action: EmulatorAction, seconds: Double)? { nil }
}
