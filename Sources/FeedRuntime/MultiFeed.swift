import Synchronization
import Venues

/// Several venues in one run: a `Feed` per venue — each with its own connection, limits,
/// keepalive and reconnects — and one bus carrying all their quotes, each stamped with its
/// venue's index (`Quote.venue`).
///
/// A venue that ends on its own (refused, failed, out of retries, closed by its server) is told
/// to `memberEnded` and the others go on; the run ends when every venue has ended, or at once
/// when it is stopped — by the caller (a signal, `--count`, stdout gone) or by one venue's
/// `--until` condition, which stops them all. Symbols name their venue (`binance/BTCUSDT`,
/// `ProviderCatalog.qualified`); an unqualified one belongs to `defaultVenue`.
public final class MultiFeed: QuoteFeed, ControlTarget {
  public let bus = QuoteBus()
  /// The venues' feeds; a feed's index is the venue its quotes carry.
  public let members: [Feed]
  private let defaultVenue: String
  private let memberEnded: @Sendable (_ index: Int, FeedOutcome) -> Void
  private let report: @Sendable (FeedReport) -> Void
  /// The first stop asked for (by the caller, or by a venue's `--until`).
  private let stopReason = Mutex<StopReason?>(nil)

  /// - Parameters:
  ///   - defaultVenue: the venue (provider name) of a symbol that names none.
  ///   - memberEnded: told, once per venue, how a venue's feed ended unless the run was stopped.
  ///   - report: told of control lines that change nothing (one venue's own reports go to the
  ///     closure its `Feed` was made with).
  public init(
    _ members: [Feed], defaultVenue: String,
    memberEnded: @escaping @Sendable (_ index: Int, FeedOutcome) -> Void,
    report: @escaping @Sendable (FeedReport) -> Void
  ) {
    precondition(!members.isEmpty && members.count <= Int(UInt8.max) + 1, "1 to 256 venues")
    self.members = members
    self.defaultVenue = defaultVenue
    self.memberEnded = memberEnded
    self.report = report
  }

  public func run() async -> FeedOutcome {
    // Every venue's bus is read before its feed starts, so no quote is published unread.
    let relays = members.map { $0.bus.subscribe() }
    let firstEnd = await withTaskGroup(of: (index: Int, outcome: FeedOutcome)?.self) { group in
      for (index, member) in members.enumerated() {
        group.addTask { [bus] in
          let venue = UInt8(index)
          // The venue's bus ends (it is never finished with an error) after its feed's last quote.
          while let batches = try? await relays[index].queue.nextBatch() {
            for batch in batches {
              var stamped = batch
              for i in stamped.indices { stamped[i].venue = venue }
              await bus.publish(stamped)
            }
          }
          return nil
        }
        group.addTask { (index, await member.run()) }
      }
      var firstEnd: FeedOutcome?
      for await ended in group {
        guard let (index, outcome) = ended else { continue }
        if case .stopped(let reason) = outcome {
          // A venue stops only when asked to, or when its `--until` held: that ends them all.
          stop(reason)
        } else {
          memberEnded(index, outcome)
          if firstEnd == nil { firstEnd = outcome }
        }
      }
      return firstEnd
    }
    bus.finish()
    if let reason = stopReason.withLock({ $0 }) { return .stopped(reason) }
    return firstEnd ?? .serverClosed(nil)
  }

  /// Adds symbols, each to its venue's feed.
  public func subscribe(_ symbols: [String]) { route(.add(symbols)) }
  /// Removes symbols from their venues' feeds.
  public func unsubscribe(_ symbols: [String]) { route(.remove(symbols)) }

  /// Stops every venue (the first request wins).
  public func stop(_ reason: StopReason) {
    let first = stopReason.withLock { current -> Bool in
      guard current == nil else { return false }
      current = reason
      return true
    }
    guard first else { return }
    for member in members { member.stop(reason) }
  }

  public func control(_ line: String) {
    switch ControlLine.parse(line) {
    case .success(.nothing): break
    case .success(.query): for member in members { member.control("?") }
    case .success(.command(let command)): route(command)
    case .failure(let error): report(.controlError(error))
    }
  }

  public func reportControlError(_ error: ControlLineError) { report(.controlError(error)) }

  /// Hands each venue its share of `command`. A replacement replaces every venue's set (a venue
  /// none of whose symbols is named follows nothing); a symbol of a venue not in the run changes
  /// nothing anywhere and is reported.
  private func route(_ command: SubscriptionCommand) {
    let symbols: [String]
    switch command {
    case .add(let list), .remove(let list), .replace(let list): symbols = list
    }
    var shares = [[String]](repeating: [], count: members.count)
    for symbol in symbols {
      let (venue, bare) = ProviderCatalog.qualified(symbol)
      let name = venue?.name ?? defaultVenue
      guard let index = members.firstIndex(where: { $0.provider.name == name }) else {
        let followed = members.map(\.provider.name).joined(separator: ", ")
        report(
          .controlError(.invalidSymbol(symbol, "this run does not follow \(name) (it follows \(followed))")))
        return
      }
      shares[index].append(bare)
    }
    for (index, share) in shares.enumerated() {
      switch command {
      case .add: if !share.isEmpty { members[index].subscribe(share) }
      case .remove: if !share.isEmpty { members[index].unsubscribe(share) }
      case .replace: members[index].replace(with: share)
      }
    }
  }
}
