#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why a whole file could not be read.
public enum WholeFileError: Error, Sendable, Equatable, CustomStringConvertible {
  /// Nothing at the path (`ENOENT`).
  case missing
  /// `open`, `fstat` or `read` failed with this errno.
  case failed(errno: Int32)
  /// Not a regular file; the kind it is, for messages ("a FIFO").
  case notRegularFile(kind: String)
  /// Larger than the limit the caller set.
  case tooLarge(limit: Int)

  public var description: String {
    switch self {
    case .missing: Errno.text(ENOENT)
    case .failed(let code): Errno.text(code)
    case .notRegularFile(let kind): "not a regular file (\(kind))"
    case .tooLarge(let limit): "larger than \(limit) bytes"
    }
  }
}

/// The one way the program reads a small file whole (the config file, NATS keys, `/proc` files),
/// with POSIX calls only: reading a file must never link Foundation into the ticker.
///
/// Anything but a regular file is refused before a byte is read (a FIFO nobody writes would
/// block forever); the open cannot block (`O_NONBLOCK`), and the type is checked on the opened
/// descriptor, so the check and the read concern the same file. Reads until end of file, so
/// `/proc` files (which report size 0) read whole.
public enum WholeFile {
  /// The bytes of the regular file at `path`; more than `limit` bytes is `.tooLarge`.
  public static func read(_ path: String, limit: Int) throws(WholeFileError) -> [UInt8] {
    let fd = try openRegularFile(path)
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 16 << 10)
    while true {
      let n: Int
      do throws(Errno) {
        n = try POSIX.retryingInterrupted {
          chunk.withUnsafeMutableBytes { POSIX.readDescriptor(fd, $0.baseAddress, $0.count) }
        }
      } catch {
        throw .failed(errno: error.code)
      }
      if n == 0 { return bytes }
      guard bytes.count + n <= limit else { throw .tooLarge(limit: limit) }
      bytes += chunk[..<n]
    }
  }

  /// nil when `path` is a regular file that can be opened for reading; else why not. For files
  /// handed to code that would block on a FIFO (the `--cacert` file OpenSSL reads).
  public static func problemReading(_ path: String) -> WholeFileError? {
    do throws(WholeFileError) {
      close(try openRegularFile(path))
      return nil
    } catch {
      return error
    }
  }

  /// A descriptor open for reading on the regular file at `path` (the caller closes it): for
  /// `read`, and for a reader that takes a file a part at a time (`RecordingFile`).
  public static func openRegularFile(_ path: String) throws(WholeFileError) -> Int32 {
    let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    if fd < 0 {
      let code = errno
      throw code == ENOENT ? .missing : .failed(errno: code)
    }
    var info = stat()
    guard fstat(fd, &info) == 0 else {
      let code = errno
      close(fd)
      throw .failed(errno: code)
    }
    guard info.st_mode & S_IFMT == S_IFREG else {
      close(fd)
      throw .notRegularFile(kind: FileKind.describe(mode: info.st_mode))
    }
    return fd
  }
}

/// What kind of file a `stat` mode describes, for messages.
public enum FileKind {
  public static func describe(mode: mode_t) -> String {
    switch mode & S_IFMT {
    case S_IFREG: "a regular file"
    case S_IFDIR: "a directory"
    case S_IFIFO: "a FIFO"
    case S_IFCHR: "a character device"
    case S_IFBLK: "a block device"
    case S_IFSOCK: "a socket"
    case S_IFLNK: "a symbolic link"
    default: "an unknown kind of file"
    }
  }
}
