import Foundation
import TestSupport

/// The built ticker with `--bid-ask` against the independent book peer (`Tests/Support/book_peer.py`)
/// playing one venue's real top-of-book messages (`Tests/Fixtures/book/<venue>.json`).
enum BookPeerRun {
  /// The csv/tsv header of a run of the best bid and ask.
  static let header = "time\tsymbol\tbid\task\tbid_size\task_size"

  /// `ticker --provider VENUE --url ws://127.0.0.1:PORT<path> -s SYMBOLS --bid-ask --every-trade
  /// --format tsv --count N` against the peer, and the peer (to check what it was sent).
  static func run(_ venue: String, path: String, symbols: String, count: Int) async throws -> (
    result: TickerProcess.Result, peer: LinePeer
  ) {
    let fixture = Fixture.directory.appendingPathComponent("book/\(venue).json").path
    let (peer, port) = try await LinePeer.python("book_peer.py", [fixture])
    let result = try await TickerProcess.run(
      [
        "--provider", venue, "--url", "ws://127.0.0.1:\(port)\(path)", "-s", symbols, "--bid-ask",
        "--every-trade", "--format", "tsv", "--count", String(count),
      ], environment: TickerProcess.cleanEnvironment())
    return (result, peer)
  }
}
