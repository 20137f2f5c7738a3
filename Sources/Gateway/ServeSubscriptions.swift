/// Who follows what, for `serve`: each client's symbols (canonical for the upstream venue, in
/// the order asked) and their union, which is what the upstream is subscribed to. A symbol joins
/// the union when the first client asks for it and leaves when the last one lets it go (an
/// unsubscribe, or the client leaving). Symbols pinned at start (`-s`) stay whatever clients do.
/// Pure: every change says what to tell the upstream.
public struct ServeSubscriptions: Sendable, Equatable {
  /// The most symbols one client may follow.
  public let perClientLimit: Int
  private(set) var clients: [Int: [String]] = [:]
  /// How many clients follow each symbol (pinned symbols count one more).
  private(set) var followers: [String: Int] = [:]
  /// The union, in the order symbols joined it.
  public private(set) var union: [String] = []

  public init(pinned: [String] = [], perClientLimit: Int) {
    self.perClientLimit = perClientLimit
    for symbol in pinned where followers[symbol] == nil {
      followers[symbol] = 1
      union.append(symbol)
    }
  }

  public enum AddResult: Sendable, Equatable {
    /// Added; `upstream` is true when the upstream must now subscribe to it.
    case added(upstream: Bool)
    /// The client follows it already.
    case already
    /// The client follows `perClientLimit` symbols already.
    case tooMany
  }

  public mutating func add(_ symbol: String, for client: Int) -> AddResult {
    var list = clients[client] ?? []
    if list.contains(symbol) { return .already }
    guard list.count < perClientLimit else { return .tooMany }
    list.append(symbol)
    clients[client] = list
    return .added(upstream: join(symbol))
  }

  /// Removes `symbol` from `client`'s set; true when the upstream must now unsubscribe from it.
  /// Nothing happens when the client did not follow it.
  public mutating func remove(_ symbol: String, for client: Int) -> Bool {
    guard var list = clients[client], let index = list.firstIndex(of: symbol) else { return false }
    list.remove(at: index)
    clients[client] = list
    return leave(symbol)
  }

  /// The client left: the symbols the upstream must now unsubscribe from.
  public mutating func removeClient(_ client: Int) -> [String] {
    guard let list = clients.removeValue(forKey: client) else { return [] }
    return list.filter { leave($0) }
  }

  /// The symbols `client` follows.
  public func symbols(of client: Int) -> [String] { clients[client] ?? [] }

  /// The clients following `symbol`, in ascending order.
  public func followers(of symbol: String) -> [Int] {
    clients.filter { $0.value.contains(symbol) }.map(\.key).sorted()
  }

  private mutating func join(_ symbol: String) -> Bool {
    let count = followers[symbol, default: 0]
    followers[symbol] = count + 1
    if count == 0 { union.append(symbol) }
    return count == 0
  }

  private mutating func leave(_ symbol: String) -> Bool {
    guard let count = followers[symbol] else { return false }
    if count <= 1 {
      followers[symbol] = nil
      union.removeAll { $0 == symbol }
      return true
    }
    followers[symbol] = count - 1
    return false
  }
}
