import FeedRuntime
import Gateway
import Monitoring
import NATS
import Outputs
import Synchronization

/// What the run's operators see (`--metrics`, `/healthz`) and what the systemd watchdog asks:
/// each venue's feed, as it starts, and the sections of the other parts of the run (`--publish`,
/// `serve`). Read on the metrics endpoint's thread; every source it reads is safe from any thread.
final class RunMonitor: Sendable {
  /// The venues' names (the metrics' `venue` label), by the feed's index in the run.
  private let venues: [String]
  private let feeds: Mutex<[Int: Feed]>
  private let sections = Mutex<[@Sendable (inout PrometheusText) -> Void]>([])
  /// Only the venues whose feed started count (serve opens venues as clients ask for them).
  private let onlyStarted: Bool

  init(venues: [String], onlyStarted: Bool = false) {
    self.venues = venues
    self.onlyStarted = onlyStarted
    feeds = Mutex([:])
  }

  /// The feed of venue `index` started.
  func attach(_ feed: Feed, venue index: Int) {
    feeds.withLock { $0[index] = feed }
  }

  /// Another part of the run's families, written after the venues'.
  func add(section: @escaping @Sendable (inout PrometheusText) -> Void) {
    sections.withLock { $0.append(section) }
  }

  private var venueFigures: [FeedMetrics.Venue] {
    let feeds = self.feeds.withLock { $0 }
    return venues.enumerated().compactMap { index, name in
      guard let feed = feeds[index] else {
        return onlyStarted ? nil : FeedMetrics.Venue(name: name, statistics: nil)
      }
      return FeedMetrics.Venue(name: name, statistics: feed.statistics())
    }
  }

  /// The exposition: the venues, the other sections, the process.
  func metrics() -> String {
    var text = PrometheusText()
    FeedMetrics.write(venueFigures, into: &text)
    for section in sections.withLock({ $0 }) { section(&text) }
    ProcessMetrics.append(to: &text)
    return text.text
  }

  /// Why the run is not well, a line each; empty when every venue is connected, sending, and
  /// without stale symbols.
  func problems() -> [String] { FeedMetrics.problems(venueFigures) }

  /// The systemd watchdog's question: is every venue counted (all by default) connected and has
  /// its feed taken a message within the silence limit? A feed whose task is stuck (stdout's
  /// reader gone quiet) stops taking messages, and so stops being alive. Stale symbols do not
  /// count: a restart would not make a halted market trade.
  func isAlive(counting counted: Set<Int>? = nil) -> Bool {
    let feeds = self.feeds.withLock { $0 }
    for index in venues.indices where counted?.contains(index) ?? true {
      guard let statistics = feeds[index]?.statistics(), statistics.connected else { return false }
      if let limit = statistics.silenceLimit, let age = statistics.sinceLastMessage, age > limit {
        return false
      }
    }
    return true
  }
}

extension RunMonitor {
  /// `ticker serve`'s families.
  func watch(_ hub: ServeHub) {
    add { text in
      let counts = hub.counts
      text.family("ticker_serve_clients", .gauge, help: "WebSocket clients connected to ticker serve.")
      text.sample("ticker_serve_clients", [:], Double(counts.clients))
      text.family("ticker_serve_frames_total", .counter, help: "Frames queued to ticker serve's clients.")
      text.sample("ticker_serve_frames_total", [:], Double(counts.frames))
      text.family(
        "ticker_serve_slow_clients_dropped_total", .counter,
        help: "Clients ticker serve dropped because their send queue was full.")
      text.sample("ticker_serve_slow_clients_dropped_total", [:], Double(counts.slowDrops))
    }
  }

  /// `--publish`'s families.
  func watch(_ publisher: NATSPublisher, connected: ConnectedFlag) {
    add { text in
      let counts = publisher.counts
      text.family("ticker_publish_connected", .gauge, help: "Whether --publish's NATS connection is up.")
      text.sample("ticker_publish_connected", [:], connected.value.load(ordering: .relaxed) ? 1 : 0)
      text.family("ticker_publish_published_total", .counter, help: "Prices published to NATS.")
      text.sample("ticker_publish_published_total", [:], Double(counts.published))
      text.family(
        "ticker_publish_buffered", .gauge, help: "Prices held for NATS while it is unreachable or slow.")
      text.sample("ticker_publish_buffered", [:], Double(counts.buffered))
      text.family(
        "ticker_publish_dropped_total", .counter, help: "Prices not published: NATS's buffer was full.")
      text.sample("ticker_publish_dropped_total", [:], Double(counts.dropped))
    }
  }
}

/// Whether `--publish`'s NATS connection is up, for its metrics.
final class ConnectedFlag: Sendable {
  let value = Atomic<Bool>(false)
}
