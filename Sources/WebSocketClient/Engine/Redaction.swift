/// The one place that makes URLs, requests and error texts safe to print.
public enum Redaction {
  /// Replaces the value of every query parameter in a path or URL with `***`.
  public static func redactQuery(_ text: String) -> String {
    guard let q = text.firstIndex(of: "?") else { return text }
    let head = text[...q]
    let query = text[text.index(after: q)...]
    let items = query.split(separator: "&", omittingEmptySubsequences: false).map { item -> String in
      guard let eq = item.firstIndex(of: "=") else { return String(item) }
      let value = item[item.index(after: eq)...]
      return value.isEmpty ? String(item) : String(item[...eq]) + "***"
    }
    return head + items.joined(separator: "&")
  }

  /// Removes every occurrence of each secret (and its percent-encoded form) from `text`, and the
  /// user information (`user:password@`) of every URL in it.
  public static func redact(_ text: String, secrets: [String]) -> String {
    var out = redactUserInfo(text)
    for secret in secrets where !secret.isEmpty {
      out = out.replacingAll(secret, with: "***")
      let encoded = percentEncodeQueryValue(secret)
      if encoded != secret { out = out.replacingAll(encoded, with: "***") }
    }
    return out
  }

  /// Replaces the user information of every `scheme://user:password@host` in `text` with `***`
  /// (`ws://***@host/`): a password given in a URL is a secret like the token.
  public static func redactUserInfo(_ text: String) -> String {
    guard text.contains("@"), text.contains("://") else { return text }
    var result = ""
    var rest = text[...]
    while let marker = rest.firstRange(of: "://") {
      result += rest[..<marker.upperBound]
      rest = rest[marker.upperBound...]
      // The authority ends at the first "/", "?", "#" or space; its user information at its last "@".
      let end =
        rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" || $0 == " " || $0 == "\t" } ?? rest.endIndex
      if let at = rest[..<end].lastIndex(of: "@") {
        result += "***"
        rest = rest[at...]
      }
    }
    result += rest
    return result
  }

  /// Percent-encodes everything outside RFC 3986 unreserved characters.
  public static func percentEncodeQueryValue(_ value: String) -> String {
    var out = ""
    for byte in value.utf8 {
      switch byte {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
        UInt8(ascii: "_"), UInt8(ascii: "~"):
        out.unicodeScalars.append(Unicode.Scalar(byte))
      default:
        let hex = Array("0123456789ABCDEF".utf8)
        out += "%"
        out.unicodeScalars.append(Unicode.Scalar(hex[Int(byte >> 4)]))
        out.unicodeScalars.append(Unicode.Scalar(hex[Int(byte & 0xF)]))
      }
    }
    return out
  }
}

extension String {
  /// `replacingOccurrences` without Foundation.
  func replacingAll(_ target: String, with replacement: String) -> String {
    guard !target.isEmpty else { return self }
    var result = ""
    var rest = self[...]
    while let range = rest.firstRange(of: target) {
      result += rest[..<range.lowerBound]
      result += replacement
      rest = rest[range.upperBound...]
    }
    result += rest
    return result
  }
}
