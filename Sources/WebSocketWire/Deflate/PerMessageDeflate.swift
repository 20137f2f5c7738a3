/// What permessage-deflate (RFC 7692) a connection agreed on, from one side's point of view: how
/// the peer compresses what we receive (`inbound…`) and how we may compress what we send
/// (`outbound…`). A client's inbound side is the server's (`server_*` parameters), and its outbound
/// side the client's (`client_*`); a server's, the other way round.
public struct PerMessageDeflate: Sendable, Equatable {
  /// The peer starts each message with an empty LZ77 window: our inflater resets after each.
  public var inboundNoContextTakeover = false
  /// The peer's window, 9–15 bits. An 8-bit window (which zlib cannot make, but a peer might
  /// announce) is inflated with a 9-bit one: a larger window reads a smaller one's output.
  public var inboundWindowBits = 15
  /// We must start each message with an empty window.
  public var outboundNoContextTakeover = false
  /// The largest window we may compress with, 9–15 bits.
  public var outboundWindowBits = 15
  /// The agreed extension as the server's response put it, for diagnostics.
  public var agreement = "permessage-deflate"

  public init(
    inboundNoContextTakeover: Bool = false, inboundWindowBits: Int = 15,
    outboundNoContextTakeover: Bool = false, outboundWindowBits: Int = 15,
    agreement: String = "permessage-deflate"
  ) {
    self.inboundNoContextTakeover = inboundNoContextTakeover
    self.inboundWindowBits = inboundWindowBits
    self.outboundNoContextTakeover = outboundNoContextTakeover
    self.outboundWindowBits = outboundWindowBits
    self.agreement = agreement
  }

  static let name = "permessage-deflate"

  /// The client's offer: permessage-deflate with `client_max_window_bits` and no value, which
  /// lets the server choose the window we compress with (without it the server could not).
  public static let clientOffer = "permessage-deflate; client_max_window_bits"

  // MARK: - Client

  /// What the server's `Sec-WebSocket-Extensions` agreed to, when we sent `clientOffer` (`offered`)
  /// or no offer at all. Nil: no extension, frames are uncompressed. Throws when the answer names
  /// an extension we did not offer, or is not a valid acceptance of our offer (RFC 7692 §5: the
  /// client must then fail the connection).
  public static func clientAgreement(
    to values: [String], offered: Bool
  ) throws(HandshakeError) -> PerMessageDeflate? {
    let header: ExtensionHeader
    do {
      header = try ExtensionHeader(parsing: values)
    } catch {
      throw .invalidExtension("unreadable Sec-WebSocket-Extensions: \(error.description)")
    }
    guard !header.elements.isEmpty else { return nil }
    guard offered, header.elements.allSatisfy({ $0.name == name }) else {
      throw .unexpectedExtension(header.text)
    }
    guard header.elements.count == 1 else {
      throw .invalidExtension(
        "permessage-deflate accepted \(header.elements.count) times; we offered it once")
    }
    var agreed = PerMessageDeflate(agreement: header.text)
    var seen: Set<String> = []
    for parameter in header.elements[0].parameters {
      guard seen.insert(parameter.name).inserted else {
        throw .invalidExtension("permessage-deflate parameter \(parameter.name) given twice")
      }
      switch parameter.name {
      case "server_no_context_takeover":
        try noValue(parameter)
        agreed.inboundNoContextTakeover = true
      case "client_no_context_takeover":
        try noValue(parameter)
        agreed.outboundNoContextTakeover = true
      case "server_max_window_bits":
        // The server may state its window even though we did not ask (RFC 7692 §7.1.2.1).
        agreed.inboundWindowBits = max(9, try windowBits(parameter))
      case "client_max_window_bits":
        let bits = try windowBits(parameter)
        guard bits >= 9 else {
          throw .invalidExtension(
            "the server asked for client_max_window_bits=8, which zlib cannot compress with")
        }
        agreed.outboundWindowBits = bits
      default:
        throw .invalidExtension("unknown permessage-deflate parameter \(parameter.name)")
      }
    }
    return agreed
  }

  private static func noValue(_ parameter: ExtensionHeader.Parameter) throws(HandshakeError) {
    guard let value = parameter.value else { return }
    throw .invalidExtension("\(parameter.name) takes no value, got \"\(value)\"")
  }

  /// A window size in bits: "8" to "15", no sign, no leading zero (RFC 7692 §7.1.2). A response
  /// must give a value (§7.1.2.2), and an offer's `server_max_window_bits` too.
  static func windowBits(_ parameter: ExtensionHeader.Parameter) throws(HandshakeError) -> Int {
    guard let value = parameter.value else { throw .invalidExtension("\(parameter.name) needs a value") }
    guard let bits = windowBitsValue(value) else {
      throw .invalidExtension("\(parameter.name)=\(value) is not a window size from 8 to 15")
    }
    return bits
  }

  static func windowBitsValue(_ text: String) -> Int? {
    guard text.utf8.count <= 2, text.utf8.first != UInt8(ascii: "0"),
      text.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
      let bits = Int(text), (8...15).contains(bits)
    else { return nil }
    return bits
  }

  // MARK: - Server

  /// What a server answers an offer with.
  public struct ServerPolicy: Sendable, Equatable {
    /// Reset our compression context after each message (`server_no_context_takeover`).
    public var serverNoContextTakeover = false
    /// Ask the client to reset its context after each message (`client_no_context_takeover`).
    public var clientNoContextTakeover = false
    /// Compress with at most this window (9–15), and say so.
    public var serverMaxWindowBits: Int?
    /// Ask the client to compress with at most this window (9–15), when its offer allows.
    public var clientMaxWindowBits: Int?

    public init(
      serverNoContextTakeover: Bool = false, clientNoContextTakeover: Bool = false,
      serverMaxWindowBits: Int? = nil, clientMaxWindowBits: Int? = nil
    ) {
      self.serverNoContextTakeover = serverNoContextTakeover
      self.clientNoContextTakeover = clientNoContextTakeover
      self.serverMaxWindowBits = serverMaxWindowBits
      self.clientMaxWindowBits = clientMaxWindowBits
    }
  }

  /// The server side of the negotiation (RFC 7692 §5, §7.1): the first permessage-deflate offer
  /// in the client's values that `policy` can accept, as the response value and the agreement
  /// from the server's point of view. Nil when there is none (or the header is unreadable): the
  /// server then answers without the extension and frames are uncompressed.
  public static func serverAgreement(
    to values: [String], policy: ServerPolicy
  ) -> (response: String, agreed: PerMessageDeflate)? {
    guard let header = try? ExtensionHeader(parsing: values) else { return nil }
    for offer in header.elements where offer.name == name {
      if let answer = answer(offer, policy: policy) { return answer }
    }
    return nil
  }

  /// `offer` accepted under `policy`, or nil when it has an unknown, repeated or invalid
  /// parameter, or asks for what zlib cannot do (an 8-bit server window).
  private static func answer(
    _ offer: ExtensionHeader.Element, policy: ServerPolicy
  ) -> (response: String, agreed: PerMessageDeflate)? {
    var seen: Set<String> = []
    var serverNoContext = policy.serverNoContextTakeover
    var serverBits: Int? = nil
    var clientBitsOffered = false
    var clientBitsLimit: Int? = nil
    for parameter in offer.parameters {
      guard seen.insert(parameter.name).inserted else { return nil }
      switch parameter.name {
      case "server_no_context_takeover":
        guard parameter.value == nil else { return nil }
        serverNoContext = true
      case "client_no_context_takeover":
        guard parameter.value == nil else { return nil }
      case "server_max_window_bits":
        guard let value = parameter.value, let bits = windowBitsValue(value), bits >= 9 else { return nil }
        serverBits = bits
      case "client_max_window_bits":
        clientBitsOffered = true
        if let value = parameter.value {
          guard let bits = windowBitsValue(value) else { return nil }
          clientBitsLimit = bits
        }
      default:
        return nil
      }
    }
    var parameters: [ExtensionHeader.Parameter] = []
    var agreed = PerMessageDeflate()
    if serverNoContext {
      parameters.append(.init("server_no_context_takeover"))
      agreed.outboundNoContextTakeover = true
    }
    if policy.clientNoContextTakeover {
      parameters.append(.init("client_no_context_takeover"))
      agreed.inboundNoContextTakeover = true
    }
    let ownBits = [serverBits, policy.serverMaxWindowBits].compactMap { $0 }.min()
    if let ownBits {
      parameters.append(.init("server_max_window_bits", String(ownBits)))
      agreed.outboundWindowBits = ownBits
    }
    if clientBitsOffered, let wanted = policy.clientMaxWindowBits {
      let bits = min(wanted, clientBitsLimit ?? 15)
      parameters.append(.init("client_max_window_bits", String(bits)))
    }
    // Whatever window the client compresses with, ours inflates it: it is the largest.
    agreed.inboundWindowBits = 15
    let response = ExtensionHeader(elements: [ExtensionHeader.Element(name, parameters)]).text
    agreed.agreement = response
    return (response, agreed)
  }
}
