/// Substring search by `Character`, as `_StringProcessing`'s `firstRange(of:)` and `contains(_:)`
/// search. The ticker's code does not call into `_StringProcessing`: in a static executable
/// (docs/install.md) one call links that whole module and `_RegexParser` with it,
/// about 780 KB of code. These few searches (short texts: messages, URLs, scripts) were all it
/// used. `SymbolUseTests` checks that no `_StringProcessing` symbol comes back.
extension StringProtocol {
  /// The range of the first occurrence of `target`; nil when there is none or `target` is empty.
  public func firstRange(ofText target: some StringProtocol) -> Range<Index>? {
    guard let first = target.first else { return nil }
    var start = startIndex
    while let candidate = self[start...].firstIndex(of: first) {
      var i = candidate
      var j = target.startIndex
      while i < endIndex, j < target.endIndex, self[i] == target[j] {
        i = index(after: i)
        j = target.index(after: j)
      }
      if j == target.endIndex { return candidate..<i }
      start = index(after: candidate)
    }
    return nil
  }

  /// Whether `target` occurs in the text (false for an empty `target`).
  public func contains(text target: some StringProtocol) -> Bool {
    firstRange(ofText: target) != nil
  }
}

extension String {
  /// Every occurrence of `target` replaced, left to right (`replacingOccurrences` without
  /// Foundation); the text unchanged when `target` is empty.
  public func replacingAll(_ target: String, with replacement: String) -> String {
    guard !target.isEmpty else { return self }
    var result = ""
    var rest = self[...]
    while let range = rest.firstRange(ofText: target) {
      result += rest[..<range.lowerBound]
      result += replacement
      rest = rest[range.upperBound...]
    }
    result += rest
    return result
  }
}
