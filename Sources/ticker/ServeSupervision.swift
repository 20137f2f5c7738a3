import FeedRuntime
import Outputs
import Venues

/// `ticker serve` under systemd and SIGHUP, in the few calls `ServeCommand.serve` makes: ready
/// (`READY=1`) once listening, whatever its upstreams do; alive for the watchdog while the venues
/// it follows from the start (`--symbol`) are connected — venues its clients open later do not
/// count, so that no client can get the gateway restarted; SIGHUP said and ignored (the clients
/// choose what is followed), between `RELOADING=1` and `READY=1`.
struct ServeSupervision: Sendable {
  let service: ServiceSupervisor?
  let reload: ConfigReload

  static func start(
    _ context: RunContext, diagnostics: Diagnostics, venues: [any Provider], pinned: [String],
    monitor: RunMonitor
  ) -> ServeSupervision {
    let counted = pinnedVenues(pinned, venues)
    let service = ServiceSupervisor.start(
      context, diagnostics: diagnostics, venues: venues, counted: counted, readyOnConnection: false,
      isAlive: { monitor.isAlive(counting: counted) })
    let reload = ConfigReload.watch(
      context, .nothing("serve follows what its clients ask for: a reload changes nothing"),
      service: service, diagnostics: diagnostics)
    return ServeSupervision(service: service, reload: reload)
  }

  /// An upstream venue's report.
  func report(venue: Int, _ report: FeedReport) { service?.report(venue: venue, report) }

  /// Clients can connect: ready.
  func listening(host: String, port: Int) {
    let bracketed = host.utf8.contains(UInt8(ascii: ":")) ? "[\(host)]" : host
    service?.ready(headline: "serving on ws://\(bracketed):\(port)/")
  }

  /// The run ends (`STOPPING=1`).
  func stop() {
    reload.cancel()
    service?.stopping()
  }

  /// The indices of the venues the pinned symbols belong to (`venue/SYMBOL`, or bare for the
  /// first venue's).
  static func pinnedVenues(_ pinned: [String], _ venues: [any Provider]) -> Set<Int> {
    Set(
      pinned.compactMap { symbol in
        guard let named = ProviderCatalog.qualified(symbol).0 else { return 0 }
        return venues.firstIndex { $0.name == named.name }
      })
  }
}
