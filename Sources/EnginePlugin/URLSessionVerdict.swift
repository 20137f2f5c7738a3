/// Whether `--engine auto` may use URLSession's WebSocket path, from the layers' reports: the
/// first layer (in order 1, 2, 3) that does not allow it decides. Pure.
public enum URLSessionVerdict: Sendable, Equatable {
  /// Every layer allows it (the plugin is then loaded and its own probe asked).
  case usable([LayerReport])
  /// This layer decided against it; the reports of the layers before it allowed it.
  case refused(by: LayerReport, after: [LayerReport])

  public static func decide(_ reports: [LayerReport]) -> URLSessionVerdict {
    let ordered = reports.sorted { $0.layer < $1.layer }
    var passed: [LayerReport] = []
    for report in ordered {
      guard report.allows else { return .refused(by: report, after: passed) }
      passed.append(report)
    }
    return .usable(passed)
  }

  /// The reason `--verbose` gives.
  public var reason: String {
    switch self {
    case .usable(let reports) where reports.isEmpty:
      return "URLSession is the system's WebSocket stack here"
    case .usable(let reports):
      return "every layer allows it (\(reports.map(\.text).joined(separator: "; ")))"
    case .refused(let report, let passed):
      let before = passed.isEmpty ? "" : " (passed: \(passed.map(\.text).joined(separator: "; ")))"
      return "decided by \(report.text)\(before)"
    }
  }
}
