import TickerSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// How a static ticker reaches the URLSession engine it cannot load: through its companion, the
/// dynamically linked build of the same ticker, which `Scripts/install.sh` puts at
/// `<prefix>/libexec/ticker/ticker` with the plugin beside it (the static one is
/// `<prefix>/bin/ticker`). `--engine urlsession` replaces the static process with it (`execv`,
/// the same arguments and environment), before anything is opened or printed.
public enum URLSessionCompanion {
  /// What to do for one run.
  public enum Plan: Sendable, Equatable {
    /// Run here: the URLSession engine is not wanted, or this process can load it itself.
    case stay
    /// Replace this process with the companion at `path`.
    case exec(path: String)
    /// The URLSession engine is wanted by a static ticker, and there is no companion at `path`
    /// (nil: this executable's directory is unknown).
    case missing(path: String?)
  }

  /// The companion's path for an executable in `executableDirectory` (`<prefix>/bin`):
  /// `<prefix>/libexec/ticker/ticker`.
  public static func path(executableDirectory: String) -> String {
    let prefix = SystemFiles.directory(of: executableDirectory) ?? "/"
    return (prefix == "/" ? "" : prefix) + "/libexec/ticker/ticker"
  }

  /// Pure: `isExecutable` tells whether a path is an executable file (injected by tests).
  public static func plan(
    wantsURLSession: Bool, isStatic: Bool, executableDirectory: String?,
    isExecutable: (String) -> Bool
  ) -> Plan {
    guard wantsURLSession, isStatic else { return .stay }
    guard let executableDirectory else { return .missing(path: nil) }
    let companion = path(executableDirectory: executableDirectory)
    return isExecutable(companion) ? .exec(path: companion) : .missing(path: companion)
  }

  /// The plan for this process.
  public static func plan(wantsURLSession: Bool) -> Plan {
    plan(
      wantsURLSession: wantsURLSession, isStatic: URLSessionPlugin.isStaticExecutable,
      executableDirectory: SystemFiles.executableDirectory(),
      isExecutable: { access($0, X_OK) == 0 && !SystemFiles.isDirectory($0) })
  }

  /// Replaces this process with `path`, given `arguments` (without the program name) and this
  /// environment. Returns only if that failed, with the reason.
  public static func exec(path: String, arguments: [String]) -> String {
    var argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) }
    argv.append(nil)
    execv(path, argv)
    let reason = Errno.text(errno)
    for pointer in argv { free(pointer) }
    return reason
  }
}
