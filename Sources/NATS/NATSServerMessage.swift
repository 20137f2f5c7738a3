import JSON

/// One operation from a NATS server, as `NATSServerParser` reads it. `message` only reaches a
/// subscriber (to a publisher, `MSG` is a protocol error).
public enum NATSServerMessage: Sendable, Equatable {
  case info(NATSServerInfo)
  case ping
  case pong
  case ok
  case error(NATSServerError)
  case message(NATSDelivery)
}

/// A `MSG`: what was published on `subject`, delivered for the subscription `sid`.
public struct NATSDelivery: Sendable, Equatable {
  public var subject: String
  public var sid: String
  public var payload: [UInt8]

  public init(subject: String, sid: String, payload: [UInt8]) {
    self.subject = subject
    self.sid = sid
    self.payload = payload
  }
}

/// What the server's `INFO` says that the publisher uses. Every field is optional on the wire.
public struct NATSServerInfo: Sendable, Equatable {
  public var serverID: String
  public var version: String
  /// The largest payload the server accepts (its `max_payload`; 1 MiB when absent).
  public var maxPayload: Int
  /// The server accepts only TLS connections.
  public var tlsRequired: Bool
  /// The server accepts TLS, though it does not require it (`tls_available`, NATS 2.10 and later).
  public var tlsAvailable: Bool = false
  /// What the client signs for NKEY authentication (`nonce`), when the server asks.
  public var nonce: String?
  public var authRequired: Bool

  public static let defaultMaxPayload = 1 << 20

  public init(
    serverID: String = "", version: String = "", maxPayload: Int = NATSServerInfo.defaultMaxPayload,
    tlsRequired: Bool = false, authRequired: Bool = false
  ) {
    self.serverID = serverID
    self.version = version
    self.maxPayload = maxPayload
    self.tlsRequired = tlsRequired
    self.authRequired = authRequired
  }

  /// Reads the JSON object after `INFO `; unknown fields are ignored, known ones of the wrong
  /// type are an error.
  init(json bytes: ArraySlice<UInt8>) throws(NATSProtocolError) {
    let value: JSONValue
    do {
      value = try JSONParser(maxDepth: 16).parse(Array(bytes))
    } catch {
      throw .badInfo("not JSON: \(error)")
    }
    guard let object = value.objectValue else { throw .badInfo("not a JSON object") }
    self.init()
    func string(_ key: String) throws(NATSProtocolError) -> String? {
      guard let field = object[key], !field.isNull else { return nil }
      guard let text = field.stringValue else { throw .badInfo("\(key) is not a string") }
      return String(text.prefix(64))
    }
    func bool(_ key: String) throws(NATSProtocolError) -> Bool? {
      guard let field = object[key], !field.isNull else { return nil }
      guard let flag = field.boolValue else { throw .badInfo("\(key) is not true or false") }
      return flag
    }
    serverID = try string("server_id") ?? ""
    version = try string("version") ?? ""
    tlsRequired = try bool("tls_required") ?? false
    tlsAvailable = try bool("tls_available") ?? false
    nonce = try string("nonce")
    authRequired = try bool("auth_required") ?? false
    if let field = object["max_payload"], !field.isNull {
      guard let text = field.numberText, let limit = Int(text), limit > 0 else {
        throw .badInfo("max_payload is not a positive whole number")
      }
      maxPayload = limit
    }
  }
}

/// A server's `-ERR 'text'`, and what it means for the connection.
public struct NATSServerError: Sendable, Equatable, CustomStringConvertible {
  /// The text between the quotes (at most 256 bytes kept).
  public var text: String

  public init(text: String) { self.text = text }

  /// The errors after which the server keeps the connection open (NATS protocol documentation:
  /// an invalid subject, or a permissions violation). Every other `-ERR` is followed by the server
  /// closing the connection.
  public var keepsConnection: Bool {
    let lower = text.lowercased()
    return lower.hasPrefix("invalid subject") || lower.hasPrefix("permissions violation")
  }

  /// The server refused the credentials (or wanted some): reconnecting with the same ones is
  /// refused again until the server's configuration changes.
  public var isAuthorization: Bool {
    let lower = text.lowercased()
    return lower.contains(text: "authorization") || lower.contains(text: "authentication")
  }

  public var description: String { "'\(text)'" }
}
