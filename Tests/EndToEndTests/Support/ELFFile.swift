import Foundation

/// The one fact about an ELF file the tests need: whether it names a program interpreter
/// (`PT_INTERP`, the dynamic loader), which a static executable does not.
enum ELFFile {
  /// nil when `data` is not a 64-bit little-endian ELF file whose program headers it holds.
  static func hasInterpreter(_ data: Data) -> Bool? {
    let bytes = [UInt8](data.prefix(1 << 16))
    guard bytes.count >= 64, bytes[0..<4] == [0x7F, 0x45, 0x4C, 0x46], bytes[4] == 2, bytes[5] == 1 else {
      return nil
    }
    func integer(_ offset: Int, _ size: Int) -> Int {
      (0..<size).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) }
    }
    let table = integer(32, 8)
    let entrySize = integer(54, 2)
    let count = integer(56, 2)
    guard entrySize >= 4, table + count * entrySize <= bytes.count else { return nil }
    let ptInterp = 3
    return (0..<count).contains { integer(table + $0 * entrySize, 4) == ptInterp }
  }
}
