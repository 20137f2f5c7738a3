/// A JSON object that keeps its members in document order. Keys are unique: when a document
/// repeats a key, the last value wins and takes the first occurrence's position.
public struct JSONObject: Sendable, Equatable {
  public struct Member: Sendable, Equatable {
    public var key: String
    public var value: JSONValue

    public init(key: String, value: JSONValue) {
      self.key = key
      self.value = value
    }
  }

  public private(set) var members: [Member]

  public init() { members = [] }

  public init(_ pairs: [(String, JSONValue)]) {
    members = []
    members.reserveCapacity(pairs.count)
    for (key, value) in pairs { self[key] = value }
  }

  public var count: Int { members.count }
  public var keys: [String] { members.map(\.key) }

  /// Member lookup; a linear scan, which beats hashing for the small objects feeds send.
  public subscript(key: String) -> JSONValue? {
    get {
      for member in members where member.key == key { return member.value }
      return nil
    }
    set {
      if let index = members.firstIndex(where: { $0.key == key }) {
        if let newValue {
          members[index].value = newValue
        } else {
          members.remove(at: index)
        }
      } else if let newValue {
        members.append(Member(key: key, value: newValue))
      }
    }
  }

  /// Appends without checking for an existing key (the parser checks on its own).
  mutating func appendUnchecked(key: String, value: JSONValue) {
    members.append(Member(key: key, value: value))
  }

  mutating func replaceValue(at index: Int, with value: JSONValue) {
    members[index].value = value
  }
}
