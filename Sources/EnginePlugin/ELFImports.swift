/// Reads what an ELF file imports and carries: the undefined entries of its dynamic symbol table
/// (`.dynsym`, names in the section it links to), the libraries it needs (`DT_NEEDED`), and the
/// defined symbols of its full symbol table (`.symtab`). Pure, bounds-checked, never traps: bad
/// or truncated input gives `.unreadable` with the reason.
///
/// Used to ask "was libFoundationNetworking.so built against libcurl's WebSocket API?" without
/// loading it: a build that can do WebSockets calls `curl_ws_recv`/`curl_ws_send`.
public enum ELFImports {
  public enum Outcome: Sendable, Equatable {
    /// The names asked for: imported or defined symbols, or needed libraries.
    case imports([String])
    /// Not an ELF file this reader understands, or damaged; the reason.
    case unreadable(String)
  }

  static let sectionTypeSymbols: UInt32 = 2  // SHT_SYMTAB
  static let sectionTypeDynamic: UInt32 = 6  // SHT_DYNAMIC
  static let sectionTypeDynamicSymbols: UInt32 = 11  // SHT_DYNSYM
  static let dynamicTagNeeded = 1  // DT_NEEDED

  /// The undefined dynamic symbols of `bytes` (a whole ELF file) whose name starts with `prefix`.
  public static func undefinedSymbols(in bytes: UnsafeRawBufferPointer, prefix: String) -> Outcome {
    let prefixBytes = Array(prefix.utf8)
    return symbolNames(in: bytes, table: sectionTypeDynamicSymbols) { symbol, name in
      symbol.sectionIndex == 0 && name.starts(with: prefixBytes)
    }
  }

  /// The defined symbols of the full symbol table (`.symtab`, which a stripped file lacks) whose
  /// name contains one of `needles`: what a statically linked executable carries.
  public static func definedSymbols(in bytes: UnsafeRawBufferPointer, containing needles: [String]) -> Outcome
  {
    let needleBytes = needles.map { Array($0.utf8) }
    return symbolNames(in: bytes, table: sectionTypeSymbols) { symbol, name in
      symbol.sectionIndex != 0 && needleBytes.contains { contains(name, $0) }
    }
  }

  /// The libraries the file needs (`DT_NEEDED` of its dynamic section), in order; none for a
  /// static executable.
  public static func neededLibraries(in bytes: UnsafeRawBufferPointer) -> Outcome {
    let file: File
    switch File.open(bytes) {
    case .failure(let reason): return .unreadable(reason.text)
    case .success(let opened): file = opened
    }
    var needed: [String] = []
    for index in 0..<file.sectionCount {
      guard let dynamic = file.section(index) else { return .unreadable("truncated section headers") }
      guard dynamic.type == sectionTypeDynamic else { continue }
      guard let strings = file.section(dynamic.link) else { return .unreadable("bad string table link") }
      let entrySize = file.layout.is64 ? 16 : 8
      guard file.reader.contains(dynamic.offset, dynamic.size),
        file.reader.contains(strings.offset, strings.size)
      else { return .unreadable("dynamic section out of bounds") }
      for entry in 0..<(dynamic.size / entrySize) {
        let at = dynamic.offset + entry * entrySize
        guard let tag = file.reader.word(at: at, wide: file.layout.is64),
          let value = file.reader.word(at: at + entrySize / 2, wide: file.layout.is64)
        else { return .unreadable("truncated dynamic entry") }
        if tag == 0 { break }  // DT_NULL
        guard tag == dynamicTagNeeded else { continue }
        guard value < strings.size,
          let name = file.reader.cString(at: strings.offset + value, limit: strings.offset + strings.size)
        else { return .unreadable("bad library name") }
        needed.append(String(decoding: name, as: UTF8.self))
      }
    }
    return .imports(needed)
  }

  /// Whether `needle` occurs in `haystack` (byte for byte; false for an empty needle).
  static func contains(_ haystack: ArraySlice<UInt8>, _ needle: [UInt8]) -> Bool {
    guard let first = needle.first, haystack.count >= needle.count else { return false }
    var start = haystack.startIndex
    let last = haystack.endIndex - needle.count
    while start <= last {
      guard let candidate = haystack[start...last].firstIndex(of: first) else { return false }
      if haystack[candidate..<(candidate + needle.count)].elementsEqual(needle) { return true }
      start = candidate + 1
    }
    return false
  }

  /// The names of the symbols of the first section of type `table` that `keep` selects, sorted.
  private static func symbolNames(
    in bytes: UnsafeRawBufferPointer, table: UInt32, keep: (Symbol, ArraySlice<UInt8>) -> Bool
  ) -> Outcome {
    let file: File
    switch File.open(bytes) {
    case .failure(let reason): return .unreadable(reason.text)
    case .success(let opened): file = opened
    }
    let r = file.reader
    for index in 0..<file.sectionCount {
      guard let symbols = file.section(index) else { return .unreadable("truncated section headers") }
      guard symbols.type == table else { continue }
      guard let strings = file.section(symbols.link) else { return .unreadable("bad string table link") }
      guard symbols.entrySize >= file.layout.symbolSize, r.contains(symbols.offset, symbols.size),
        r.contains(strings.offset, strings.size)
      else { return .unreadable("symbol table out of bounds") }
      var found: [String] = []
      for entry in 0..<(symbols.size / symbols.entrySize) {
        let at = symbols.offset + entry * symbols.entrySize
        guard let symbol = file.layout.symbol(r, at: at) else { return .unreadable("truncated symbol") }
        guard symbol.nameOffset != 0, symbol.nameOffset < strings.size,
          let name = r.cString(at: strings.offset + symbol.nameOffset, limit: strings.offset + strings.size)
        else { continue }
        if keep(symbol, name) { found.append(String(decoding: name, as: UTF8.self)) }
      }
      return .imports(found.sorted())
    }
    return .unreadable(table == sectionTypeDynamicSymbols ? "no dynamic symbol table" : "no symbol table")
  }

  /// Why a file is not one this reader understands.
  struct Unreadable: Error {
    var text: String
  }

  /// An ELF file's header, read and checked: its section headers, bounds-checked.
  struct File {
    var reader: Reader
    var layout: Layout
    var sectionHeaders: Int
    var sectionHeaderSize: Int
    var sectionCount: Int

    static func open(_ bytes: UnsafeRawBufferPointer) -> Result<File, Unreadable> {
      var r = Reader(bytes: bytes)
      guard bytes.count >= 64, r.u8(0) == 0x7F, r.u8(1) == 0x45, r.u8(2) == 0x4C, r.u8(3) == 0x46
      else { return .failure(Unreadable(text: "not an ELF file")) }
      guard let elfClass = r.u8(4), elfClass == 1 || elfClass == 2 else {
        return .failure(Unreadable(text: "unknown ELF class"))
      }
      guard let data = r.u8(5), data == 1 || data == 2 else {
        return .failure(Unreadable(text: "unknown ELF byte order"))
      }
      let layout = Layout(is64: elfClass == 2, bigEndian: data == 2)
      r.bigEndian = layout.bigEndian
      guard let shoff = r.word(at: layout.is64 ? 0x28 : 0x20, wide: layout.is64),
        let shentsize = r.u16(layout.is64 ? 0x3A : 0x2E), let shnum = r.u16(layout.is64 ? 0x3C : 0x30)
      else { return .failure(Unreadable(text: "truncated ELF header")) }
      guard shoff != 0, shnum != 0 else { return .failure(Unreadable(text: "no section headers")) }
      guard Int(shentsize) >= layout.sectionHeaderSize else {
        return .failure(Unreadable(text: "bad section header size"))
      }
      return .success(
        File(
          reader: r, layout: layout, sectionHeaders: shoff, sectionHeaderSize: Int(shentsize),
          sectionCount: Int(shnum)))
    }

    func section(_ index: Int) -> Section? {
      guard index >= 0, index < sectionCount else { return nil }
      let (product, overflow) = index.multipliedReportingOverflow(by: sectionHeaderSize)
      guard !overflow else { return nil }
      let (base, overflow2) = sectionHeaders.addingReportingOverflow(product)
      guard !overflow2 else { return nil }
      return layout.section(reader, at: base)
    }
  }

  struct Section {
    var type: UInt32
    var offset: Int
    var size: Int
    var link: Int
    var entrySize: Int
  }

  struct Symbol {
    var nameOffset: Int
    var sectionIndex: UInt16
  }

  /// Field offsets of ELF32 and ELF64.
  struct Layout {
    var is64: Bool
    var bigEndian: Bool
    var sectionHeaderSize: Int { is64 ? 64 : 40 }
    var symbolSize: Int { is64 ? 24 : 16 }

    func section(_ r: Reader, at base: Int) -> Section? {
      guard r.contains(base, sectionHeaderSize), let type = r.u32(base + 4),
        let offset = r.word(at: base + (is64 ? 0x18 : 0x10), wide: is64),
        let size = r.word(at: base + (is64 ? 0x20 : 0x14), wide: is64),
        let link = r.u32(base + (is64 ? 0x28 : 0x18)),
        let entrySize = r.word(at: base + (is64 ? 0x38 : 0x24), wide: is64)
      else { return nil }
      return Section(type: type, offset: offset, size: size, link: Int(link), entrySize: entrySize)
    }

    func symbol(_ r: Reader, at base: Int) -> Symbol? {
      guard let name = r.u32(base), let index = r.u16(base + (is64 ? 6 : 14)) else { return nil }
      return Symbol(nameOffset: Int(name), sectionIndex: index)
    }
  }

  /// Bounds-checked little/big-endian reads.
  struct Reader {
    let bytes: UnsafeRawBufferPointer
    var bigEndian = false

    func contains(_ offset: Int, _ length: Int) -> Bool {
      guard offset >= 0, length >= 0 else { return false }
      let (end, overflow) = offset.addingReportingOverflow(length)
      return !overflow && end <= bytes.count
    }

    func u8(_ offset: Int) -> UInt8? { contains(offset, 1) ? bytes[offset] : nil }

    func unsigned(_ offset: Int, _ width: Int) -> UInt64? {
      guard contains(offset, width) else { return nil }
      var value: UInt64 = 0
      for i in 0..<width {
        let byte = UInt64(bytes[offset + (bigEndian ? i : width - 1 - i)])
        value = value << 8 | byte
      }
      return value
    }

    func u16(_ offset: Int) -> UInt16? { unsigned(offset, 2).map { UInt16($0) } }
    func u32(_ offset: Int) -> UInt32? { unsigned(offset, 4).map { UInt32($0) } }

    /// An address/offset/size field (8 bytes in ELF64, 4 in ELF32), as an Int if it fits.
    func word(at offset: Int, wide: Bool) -> Int? {
      unsigned(offset, wide ? 8 : 4).flatMap { Int(exactly: $0) }
    }

    /// The NUL-terminated bytes at `offset`, not reading at or past `limit`; nil if unterminated.
    func cString(at offset: Int, limit: Int) -> ArraySlice<UInt8>? {
      guard offset >= 0, limit <= bytes.count, offset < limit else { return nil }
      var end = offset
      while end < limit, bytes[end] != 0 { end += 1 }
      guard end < limit else { return nil }
      return ArraySlice(bytes[offset..<end])
    }
  }
}
