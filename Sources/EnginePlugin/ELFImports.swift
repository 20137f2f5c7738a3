/// Reads which symbols an ELF shared library imports: the undefined entries of its dynamic symbol
/// table (`.dynsym`, names in the section it links to). Pure, bounds-checked, never traps: bad
/// or truncated input gives `.unreadable` with the reason.
///
/// Used to ask "was libFoundationNetworking.so built against libcurl's WebSocket API?" without
/// loading it: a build that can do WebSockets calls `curl_ws_recv`/`curl_ws_send`.
public enum ELFImports {
  public enum Outcome: Sendable, Equatable {
    /// The imported (undefined) dynamic symbols whose name starts with the prefix asked for.
    case imports([String])
    /// Not an ELF file this reader understands, or damaged; the reason.
    case unreadable(String)
  }

  static let sectionTypeDynamicSymbols: UInt32 = 11  // SHT_DYNSYM

  /// The undefined dynamic symbols of `bytes` (a whole ELF file) whose name starts with `prefix`.
  public static func undefinedSymbols(in bytes: UnsafeRawBufferPointer, prefix: String) -> Outcome {
    let reader = Reader(bytes: bytes)
    guard bytes.count >= 64, reader.u8(0) == 0x7F, reader.u8(1) == 0x45, reader.u8(2) == 0x4C,
      reader.u8(3) == 0x46
    else { return .unreadable("not an ELF file") }
    guard let elfClass = reader.u8(4), elfClass == 1 || elfClass == 2 else {
      return .unreadable("unknown ELF class")
    }
    guard let data = reader.u8(5), data == 1 || data == 2 else {
      return .unreadable("unknown ELF byte order")
    }
    let layout = Layout(is64: elfClass == 2, bigEndian: data == 2)
    var r = reader
    r.bigEndian = layout.bigEndian

    guard let shoff = r.word(at: layout.is64 ? 0x28 : 0x20, wide: layout.is64),
      let shentsize = r.u16(layout.is64 ? 0x3A : 0x2E), let shnum = r.u16(layout.is64 ? 0x3C : 0x30)
    else { return .unreadable("truncated ELF header") }
    guard shoff != 0, shnum != 0 else { return .unreadable("no section headers") }
    guard Int(shentsize) >= layout.sectionHeaderSize else { return .unreadable("bad section header size") }

    func section(_ index: Int) -> Section? {
      guard index >= 0, index < Int(shnum) else { return nil }
      let (product, overflow) = index.multipliedReportingOverflow(by: Int(shentsize))
      guard !overflow else { return nil }
      let (base, overflow2) = shoff.addingReportingOverflow(product)
      guard !overflow2 else { return nil }
      return layout.section(r, at: base)
    }

    for index in 0..<Int(shnum) {
      guard let symbols = section(index) else { return .unreadable("truncated section headers") }
      guard symbols.type == sectionTypeDynamicSymbols else { continue }
      guard let strings = section(symbols.link) else { return .unreadable("bad string table link") }
      guard symbols.entrySize >= layout.symbolSize, r.contains(symbols.offset, symbols.size),
        r.contains(strings.offset, strings.size)
      else { return .unreadable("dynamic symbol table out of bounds") }
      var found: [String] = []
      let prefixBytes = Array(prefix.utf8)
      for entry in 0..<(symbols.size / symbols.entrySize) {
        let at = symbols.offset + entry * symbols.entrySize
        guard let symbol = layout.symbol(r, at: at) else { return .unreadable("truncated symbol") }
        guard symbol.sectionIndex == 0, symbol.nameOffset != 0, symbol.nameOffset < strings.size,
          let name = r.cString(at: strings.offset + symbol.nameOffset, limit: strings.offset + strings.size)
        else { continue }
        if name.starts(with: prefixBytes) { found.append(String(decoding: name, as: UTF8.self)) }
      }
      return .imports(found.sorted())
    }
    return .unreadable("no dynamic symbol table")
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
