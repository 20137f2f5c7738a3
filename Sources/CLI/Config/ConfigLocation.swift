/// Where the config file is, decided without touching the file system:
/// `--config FILE` > `$TICKER_CONFIG` > `$XDG_CONFIG_HOME/ticker/config.json` >
/// `$HOME/.config/ticker/config.json`. The first two are explicit (the file must exist); the
/// default locations may be missing. Empty variables count as unset; a relative
/// `XDG_CONFIG_HOME` is ignored (XDG Base Directory spec).
public struct ConfigLocation: Sendable, Equatable {
  public var path: String
  /// Named by the user, so a missing file is an error.
  public var isExplicit: Bool

  public init(path: String, isExplicit: Bool) {
    self.path = path
    self.isExplicit = isExplicit
  }

  /// nil when there is no explicit path and neither `XDG_CONFIG_HOME` nor `HOME` is usable.
  public static func resolve(explicitPath: String?, environment: [String: String]) -> ConfigLocation? {
    if let explicitPath, !explicitPath.isEmpty {
      return ConfigLocation(path: explicitPath, isExplicit: true)
    }
    if let path = environment["TICKER_CONFIG"], !path.isEmpty {
      return ConfigLocation(path: path, isExplicit: true)
    }
    if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
      return ConfigLocation(path: joined(xdg, "ticker/config.json"), isExplicit: false)
    }
    if let home = environment["HOME"], !home.isEmpty {
      return ConfigLocation(path: joined(home, ".config/ticker/config.json"), isExplicit: false)
    }
    return nil
  }

  private static func joined(_ directory: String, _ rest: String) -> String {
    directory.hasSuffix("/") ? directory + rest : directory + "/" + rest
  }
}
