/// Why one entry of a venue's top-of-book message cannot become a quote.
public enum BookEntryProblem: Error, Sendable, Equatable {
  /// Malformed: a field missing, of the wrong type or spelling.
  case shape(ShapeError)
  /// A side without a level (or a null one): nothing to show until both have one.
  case emptySide
}
