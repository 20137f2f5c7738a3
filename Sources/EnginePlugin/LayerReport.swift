/// What one of the three layers that decide whether URLSession's WebSocket path works on Linux
/// says (docs/engines.md): 1, whether FoundationNetworking's C shim was built
/// against libcurl's WebSocket API; 2, whether the libcurl loaded at run time has WebSockets
/// switched on; 3, whether corelibs' WebSocket code above them is known to be correct.
public struct LayerReport: Sendable, Equatable {
  public enum Layer: Int, Sendable, Comparable {
    case compileTime = 1
    case runtimeLibcurl = 2
    case corelibsBugs = 3

    public static func < (a: Layer, b: Layer) -> Bool { a.rawValue < b.rawValue }

    /// How `--verbose` names the layer.
    public var title: String {
      switch self {
      case .compileTime: "layer 1, compile-time imports"
      case .runtimeLibcurl: "layer 2, runtime libcurl protocols"
      case .corelibsBugs: "layer 3, known corelibs bugs"
      }
    }
  }

  public var layer: Layer
  /// Whether this layer lets URLSession's WebSocket path be used.
  public var allows: Bool
  /// What was seen, for `--verbose`.
  public var detail: String

  public init(_ layer: Layer, allows: Bool, _ detail: String) {
    self.layer = layer
    self.allows = allows
    self.detail = detail
  }

  public var text: String { "\(layer.title): \(detail)" }
}
