/// A row of block characters (`▁▂▃▄▅▆▇█`) for a series of prices, scaled between the series'
/// lowest and highest values: the lowest is `▁`, the highest `█`. A flat series is all `▁`; a
/// missing point (before the first trade) is a space.
public enum Sparkline {
  static let levels: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

  public static func render(_ points: [Double?]) -> String {
    let values = points.compactMap { $0 }
    guard let low = values.min(), let high = values.max() else {
      return String(repeating: " ", count: points.count)
    }
    let range = high - low
    var text = ""
    for point in points {
      guard let point else {
        text.append(" ")
        continue
      }
      let level = range > 0 ? Int(((point - low) / range * 7).rounded()) : 0
      text.append(levels[min(7, max(0, level))])
    }
    return text
  }
}
