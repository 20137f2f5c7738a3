/// Settings that make no sense together, found before anything starts. Both given on the command
/// line: a usage error (the person typing asked for both). One of them from the config file or
/// the environment: a warning, and the documented precedence applies (a saved setting must not
/// stop a one-off flag from working). Pure: the command prints and exits.
public enum ConfigConflicts {
  public struct Conflict: Sendable, Equatable, CustomStringConvertible {
    /// Refuse to start (exit 64) rather than warn.
    public var fatal: Bool
    public var message: String
    public var description: String { message }
  }

  /// The conflicts in `config`, in a fixed order.
  public static func check(_ config: TickerConfig) -> [Conflict] {
    var finder = Finder(config: config)
    finder.demo()
    finder.replay()
    finder.everyTrade()
    finder.format()
    finder.spread()
    finder.source()
    finder.natsSettings()
    finder.metricsSettings()
    return finder.found
  }

  /// Goes through the settings one concern at a time, collecting what does not go together.
  private struct Finder {
    let config: TickerConfig
    var found: [Conflict] = []

    /// `a` and `b` both set: fatal when both came from the command line.
    mutating func pair(_ a: String, _ b: String, _ why: String) {
      guard let sa = config.sources[a], let sb = config.sources[b] else { return }
      let fatal = sa == .commandLine && sb == .commandLine
      let origin = fatal ? "" : " (\(a) from \(sa.rawValue), \(b) from \(sb.rawValue))"
      found.append(Conflict(fatal: fatal, message: "\(a) and \(b) do not go together: \(why)\(origin)"))
    }

    mutating func demo() {
      guard config.demo else { return }
      pair("--demo", "--url", "the demo trades from its own local server, so --url would be ignored")
      // With --publish, the CA file may be for a tls:// NATS server.
      if config.publish == nil {
        pair(
          "--demo", "--cacert", "the demo's local server needs no certificate, so --cacert would be ignored")
      }
    }

    /// What a replay takes from its recording, or settings that apply only to a replay.
    mutating func replay() {
      if config.replay != nil {
        let why = "--replay takes the venue, the symbols and every frame from the recording"
        // From the config file or the environment they are simply not used: a saved --provider
        // must not make every replay warn.
        for setting in Settings.all
        where !setting.scope.sources.contains(.recording) && config.sources[setting.name] == .commandLine {
          pair("--replay", setting.name, why)
        }
      } else {
        for setting in Settings.all
        where setting.scope.sources == [.recording] && setting.name != "--replay"
          && config.sources[setting.name] != nil
        {
          found.append(Conflict(fatal: false, message: "\(setting.name) applies only with --replay: ignored"))
        }
      }
    }

    mutating func everyTrade() {
      guard config.everyTrade else { return }
      pair("--every-trade", "--debounce", "--every-trade prints every trade, so --debounce would be ignored")
      pair("--every-trade", "--max-wait", "--every-trade prints every trade, so --max-wait would be ignored")
    }

    /// What the output format cannot show.
    mutating func format() {
      if !config.format.hasTimeColumn {
        pair(
          "--format", "--timestamps",
          "--format \(config.format.rawValue) has no time column (--timestamps is for text, csv and tsv)")
      }
      if config.format == .price && config.bidAsk {
        found.append(
          Conflict(
            fatal: true,
            message: "--format price prints one bare number a line, and --bid-ask has two (the bid and "
              + "the ask): use --format tsv"))
      }
      if config.format == .price && config.symbols.count > 1 && config.replay == nil {
        found.append(
          Conflict(
            fatal: true,
            message: "--format price prints bare numbers, which cannot say which of "
              + "\(config.symbols.count) symbols they belong to: follow one symbol, or use --format tsv"))
      }
    }

    mutating func spread() {
      guard config.spread, config.format != .json, let spread = config.sources["--spread"] else { return }
      // The default format (never given) counts as the command line's: nothing else asked for it.
      let format = config.sources["--format"] ?? .commandLine
      let fatal = spread == .commandLine && format == .commandLine
      let origin =
        fatal ? "" : ": ignored (--spread from \(spread.rawValue), --format from \(format.rawValue))"
      found.append(
        Conflict(
          fatal: fatal,
          message: "--spread adds JSON records to the price lines: it needs --format json, "
            + "not \(config.format.rawValue)\(origin)"))
    }

    /// What a venue's connection needs, on a run that reads NATS instead.
    mutating func source() {
      guard config.source != nil else { return }
      let why = "--source reads prices from NATS, not from a venue"
      pair("--source", "--demo", why)
      pair("--source", "--url", why + ", so --url would be ignored")
      pair("--source", "--engine", why + ", so --engine would be ignored")
      pair("--source", "--compression", why + ", so --compression would be ignored")
      pair(
        "--source", "--record",
        "--record keeps a venue's own messages, and a --source run has none: record on the publisher")
      // The publisher's lines are already filtered: a consumer prints each one it gets. Typed for
      // this run, the filter is said to do nothing; saved ones are simply not used.
      let filters = ["--debounce", "--max-wait", "--every-trade"].filter {
        config.sources[$0] == .commandLine
      }
      if !filters.isEmpty {
        let names = filters.joined(separator: ", ")
        found.append(
          Conflict(
            fatal: false,
            message: "\(names) \(filters.count == 1 ? "does" : "do") nothing with --source: the publisher "
              + "debounced and deduplicated its lines already, and each one it sent is printed; set "
              + "\(filters.count == 1 ? "it" : "them") on the publisher"))
      }
    }

    /// Secrets on the command line, NATS settings with no NATS to use them, two keys.
    mutating func natsSettings() {
      for flag in ["--source", "--publish"] {
        guard let url = flag == "--source" ? config.source : config.publish, url.credentials != nil,
          config.sources[flag] == .commandLine
        else { continue }
        found.append(
          Conflict(
            fatal: true,
            message: "\(flag) with user:password@ or token@ on the command line shows the secret to "
              + "other users (ps, shell history): set TICKER_\(flag.dropFirst(2).uppercased()) or "
              + "\"\(flag.dropFirst(2))\" in the config file instead")
        )
      }
      for flag in ["--publish-buffer", "--publish-stream"]
      where config.sources[flag] != nil && config.publish == nil {
        found.append(Conflict(fatal: false, message: "\(flag) does nothing without --publish"))
      }
      for flag in ["--nats-nkey", "--nats-creds"]
      where config.sources[flag] != nil && config.publish == nil && config.source == nil {
        found.append(Conflict(fatal: false, message: "\(flag) does nothing without --publish or --source"))
      }
      pair("--nats-nkey", "--nats-creds", "each holds the key to sign in to NATS with: give one")
    }

    mutating func metricsSettings() {
      if config.sources["--metrics-token"] != nil, config.metrics == nil {
        found.append(Conflict(fatal: false, message: "--metrics-token does nothing without --metrics"))
      }
    }
  }
}
