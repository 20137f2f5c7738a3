extension Duration {
  /// Whole nanoseconds (rounded toward zero, saturating): what a recording stores.
  public var wholeNanoseconds: Int64 {
    let (seconds, attoseconds) = components
    let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    if overflow { return seconds < 0 ? .min : .max }
    let (sum, overflowAgain) = scaled.addingReportingOverflow(attoseconds / 1_000_000_000)
    if overflowAgain { return seconds < 0 ? .min : .max }
    return sum
  }

  /// Seconds as a floating-point number (for APIs that take seconds).
  public var seconds: Double {
    let (s, attoseconds) = components
    return Double(s) + Double(attoseconds) / 1e18
  }

  /// "0.6 s", "60 s": whole seconds, or tenths under ten seconds (what messages say).
  public var secondsText: String {
    let (s, atto) = components
    let millis = Int((Double(s) * 1000 + Double(atto) / 1e15).rounded())
    if millis % 1000 == 0 { return "\(millis / 1000) s" }
    if millis >= 10_000 { return "\(Int((Double(millis) / 1000).rounded())) s" }
    let tenths = (Double(millis) / 100).rounded() / 10
    return "\(tenths) s"
  }
}
