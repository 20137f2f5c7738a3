import CLI
import FeedRuntime
import NATS
import NATSBridge
import Outputs
import Venues

/// `--publish`: every price the run prints also goes to NATS; nothing there ever stops or slows
/// the feed (docs/nats.md). `providers`: the run's venues, in the order `Quote.venue` counts them.
enum Publishing {
  static func start(
    to url: NATSURL, config: TickerConfig, key: NATSKeyAuth?, feed: any QuoteFeed, providers: [any Provider],
    monitor: RunMonitor, diagnostics: Diagnostics
  ) -> Task<Void, Never> {
    let reports = NATSReportWriter(diagnostics: diagnostics, url: url)
    let connected = ConnectedFlag()
    let publisher = NATSPublisher(
      .init(
        url: url, version: String(HelpText.version.split(separator: " ").last ?? ""),
        bufferCapacity: config.publishBuffer, stream: config.publishStream, caCertificateFile: config.cacert,
        key: key),
      report: { event in
        switch event {
        case .connected: connected.value.store(true, ordering: .relaxed)
        case .connectFailed, .lost, .finished: connected.value.store(false, ordering: .relaxed)
        case .serverError, .stream: break
        }
        reports.write(event)
      })
    monitor.watch(publisher, connected: connected)
    return PublishOutput.start(
      on: feed, publisher: publisher, providers: providers.map(\.name), limit: config.count,
      tooLong: { [diagnostics] symbol in
        diagnostics.warning("not publishing \(symbol): its NATS subject would be too long")
      })
  }
}
