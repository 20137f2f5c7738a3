import Foundation
import TickerSupport

/// A text line of `ticker --demo` (time, symbol, price), read back: the demo's market trades at
/// the time of now, so its lines say when they were printed.
struct DemoLine: Equatable {
  var time: Int64
  var symbol: String
  var price: String

  /// `line` read as three tab-separated fields with an RFC 3339 time and a positive plain
  /// decimal price; nil for anything else.
  init?(_ line: String) {
    let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
    guard fields.count == 3, let time = RFC3339.milliseconds(fields[0]), let value = Double(fields[2]),
      value > 0, fields[2].allSatisfy({ $0.isNumber || $0 == "." })
    else { return nil }
    (self.time, symbol, price) = (time, fields[1], fields[2])
  }

  /// Whether the trade time is within `seconds` of this machine's clock.
  func isRecent(within seconds: Double = 120) -> Bool {
    abs(Double(time) / 1000 - Date().timeIntervalSince1970) <= seconds
  }
}
