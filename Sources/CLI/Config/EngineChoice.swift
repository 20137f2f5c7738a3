/// Which WebSocket engine to use (`--engine`).
public enum EngineChoice: String, Sendable, CaseIterable {
  /// URLSession where it supports WebSockets, else the native engine.
  case auto
  case urlsession
  case native
}

/// Where `--control` reads subscription changes from.
public enum ControlSource: String, Sendable, CaseIterable {
  case stdin
}
