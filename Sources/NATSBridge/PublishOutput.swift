import FeedRuntime
import NATS
import Outputs
import Venues

/// The `--publish` output: a consumer of the feed's bus that sends every quote to NATS as one
/// message on `ticker.<provider>.<symbol>` (a best bid and ask on `ticker.book.<provider>.<symbol>`;
/// `SubjectEscaping`; in a run of several venues, the
/// quote's venue, `providers` indexed by `Quote.venue`), its payload the `--format json`
/// line without the newline (`JSONLinesFormatter`: the same bytes stdout prints).
///
/// It never holds the feed back: its bus queue evicts the oldest batches when full
/// (`QuoteBus.Overflow.dropOldest`), and the `NATSPublisher` it feeds never blocks either; both
/// count what they drop. With a `limit` (`--count`) it sends at most that many, as stdout prints.
public enum PublishOutput {
  /// Subjects longer than this are not sent (a server's control line is 4 KiB by default).
  public static let maximumSubjectBytes = 1024

  /// Starts consuming `feed`'s quotes; the task ends once the feed's bus ended and the
  /// publisher finished (await it before exit). Starts `publisher`.
  public static func start(
    on feed: any QuoteFeed, publisher: NATSPublisher, providers: [String], limit: Int?,
    tooLong: @escaping @Sendable (String) -> Void = { _ in }
  ) -> Task<Void, Never> {
    let subscription = feed.bus.subscribe(
      capacity: 1024, quoteLimit: 16_384, overflow: .dropOldest(onDrop: { publisher.countDropped($0) }))
    publisher.start()
    return Task {
      var formatter = JSONLinesFormatter(providers: providers)
      var encoders = providers.map(Encoder.init(provider:))
      var sent = 0
      var line: [UInt8] = []
      reading: while let batches = try? await subscription.queue.nextBatch() {
        for quotes in batches {
          var batch = PublishBatch()
          batch.bytes.reserveCapacity(quotes.count * 300)
          batch.ends.reserveCapacity(quotes.count)
          for quote in quotes {
            if let limit, sent >= limit { break }
            sent += 1
            line.removeAll(keepingCapacity: true)
            formatter.append(quote, to: &line)
            line.removeLast()  // the newline
            let venue = Int(quote.venue) < encoders.count ? Int(quote.venue) : 0
            guard
              let subject = encoders[venue].subject(
                for: quote.symbol, book: quote.ask != nil, tooLong: tooLong)
            else { continue }
            batch.append(subject: subject, payload: line)
          }
          publisher.publish(batch)
          if let limit, sent >= limit { break reading }
        }
      }
      if let limit, sent >= limit {
        feed.bus.unsubscribe(subscription)
        subscription.queue.cancel()
      }
      await publisher.finish()
    }
  }

  /// Subjects per symbol, made once each (a few symbols, millions of quotes).
  struct Encoder {
    let provider: String
    private var cache: [String: [UInt8]] = [:]
    /// The same for the best bid and ask (a run follows one or the other: one cache is used).
    private var bookCache: [String: [UInt8]] = [:]

    init(provider: String) { self.provider = provider }

    /// The subject's bytes, or nil when it would be longer than `maximumSubjectBytes` (then
    /// `tooLong` is told, the first time).
    mutating func subject(for symbol: String, book: Bool = false, tooLong: (String) -> Void) -> [UInt8]? {
      if book { return Self.subject(for: symbol, provider: provider, book: true, in: &bookCache, tooLong) }
      return Self.subject(for: symbol, provider: provider, book: false, in: &cache, tooLong)
    }

    private static func subject(
      for symbol: String, provider: String, book: Bool, in cache: inout [String: [UInt8]],
      _ tooLong: (String) -> Void
    ) -> [UInt8]? {
      if let known = cache[symbol] { return known.isEmpty ? nil : known }
      let subject = Array(SubjectEscaping.subject(provider: provider, symbol: symbol, book: book).utf8)
      let usable = subject.count <= PublishOutput.maximumSubjectBytes ? subject : []
      if usable.isEmpty { tooLong(symbol) }
      if cache.count >= 4096 { cache.removeAll() }  // a venue sending endless new symbols
      cache[symbol] = usable
      return usable.isEmpty ? nil : usable
    }
  }
}
