import Venues

/// The symbols a feed follows now: canonical for the venue, in the order they were added, each
/// once. Every change goes through `apply(_:)`, which says what it changed; a change that changes
/// nothing (adding a symbol already there, removing one that is not) changes nothing on the wire.
public struct Subscriptions: Sendable, Equatable {
  public private(set) var symbols: [String]

  public init(_ symbols: [String] = []) {
    var seen = Set<String>()
    self.symbols = symbols.filter { seen.insert($0).inserted }
  }

  public var isEmpty: Bool { symbols.isEmpty }
  public func contains(_ symbol: String) -> Bool { symbols.contains(symbol) }

  /// What one change did.
  public struct Change: Sendable, Equatable {
    public var added: [String] = []
    public var removed: [String] = []
    public var isEmpty: Bool { added.isEmpty && removed.isEmpty }

    public init(added: [String] = [], removed: [String] = []) {
      self.added = added
      self.removed = removed
    }
  }

  /// Applies `command` (symbols already canonical); returns what changed.
  @discardableResult
  public mutating func apply(_ command: SubscriptionCommand) -> Change {
    switch command {
    case .add(let list):
      var change = Change()
      for symbol in list where !symbols.contains(symbol) {
        symbols.append(symbol)
        change.added.append(symbol)
      }
      return change
    case .remove(let list):
      let gone = Set(list)
      let change = Change(removed: symbols.filter { gone.contains($0) })
      symbols.removeAll { gone.contains($0) }
      return change
    case .replace(let list):
      let next = Subscriptions(list)
      let change = Change(
        added: next.symbols.filter { !symbols.contains($0) },
        removed: symbols.filter { !next.symbols.contains($0) })
      symbols = next.symbols
      return change
    }
  }
}

/// A change to the subscription set.
public enum SubscriptionCommand: Sendable, Equatable {
  case add([String])
  case remove([String])
  /// The whole set becomes this.
  case replace([String])

  /// The same command with every symbol made canonical by `provider`, or the first symbol it
  /// refuses and why.
  public func canonical(for provider: any Provider) -> Result<SubscriptionCommand, ControlLineError> {
    var out: [String] = []
    for symbol in symbols {
      switch provider.canonicalSymbol(symbol) {
      case .success(let canonical): out.append(canonical)
      case .failure(let error): return .failure(.invalidSymbol(symbol, error.message))
      }
    }
    switch self {
    case .add: return .success(.add(out))
    case .remove: return .success(.remove(out))
    case .replace: return .success(.replace(out))
    }
  }

  public var symbols: [String] {
    switch self {
    case .add(let s), .remove(let s), .replace(let s): s
    }
  }
}
