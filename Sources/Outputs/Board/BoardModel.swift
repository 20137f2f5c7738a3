import Venues

/// Sparkline points kept per symbol (the widest sparkline drawn is narrower).
let sparkHistory = 64

/// What the board shows, as data: one row per subscribed symbol with its last quote, the
/// direction of its last move, its change since its first price, a history of recent prices for
/// the sparkline and a sliding count of trades for the rate; plus the venue, the connection
/// state and the latest message. Pure: fed quotes with the instants they arrived at, asked
/// about a given instant; `BoardRenderer` turns it into a frame.
public struct BoardModel<Instant: InstantProtocol>: Sendable where Instant.Duration == Duration {
  public struct Row: Sendable {
    /// As quotes name it.
    public let symbol: String
    /// The first price since the row appeared: the reference for the change.
    public fileprivate(set) var first: Price?
    public fileprivate(set) var last: Quote?
    /// What the change and the sparkline follow: the last trade's price, or the mid of the last
    /// book (`--bid-ask`).
    public fileprivate(set) var current: Price?
    /// Since the row's previous price.
    public fileprivate(set) var direction: PriceDirection = .unchanged
    /// When the row appeared (the rate's window starts there).
    let since: Instant
    /// The last price in each sparkline interval that had a trade, oldest first.
    fileprivate var samples: [(interval: Int64, value: Double)] = []
    /// Trades per rate bucket, a ring over the rate window.
    fileprivate var counts: [Int]
    fileprivate var newestBucket: Int64 = -1

    fileprivate init(symbol: String, since: Instant, buckets: Int) {
      self.symbol = symbol
      self.since = since
      counts = Array(repeating: 0, count: buckets)
    }

    /// Takes a quote in: sparkline `interval`, rate `bucket`.
    fileprivate mutating func record(_ quote: Quote, interval: Int64, bucket: Int64) {
      let price = BookPrices.reference(of: quote)
      direction = PriceDirection(from: current, to: price)
      if first == nil { first = price }
      last = quote
      current = price
      if let newest = samples.last, newest.interval >= interval {
        samples[samples.count - 1].value = price.value
      } else {
        samples.append((interval, price.value))
        if samples.count > sparkHistory { samples.removeFirst() }
      }
      let ring = Int64(counts.count)
      if bucket > newestBucket {
        // The buckets passed over since the newest had no trades.
        if bucket - newestBucket >= ring {
          for i in counts.indices { counts[i] = 0 }
        } else {
          for skipped in (newestBucket + 1)...bucket { counts[Int(skipped % ring)] = 0 }
        }
        newestBucket = bucket
      }
      if bucket > newestBucket - ring { counts[Int(bucket % ring)] += 1 }
    }

    /// The change since `first`, once there is a price.
    public var change: PriceChange? {
      guard let first, let current else { return nil }
      return PriceChange(from: first, to: current)
    }
  }

  public let venue: String
  public private(set) var rows: [Row] = []
  private var rowIndex: [String: Int] = [:]
  public var connection: BoardConnection = .connecting
  /// Symbols reported stale (`--stale-after`) and not recovered: the status line counts them.
  public var stale: Set<String> = []
  /// The latest diagnostic (already escaped for a terminal) and when it came: the status line
  /// shows it for `messageLifetime`.
  public private(set) var message: (text: String, since: Instant)?
  public static var messageLifetime: Duration { .seconds(30) }
  /// Every quote received (what `--count` counts).
  public private(set) var received = 0

  let origin: Instant
  /// Trades per second are counted over this window, in buckets of `rateWindow / rateBuckets`.
  let rateWindow: Duration
  let rateBuckets: Int
  /// One sparkline point per interval: the last price in it (carried forward when quiet).
  let sparkInterval: Duration

  public init(
    venue: String, symbols: [String], start: Instant, rateWindow: Duration = .seconds(10),
    rateBuckets: Int = 100, sparkInterval: Duration = .seconds(1)
  ) {
    self.venue = venue
    origin = start
    self.rateWindow = rateWindow
    self.rateBuckets = max(1, rateBuckets)
    self.sparkInterval = sparkInterval
    setSymbols(symbols, at: start)
  }

  /// Makes the rows exactly `symbols`, in that order; rows that stay keep their state.
  public mutating func setSymbols(_ symbols: [String], at now: Instant) {
    var kept: [String: Row] = [:]
    for row in rows { kept[row.symbol] = row }
    var seen = Set<String>()
    rows = symbols.compactMap { symbol in
      guard seen.insert(symbol).inserted else { return nil }
      return kept[symbol] ?? Row(symbol: symbol, since: now, buckets: rateBuckets)
    }
    rowIndex = [:]
    for (index, row) in rows.enumerated() { rowIndex[row.symbol] = index }
  }

  /// Shows `text` in the status line from `now` on.
  public mutating func show(message text: String, at now: Instant) {
    message = (text, now)
  }

  /// The message to show at `now`, if one is recent enough.
  public func message(at now: Instant) -> String? {
    guard let message, message.since.duration(to: now) < Self.messageLifetime else { return nil }
    return message.text
  }

  /// A quote that arrived at `now`. It is counted; a quote for a symbol no longer on the board
  /// (a removed symbol's last price) changes nothing else.
  public mutating func receive(_ quote: Quote, at now: Instant) {
    received += 1
    guard let index = rowIndex[quote.symbol] else { return }
    rows[index].record(
      quote, interval: interval(of: now, length: sparkInterval),
      bucket: interval(of: now, length: rateWindow / rateBuckets))
  }

  /// Trades per second for `row` over the window ending at `now` (over the time since the row
  /// appeared while that is shorter, but at least a second).
  public func tradesPerSecond(_ row: Row, at now: Instant) -> Double {
    let count = Int64(rateBuckets)
    let current = interval(of: now, length: rateWindow / rateBuckets)
    let low = max(current - count + 1, row.newestBucket - count + 1, 0)
    let high = min(current, row.newestBucket)
    var trades = 0
    if high >= low {
      for bucket in low...high { trades += row.counts[Int(bucket % count)] }
    }
    let elapsed = max(.seconds(1), min(rateWindow, row.since.duration(to: now)))
    return Double(trades) / Self.seconds(elapsed)
  }

  /// The last `width` sparkline points up to `now`, oldest first; nil before the first trade.
  public func sparkline(_ row: Row, width: Int, at now: Instant) -> [Double?] {
    guard width > 0 else { return [] }
    let current = interval(of: now, length: sparkInterval)
    var points: [Double?] = []
    points.reserveCapacity(width)
    var next = 0
    var carried: Double?
    for column in 0..<Int64(width) {
      let interval = current - Int64(width) + 1 + column
      while next < row.samples.count && row.samples[next].interval <= interval {
        carried = row.samples[next].value
        next += 1
      }
      points.append(carried)
    }
    return points
  }

  /// Which interval of `length` since the start `instant` falls in (0 for anything earlier).
  func interval(of instant: Instant, length: Duration) -> Int64 {
    let elapsed = Self.nanoseconds(origin.duration(to: instant))
    let step = Self.nanoseconds(length)
    guard elapsed > 0, step > 0 else { return 0 }
    return elapsed / step
  }

  static func nanoseconds(_ duration: Duration) -> Int64 {
    let (s, attoseconds) = duration.components
    return s * 1_000_000_000 + attoseconds / 1_000_000_000
  }

  static func seconds(_ duration: Duration) -> Double {
    let (s, attoseconds) = duration.components
    return Double(s) + Double(attoseconds) / 1e18
  }

}
