/// "Did you mean …?": the closest of some candidates to a misspelt word, by edit distance
/// (Levenshtein), when it is close enough to be a likely typo.
public enum Suggestion {
  /// The candidate closest to `word`, if at most a third of its length (at least 1, at most 3)
  /// edits away; ties go to the earlier candidate.
  public static func closest(to word: String, among candidates: [String]) -> String? {
    let limit = min(3, max(1, word.count / 3))
    var best: (candidate: String, distance: Int)?
    for candidate in candidates where candidate != word {
      let d = distance(Array(word.lowercased()), Array(candidate.lowercased()))
      if d <= limit, d < (best?.distance ?? .max) { best = (candidate, d) }
    }
    return best?.candidate
  }

  static func distance(_ a: [Character], _ b: [Character]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        current[j] = min(
          previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
      }
      swap(&previous, &current)
    }
    return previous[b.count]
  }
}
