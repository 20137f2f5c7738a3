/// Where `--metrics` listens: an IP literal (or `localhost`) and a port (0: any free port).
public struct MetricsAddress: Sendable, Equatable, CustomStringConvertible {
  public var host: String
  public var port: Int

  public init(host: String, port: Int) {
    self.host = host
    self.port = port
  }

  /// `HOST:PORT`, `[V6]:PORT`, or a bare `PORT` (on 127.0.0.1).
  public static func parse(_ text: String) -> MetricsAddress? {
    if let port = Self.port(Substring(text)) { return MetricsAddress(host: "127.0.0.1", port: port) }
    let host: Substring
    let portText: Substring
    if text.hasPrefix("[") {
      guard let close = text.firstIndex(of: "]") else { return nil }
      host = text[text.index(after: text.startIndex)..<close]
      let rest = text[text.index(after: close)...]
      guard rest.hasPrefix(":") else { return nil }
      portText = rest.dropFirst()
    } else {
      guard let colon = text.lastIndex(of: ":") else { return nil }
      host = text[..<colon]
      portText = text[text.index(after: colon)...]
      if host.contains(":") { return nil }  // an IPv6 literal needs its brackets here
    }
    guard let address = SettingValue.listenAddress(String(host)), let port = Self.port(portText) else {
      return nil
    }
    return MetricsAddress(host: address, port: port)
  }

  private static func port(_ text: Substring) -> Int? {
    guard !text.isEmpty, text.count <= 5, text.allSatisfy(\.isASCII), let port = Int(text) else { return nil }
    return (0...65535).contains(port) ? port : nil
  }

  public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
