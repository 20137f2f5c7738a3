#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `posix_spawn_file_actions_t` and `posix_spawn` itself; each method returns 0 or an errno.
struct SpawnActions {
  #if canImport(Darwin)
    private var actions: posix_spawn_file_actions_t? = nil
  #else
    private var actions = posix_spawn_file_actions_t()
  #endif

  init() { posix_spawn_file_actions_init(&actions) }

  mutating func destroy() { posix_spawn_file_actions_destroy(&actions) }

  mutating func open(_ target: Int32, _ path: String, _ flags: Int32) -> Int32 {
    posix_spawn_file_actions_addopen(&actions, target, path, flags, 0o600)
  }

  mutating func dup2(_ fd: Int32, _ target: Int32) -> Int32 {
    posix_spawn_file_actions_adddup2(&actions, fd, target)
  }

  mutating func chdir(_ directory: String) -> Int32 {
    #if canImport(Darwin)
      posix_spawn_file_actions_addchdir_np(&actions, directory)
    #else
      guard let addChdir = GlibcExtras.addChdir else { return ENOSYS }
      return addChdir(&actions, directory)
    #endif
  }

  /// Closes, in the child, every descriptor from `lowest` on (on Darwin the attributes'
  /// `POSIX_SPAWN_CLOEXEC_DEFAULT` does it).
  mutating func closeFrom(_ lowest: Int32) -> Int32 {
    #if canImport(Darwin)
      0
    #else
      guard let addCloseFrom = GlibcExtras.addCloseFrom else { return ENOSYS }
      return addCloseFrom(&actions, lowest)
    #endif
  }

  mutating func spawn(
    _ pid: inout pid_t, _ executable: String, attributes: inout SpawnAttributes,
    _ argv: [UnsafeMutablePointer<CChar>?], _ envp: [UnsafeMutablePointer<CChar>?]
  ) -> Int32 {
    attributes.withPointer { attributes in posix_spawn(&pid, executable, &actions, attributes, argv, envp) }
  }
}

/// `posix_spawnattr_t`: the child starts with no signal blocked and every signal at its default
/// disposition (the test process blocks signals in its threads, Dispatch's among them, and
/// ignores SIGPIPE; a child would inherit both), optionally in a process group of its own.
struct SpawnAttributes {
  #if canImport(Darwin)
    private var attributes: posix_spawnattr_t? = nil
  #else
    private var attributes = posix_spawnattr_t()
  #endif

  init(ownProcessGroup: Bool) {
    posix_spawnattr_init(&attributes)
    var none = sigset_t()
    sigemptyset(&none)
    posix_spawnattr_setsigmask(&attributes, &none)
    var all = sigset_t()
    sigfillset(&all)
    posix_spawnattr_setsigdefault(&attributes, &all)
    var flags = Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
    if ownProcessGroup {
      posix_spawnattr_setpgroup(&attributes, 0)
      flags |= Int32(POSIX_SPAWN_SETPGROUP)
    }
    #if canImport(Darwin)
      flags |= Int32(POSIX_SPAWN_CLOEXEC_DEFAULT)
    #endif
    posix_spawnattr_setflags(&attributes, Int16(flags))
  }

  mutating func destroy() { posix_spawnattr_destroy(&attributes) }

  #if canImport(Darwin)
    fileprivate mutating func withPointer<T>(_ body: (UnsafeMutablePointer<posix_spawnattr_t?>) -> T) -> T {
      body(&attributes)
    }
  #else
    fileprivate mutating func withPointer<T>(_ body: (UnsafeMutablePointer<posix_spawnattr_t>) -> T) -> T {
      body(&attributes)
    }
  #endif
}

#if canImport(Glibc)
  /// glibc functions that Swift's Glibc module does not export (their declarations need
  /// `_GNU_SOURCE`), looked up once by name.
  enum GlibcExtras {
    typealias AddCloseFrom =
      @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    typealias AddChdir =
      @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
    typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32

    /// glibc 2.34.
    static let addCloseFrom: AddCloseFrom? = symbol("posix_spawn_file_actions_addclosefrom_np")
    /// glibc 2.29.
    static let addChdir: AddChdir? = symbol("posix_spawn_file_actions_addchdir_np")
    static let pipe2Function: Pipe2? = symbol("pipe2")

    static func pipe2(_ fds: UnsafeMutablePointer<Int32>, _ flags: Int32) -> Int32 {
      guard let pipe2Function else {
        errno = ENOSYS
        return -1
      }
      return pipe2Function(fds, flags)
    }

    private static func symbol<T>(_ name: String) -> T? {
      // RTLD_DEFAULT is a null handle on glibc.
      dlsym(UnsafeMutableRawPointer(bitPattern: 0), name).map { unsafeBitCast($0, to: T.self) }
    }
  }
#else
  enum GlibcExtras {
    /// Darwin has no `pipe2`: `pipe` then `FD_CLOEXEC` (the attributes' `POSIX_SPAWN_CLOEXEC_DEFAULT`
    /// keeps other children from inheriting the pipe in between).
    static func pipe2(_ fds: UnsafeMutablePointer<Int32>, _ flags: Int32) -> Int32 {
      guard pipe(fds) == 0 else { return -1 }
      _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
      _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
      return 0
    }
  }
#endif
