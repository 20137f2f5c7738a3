import TickerSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A recording read line by line from its file: never more than one line (at most
/// `maximumLineLength` bytes) and one read buffer in memory, whatever the file holds.
struct RecordingFile: ~Copyable {
  let path: String
  let maximumLineLength: Int
  private let fd: Int32
  private var buffer: [UInt8] = []
  /// Where the unconsumed bytes of `buffer` start, and how far a newline was looked for.
  private var start = 0
  private var scanned = 0
  private var atEnd = false
  /// Lines handed out so far.
  private(set) var lineNumber = 0

  init(path: String, maximumLineLength: Int) throws(RecordingError) {
    // WholeFile's open: a FIFO without a writer does not block it, and only a regular file is
    // read (the file is read a part at a time here, not whole).
    do throws(WholeFileError) {
      fd = try WholeFile.openRegularFile(path)
    } catch .missing {
      throw .unreadable(path: path, errno: ENOENT)
    } catch .failed(let code) {
      throw .unreadable(path: path, errno: code)
    } catch {
      throw .notRegularFile(path: path)
    }
    self.path = path
    self.maximumLineLength = maximumLineLength
  }

  deinit { close(fd) }

  /// The next line without its newline; nil at the end of the file.
  mutating func nextLine() throws(RecordingError) -> ArraySlice<UInt8>? {
    while true {
      if let newline = buffer[scanned...].firstIndex(of: 0x0A) {
        let line = buffer[start..<newline]
        start = newline + 1
        scanned = start
        lineNumber += 1
        guard line.count <= maximumLineLength else {
          throw .lineTooLong(lineNumber, limit: maximumLineLength)
        }
        return line
      }
      scanned = buffer.count
      if buffer.count - start > maximumLineLength {
        throw .lineTooLong(lineNumber + 1, limit: maximumLineLength)
      }
      if atEnd {
        guard start == buffer.count else { throw .truncated(lineNumber + 1) }
        return nil
      }
      try fill()
    }
  }

  private mutating func fill() throws(RecordingError) {
    if start > 0 && start * 2 >= buffer.count {
      buffer.removeSubrange(0..<start)
      scanned -= start
      start = 0
    }
    let chunk = 64 << 10
    let old = buffer.count
    buffer.append(contentsOf: repeatElement(0, count: chunk))
    let n: Int
    do throws(Errno) {
      n = try POSIX.retryingInterrupted {
        buffer.withUnsafeMutableBytes { POSIX.readDescriptor(fd, $0.baseAddress! + old, chunk) }
      }
    } catch {
      buffer.removeSubrange(old...)
      throw .unreadable(path: path, errno: error.code)
    }
    buffer.removeSubrange((old + n)...)
    if n == 0 { atEnd = true }
  }
}
