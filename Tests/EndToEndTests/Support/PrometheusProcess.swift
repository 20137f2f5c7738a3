import Foundation
import TestSupport

/// A real Prometheus server (Debian's `prometheus`, installed by `Scripts/setup-test-env.sh`) on a
/// free loopback port, scraping one target every second, with its storage in a directory of its
/// own; queried through its HTTP API.
final class PrometheusProcess: @unchecked Sendable {
  // `@unchecked`: set once in init.
  let port: Int
  private let directory: URL
  private let process: Spawned

  init(scraping target: String) throws {
    try TestTools.require([.prometheus])
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("ticker-prometheus-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let config = """
      global:
        scrape_interval: 1s
        scrape_timeout: 1s
      scrape_configs:
        - job_name: ticker
          static_configs:
            - targets: ["\(target)"]
      """
    let file = directory.appendingPathComponent("prometheus.yml")
    try config.write(to: file, atomically: true, encoding: .utf8)
    port = try HTTPFetch.freePort()
    process = try Spawned(
      TestTools.prometheus ?? "/usr/bin/prometheus",
      [
        "--config.file=\(file.path)", "--storage.tsdb.path=\(directory.appendingPathComponent("data").path)",
        "--web.listen-address=127.0.0.1:\(port)", "--log.level=warn",
      ], standardOutput: .null, standardError: .null)
  }

  deinit {
    process.terminate()
    _ = process.waitForExit(within: 10)
    try? FileManager.default.removeItem(at: directory)
  }

  /// The instant query's values, one per series (empty while it has none, or while the server
  /// is starting).
  func query(_ expression: String) -> [String] {
    let encoded = expression.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? expression
    guard let response = try? HTTPFetch.get(port, "/api/v1/query?query=\(encoded)", timeout: 5),
      response.status == 200,
      let object = try? JSONSerialization.jsonObject(with: Data(response.body.utf8)) as? [String: Any],
      let data = object["data"] as? [String: Any], let result = data["result"] as? [[String: Any]]
    else { return [] }
    return result.compactMap { ($0["value"] as? [Any])?.last as? String }
  }

  /// Asks `expression` again until its values are `expected` or `seconds` pass (a hang guard: a
  /// scrape a second, so it is met within a few); the values last seen.
  func await(_ expression: String, toBe expected: [String], within seconds: Double = 60) -> [String] {
    let limit = Date().addingTimeInterval(seconds)
    var seen = query(expression)
    while seen != expected, Date() < limit {
      Thread.sleep(forTimeInterval: 0.25)
      seen = query(expression)
    }
    return seen
  }
}
