/// The one place that makes URLs, requests and error texts safe to print.
public enum Redaction {
  /// Replaces the value of every query parameter in a path or URL with `***`. Delimiters are
  /// found among scalars, not Characters, so that no grapheme cluster can hide one.
  public static func redactQuery(_ text: String) -> String {
    let scalars = Substring(text).unicodeScalars
    guard let q = scalars.firstIndex(of: "?") else { return text }
    var out = String.UnicodeScalarView(scalars[...q])
    let items = scalars[scalars.index(after: q)...].split(separator: "&", omittingEmptySubsequences: false)
    for (n, item) in items.enumerated() {
      if n > 0 { out.append("&") }
      if let eq = item.firstIndex(of: "="), item.index(after: eq) != item.endIndex {
        out.append(contentsOf: item[...eq])
        out.append(contentsOf: "***".unicodeScalars)
      } else {
        out.append(contentsOf: item)
      }
    }
    return String(out)
  }

  /// Replaces each secret with `***` wherever it stands as a token of its own — in a URL's query
  /// (`?token=SECRET`), a header value (`Authorization: Bearer SECRET`), an echoed value
  /// (`'SECRET'`), or alone — and likewise its percent-encoded form (as `WebSocketURL` puts it in
  /// a query, with upper- or lower-case hex digits); removes the user information
  /// (`user:password@`) of every URL in `text`.
  ///
  /// The secret's text inside a longer token is left alone, so that a short secret cannot mangle
  /// ordinary words: with the secret `x`, `--max-retries` stays as it is. See `standsAlone`.
  /// Nothing here is a pattern: every character of a secret is matched literally.
  public static func redact(_ text: String, secrets: [String]) -> String {
    var out = redactUserInfo(text)
    // Longest first: a secret that holds another is replaced whole.
    let ordered = secrets.filter { !$0.isEmpty }.sorted { $0.unicodeScalars.count > $1.unicodeScalars.count }
    for secret in ordered {
      let encoded = percentEncodeQueryValue(secret)
      var forms = [secret]
      for form in [encoded, lowercasingPercentEscapes(encoded)] where !forms.contains(form) {
        forms.append(form)
      }
      for form in forms { out = replacingStandaloneOccurrences(of: form, in: out) }
    }
    return out
  }

  /// `text` with every occurrence of `secret` that `standsAlone` replaced by `***`.
  static func replacingStandaloneOccurrences(of secret: String, in text: String) -> String {
    let needle = Array(secret.unicodeScalars)
    let scalars = Array(text.unicodeScalars)
    guard let first = needle.first, scalars.count >= needle.count else { return text }
    var out = String.UnicodeScalarView()
    var copied = 0
    var i = 0
    while i + needle.count <= scalars.count {
      let end = i + needle.count
      if scalars[i] == first, scalars[i..<end].elementsEqual(needle),
        standsAlone(scalars, from: i, to: end, needle: needle)
      {
        out.append(contentsOf: scalars[copied..<i])
        out.append(contentsOf: "***".unicodeScalars)
        copied = end
        i = end
      } else {
        i += 1
      }
    }
    if copied == 0 { return text }
    out.append(contentsOf: scalars[copied...])
    return String(out)
  }

  /// Whether the occurrence of `needle` at `start..<end` of `scalars` is a token of its own,
  /// not part of a longer one. Tokens are made of letters, digits and the marks `-_.~`
  /// (RFC 3986's unreserved characters; Unicode letters, digits and combining marks count as
  /// letters). The occurrence is part of a longer token when, on either side where the secret
  /// itself begins or ends with a token character, the next character is a letter or digit, or
  /// one of the marks followed by a letter or digit: `abc.def` and `x-y` continue a token, while
  /// the period ending a sentence (`… abc.`) or a flag's leading dashes (`--abc`) do not. The
  /// string's ends bound a token.
  static func standsAlone(_ scalars: [Unicode.Scalar], from start: Int, to end: Int, needle: [Unicode.Scalar])
    -> Bool
  {
    if let first = needle.first, isTokenCharacter(first), start > 0 {
      let before = scalars[start - 1]
      if isLetterOrDigit(before) { return false }
      if isTokenMark(before), start > 1, isLetterOrDigit(scalars[start - 2]) { return false }
    }
    if let last = needle.last, isTokenCharacter(last), end < scalars.count {
      let after = scalars[end]
      if isLetterOrDigit(after) { return false }
      if isTokenMark(after), end + 1 < scalars.count, isLetterOrDigit(scalars[end + 1]) { return false }
    }
    return true
  }

  static func isTokenCharacter(_ scalar: Unicode.Scalar) -> Bool {
    isLetterOrDigit(scalar) || isTokenMark(scalar)
  }

  static func isTokenMark(_ scalar: Unicode.Scalar) -> Bool {
    scalar == "-" || scalar == "_" || scalar == "." || scalar == "~"
  }

  static func isLetterOrDigit(_ scalar: Unicode.Scalar) -> Bool {
    if scalar.isASCII {
      return ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
    }
    let properties = scalar.properties
    switch properties.generalCategory {
    case .nonspacingMark, .spacingMark, .enclosingMark: return true
    default: return properties.isAlphabetic || properties.numericType != nil
    }
  }

  /// `%2F` → `%2f`: the same bytes as another client or server may write them.
  static func lowercasingPercentEscapes(_ text: String) -> String {
    var out = String.UnicodeScalarView()
    var hexLeft = 0
    for scalar in text.unicodeScalars {
      if hexLeft > 0, ("A"..."F").contains(scalar) {
        out.append(Unicode.Scalar(scalar.value + 0x20)!)
      } else {
        out.append(scalar)
      }
      hexLeft = scalar == "%" ? 2 : max(0, hexLeft - 1)
    }
    return String(out)
  }

  /// Replaces the user information of every `scheme://user:password@host` in `text` with `***`
  /// (`ws://***@host/`): a password given in a URL is a secret like the token.
  public static func redactUserInfo(_ text: String) -> String {
    guard text.unicodeScalars.contains("@") else { return text }
    let marker = Array("://".unicodeScalars)
    var result = String.UnicodeScalarView()
    var rest = Substring(text).unicodeScalars
    while let found = rest.indices.first(where: { rest[$0...].starts(with: marker) }) {
      let afterMarker = rest.index(found, offsetBy: marker.count)
      result.append(contentsOf: rest[..<afterMarker])
      rest = rest[afterMarker...]
      // The authority ends at the first "/", "?", "#" or space; its user information at its last "@".
      let end =
        rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" || $0 == " " || $0 == "\t" } ?? rest.endIndex
      if let at = rest[..<end].lastIndex(of: "@") {
        result.append(contentsOf: "***".unicodeScalars)
        rest = rest[at...]
      }
    }
    result.append(contentsOf: rest)
    return String(result)
  }

  /// Percent-encodes everything outside RFC 3986 unreserved characters: how `WebSocketURL` puts
  /// a value in a query, and so the form of a secret `redact` looks for.
  public static func percentEncodeQueryValue(_ value: String) -> String {
    // Unreserved only: any other byte could end the value (`&`, `#`) or change it (`+`, `%`).
    PercentEncoding.encode(value, keeping: .unreserved)
  }
}
