import TickerSupport

/// Who may connect to `serve`: the token check on the upgrade request's `?token=` (percent
/// decoded, compared in constant time), and whether an address is loopback (binding anything
/// else needs a token). Pure.
public enum ServeAccess {
  /// The value of `name` in `target`'s query (`/?token=abc` → `abc`), percent-decoded; nil when
  /// absent or not decodable.
  public static func queryValue(_ name: String, in target: String) -> String? {
    guard let question = target.firstIndex(of: "?") else { return nil }
    let query = target[target.index(after: question)...]
    for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
      let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      guard parts.count == 2, percentDecoded(parts[0]) == name else { continue }
      return percentDecoded(parts[1])
    }
    return nil
  }

  /// Whether `given` equals `expected`, taking the same time whatever the first difference
  /// (the length of `expected` is not hidden).
  public static func tokenMatches(_ given: String?, expected: String) -> Bool {
    let a = Array((given ?? "").utf8)
    let b = Array(expected.utf8)
    var difference = UInt8(a.count == b.count ? 0 : 1)
    for index in 0..<b.count {
      difference |= (index < a.count ? a[index] : 0) ^ b[index]
    }
    return difference == 0 && given != nil
  }

  /// Whether `host` (an address to bind) is a loopback address: `127.0.0.0/8`, `::1`,
  /// `localhost`.
  public static func isLoopback(_ host: String) -> Bool {
    if host == "localhost" || host == "::1" || host == "[::1]" { return true }
    let octets = host.split(separator: ".", omittingEmptySubsequences: false)
    guard octets.count == 4, octets.allSatisfy({ UInt8($0) != nil }) else { return false }
    return octets[0] == "127"
  }

  static func percentDecoded(_ text: Substring) -> String? {
    // A query string as clients write it (HTML forms: `+` is a space); a malformed escape or
    // bytes that are not UTF-8 are no value at all, never a guess at the token.
    PercentEncoding.decode(text, plus: .space, malformed: .fails).flatMap {
      String(validating: $0, as: UTF8.self)
    }
  }
}
