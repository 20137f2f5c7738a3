/// A parsed JSON value. Numbers keep the exact text the document used (`95372.09` stays
/// `"95372.09"`), so prices never pass through a binary floating-point value on the way in.
public enum JSONValue: Sendable, Equatable {
  case null
  case bool(Bool)
  /// The number's text exactly as written (RFC 8259 grammar, already validated).
  case number(String)
  case string(String)
  case array([JSONValue])
  case object(JSONObject)

  /// The value of `key` when this is an object (last occurrence wins), else nil.
  public subscript(key: String) -> JSONValue? {
    if case .object(let object) = self { return object[key] }
    return nil
  }

  public var stringValue: String? {
    if case .string(let s) = self { return s }
    return nil
  }

  public var numberText: String? {
    if case .number(let n) = self { return n }
    return nil
  }

  public var boolValue: Bool? {
    if case .bool(let b) = self { return b }
    return nil
  }

  public var arrayValue: [JSONValue]? {
    if case .array(let a) = self { return a }
    return nil
  }

  public var objectValue: JSONObject? {
    if case .object(let o) = self { return o }
    return nil
  }

  public var isNull: Bool {
    if case .null = self { return true }
    return false
  }

  /// A short name of the value's kind, for error messages ("a string", "an array", …).
  public var kindDescription: String {
    switch self {
    case .null: "null"
    case .bool: "a boolean"
    case .number: "a number"
    case .string: "a string"
    case .array: "an array"
    case .object: "an object"
    }
  }
}
