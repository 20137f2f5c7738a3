/// Why a `/proc` text could not be read for the process metrics.
enum ProcParseError: Error, Sendable, Equatable {
  case malformed(String)
}

/// The figures of `/proc/self/stat` (proc(5)) the `process_*` metrics need. Pure: fed the text.
struct ProcSelfStat: Sendable, Equatable {
  /// Clock ticks in user and kernel mode (fields 14 and 15).
  var userTicks: UInt64
  var systemTicks: UInt64
  /// When the process started, in clock ticks after boot (field 22).
  var startTicks: UInt64
  /// Virtual memory size in bytes (field 23).
  var virtualBytes: UInt64
  /// Resident set size in pages (field 24).
  var residentPages: UInt64

  /// Parses the one line of `/proc/self/stat`. The command name (field 2) is in parentheses and
  /// may hold spaces and parentheses itself: the fields are counted from the last `)`.
  static func parse(_ text: String) throws(ProcParseError) -> ProcSelfStat {
    let bytes = Array(text.utf8)
    guard let close = bytes.lastIndex(of: UInt8(ascii: ")")) else { throw .malformed("no command name") }
    // After the name, field 3 (the state) is first: field n is at n - 3.
    let fields = bytes[(close + 1)...].split(whereSeparator: { $0 == 0x20 || $0 == 0x0A })
    func field(_ number: Int) throws(ProcParseError) -> UInt64 {
      guard number - 3 < fields.count, let value = UInt64(String(decoding: fields[number - 3], as: UTF8.self))
      else { throw .malformed("field \(number)") }
      return value
    }
    return ProcSelfStat(
      userTicks: try field(14), systemTicks: try field(15), startTicks: try field(22),
      virtualBytes: try field(23), residentPages: try field(24))
  }

  /// The boot time (`btime`, seconds since the epoch) in the text of `/proc/stat`.
  static func bootTime(_ procStat: String) throws(ProcParseError) -> UInt64 {
    for line in procStat.utf8.split(separator: 0x0A) {
      let words = line.split(separator: 0x20)
      guard words.count == 2, words[0].elementsEqual("btime".utf8) else { continue }
      guard let value = UInt64(String(decoding: words[1], as: UTF8.self)) else { break }
      return value
    }
    throw .malformed("no btime line")
  }
}
