import Testing

@testable import EnginePlugin

/// The ELF dynamic-import reader: on synthetic files (both byte orders and classes, truncated and
/// damaged) and on the toolchain's real libFoundationNetworking.so.
@Suite("ELF imports")
struct ELFImportsTests {
  struct Symbol {
    var name: String
    var defined: Bool
  }

  /// A minimal ELF: header, then the string table, the symbol table (`.dynsym`, or `.symtab`
  /// with `tableType` 2) and, with `needed`, a dynamic section naming them, then section headers
  /// (null, symbols, strings[, dynamic]).
  static func elf(
    _ symbols: [Symbol], is64: Bool = true, bigEndian: Bool = false, tableType: UInt64 = 11,
    needed: [String]? = nil
  ) -> [UInt8] {
    func put(_ value: UInt64, _ width: Int, into out: inout [UInt8]) {
      for i in 0..<width {
        let shift = UInt64(8 * (bigEndian ? width - 1 - i : i))
        out.append(UInt8(truncatingIfNeeded: value >> shift))
      }
    }
    let word = is64 ? 8 : 4
    let headerSize = is64 ? 64 : 52
    var strings: [UInt8] = [0]
    var nameOffsets: [Int] = []
    for symbol in symbols {
      nameOffsets.append(strings.count)
      strings += Array(symbol.name.utf8) + [0]
    }
    var dynamic: [UInt8] = []
    if let needed {
      for library in needed {
        put(1, word, into: &dynamic)  // DT_NEEDED
        put(UInt64(strings.count), word, into: &dynamic)
        strings += Array(library.utf8) + [0]
      }
      put(0, 2 * word, into: &dynamic)  // DT_NULL
    }
    let symbolSize = is64 ? 24 : 16
    var table = [UInt8](repeating: 0, count: symbolSize)  // entry 0: the null symbol
    for (symbol, nameOffset) in zip(symbols, nameOffsets) {
      var entry: [UInt8] = []
      put(UInt64(nameOffset), 4, into: &entry)
      if is64 {
        entry += [0x12, 0]  // info, other
        put(symbol.defined ? 9 : 0, 2, into: &entry)  // shndx
        put(0, 8, into: &entry)
        put(0, 8, into: &entry)
      } else {
        put(0, 4, into: &entry)  // value
        put(0, 4, into: &entry)  // size
        entry += [0x12, 0]
        put(symbol.defined ? 9 : 0, 2, into: &entry)
      }
      table += entry
    }
    let stringsOffset = headerSize
    let tableOffset = stringsOffset + strings.count
    let dynamicOffset = tableOffset + table.count
    let sectionsOffset = dynamicOffset + dynamic.count
    let sectionHeaderSize = is64 ? 64 : 40

    var out: [UInt8] = [0x7F, 0x45, 0x4C, 0x46, is64 ? 2 : 1, bigEndian ? 2 : 1, 1, 0]
    out += [UInt8](repeating: 0, count: 8)
    put(3, 2, into: &out)  // e_type ET_DYN
    put(62, 2, into: &out)  // e_machine
    put(1, 4, into: &out)  // e_version
    put(0, word, into: &out)  // e_entry
    put(0, word, into: &out)  // e_phoff
    put(UInt64(sectionsOffset), word, into: &out)  // e_shoff
    put(0, 4, into: &out)  // e_flags
    put(UInt64(headerSize), 2, into: &out)
    put(0, 2, into: &out)  // phentsize
    put(0, 2, into: &out)  // phnum
    put(UInt64(sectionHeaderSize), 2, into: &out)
    put(needed == nil ? 3 : 4, 2, into: &out)  // shnum
    put(0, 2, into: &out)  // shstrndx
    #expect(out.count == headerSize)
    out += strings + table + dynamic

    func section(type: UInt64, offset: Int, size: Int, link: UInt64, entrySize: Int) -> [UInt8] {
      var s: [UInt8] = []
      put(0, 4, into: &s)  // name
      put(type, 4, into: &s)
      put(0, word, into: &s)  // flags
      put(0, word, into: &s)  // addr
      put(UInt64(offset), word, into: &s)
      put(UInt64(size), word, into: &s)
      put(link, 4, into: &s)
      put(0, 4, into: &s)  // info
      put(0, word, into: &s)  // addralign
      put(UInt64(entrySize), word, into: &s)
      return s
    }
    out += [UInt8](repeating: 0, count: sectionHeaderSize)
    out += section(type: tableType, offset: tableOffset, size: table.count, link: 2, entrySize: symbolSize)
    out += section(type: 3, offset: stringsOffset, size: strings.count, link: 0, entrySize: 0)
    if needed != nil {
      out += section(type: 6, offset: dynamicOffset, size: dynamic.count, link: 2, entrySize: 2 * word)
    }
    return out
  }

  static func scan(_ bytes: [UInt8], prefix: String = "curl_ws_") -> ELFImports.Outcome {
    bytes.withUnsafeBytes { ELFImports.undefinedSymbols(in: $0, prefix: prefix) }
  }

  static let symbols = [
    Symbol(name: "curl_easy_init", defined: false), Symbol(name: "curl_ws_send", defined: false),
    Symbol(name: "curl_ws_recv", defined: false), Symbol(name: "curl_ws_meta", defined: true),
  ]

  @Test(
    "imports with the prefix, undefined only, sorted",
    arguments: [(true, false), (true, true), (false, false)])
  func synthetic(is64: Bool, bigEndian: Bool) {
    let bytes = Self.elf(Self.symbols, is64: is64, bigEndian: bigEndian)
    #expect(Self.scan(bytes) == .imports(["curl_ws_recv", "curl_ws_send"]))
    #expect(Self.scan(bytes, prefix: "curl_easy_") == .imports(["curl_easy_init"]))
  }

  @Test(
    "needed libraries in order; defined symbols of .symtab containing a needle",
    arguments: [(true, false), (true, true), (false, false)])
  func neededAndDefined(is64: Bool, bigEndian: Bool) {
    let needed = ["libswiftCore.so", "libFoundation.so", "libc.so.6"]
    let bytes = Self.elf(Self.symbols, is64: is64, bigEndian: bigEndian, tableType: 2, needed: needed)
    #expect(bytes.withUnsafeBytes { ELFImports.neededLibraries(in: $0) } == .imports(needed))
    let defined = bytes.withUnsafeBytes { ELFImports.definedSymbols(in: $0, containing: ["ws_", "easy"]) }
    #expect(defined == .imports(["curl_ws_meta"]))
    // A .dynsym is not the full symbol table: a stripped file says so.
    let dynamicOnly = Self.elf(Self.symbols, needed: needed)
    #expect(
      dynamicOnly.withUnsafeBytes { ELFImports.definedSymbols(in: $0, containing: ["ws_"]) }
        == .unreadable("no symbol table"))
    #expect(Self.elf([]).withUnsafeBytes { ELFImports.neededLibraries(in: $0) } == .imports([]))
    #expect(Self.elf([], needed: []).withUnsafeBytes { ELFImports.neededLibraries(in: $0) } == .imports([]))
  }

  @Test("a library importing none of them")
  func noneImported() {
    let bytes = Self.elf([
      Symbol(name: "curl_easy_init", defined: false), Symbol(name: "curl_ws_x", defined: true),
    ])
    #expect(Self.scan(bytes) == .imports([]))
  }

  @Test("every truncation is refused, never a trap")
  func truncated() {
    let bytes = Self.elf(Self.symbols)
    for length in 0..<bytes.count {
      if case .imports = Self.scan(Array(bytes[0..<length])) {
        Issue.record("a file cut at \(length) of \(bytes.count) bytes was read")
      }
    }
    let withLibraries = Self.elf(Self.symbols, tableType: 2, needed: ["libc.so.6"])
    for length in 0..<withLibraries.count {
      let cut = Array(withLibraries[0..<length])
      if case .imports = cut.withUnsafeBytes({ ELFImports.neededLibraries(in: $0) }) {
        Issue.record("libraries of a file cut at \(length) of \(withLibraries.count) bytes were read")
      }
    }
    // The section headers come last, the string table's last of all: every cut loses it.
    let symbolTable = Self.elf(Self.symbols, tableType: 2)
    for length in 0..<symbolTable.count {
      let cut = Array(symbolTable[0..<length])
      if case .imports = cut.withUnsafeBytes({ ELFImports.definedSymbols(in: $0, containing: ["curl"]) }) {
        Issue.record("symbols of a file cut at \(length) of \(symbolTable.count) bytes were read")
      }
    }
  }

  @Test("damaged fields are refused, never a trap")
  func damaged() {
    let good = Self.elf(Self.symbols)
    #expect(Self.scan(Array("#!/bin/sh\n".utf8)) == .unreadable("not an ELF file"))
    var badClass = good
    badClass[4] = 9
    #expect(Self.scan(badClass) == .unreadable("unknown ELF class"))
    // Section header offset near Int.max, and section contents pointing past the end.
    var farSections = good
    for i in 0..<8 { farSections[0x28 + i] = i == 7 ? 0x7F : 0xFF }
    #expect(Self.scan(farSections) == .unreadable("truncated section headers"))
    // Every single byte flipped to 0xFF: whatever comes out, it comes out.
    let full = Self.elf(Self.symbols, tableType: 2, needed: ["libc.so.6"])
    for index in 0..<full.count {
      var copy = full
      copy[index] = 0xFF
      _ = Self.scan(copy)
      _ = copy.withUnsafeBytes { ELFImports.neededLibraries(in: $0) }
      _ = copy.withUnsafeBytes { ELFImports.definedSymbols(in: $0, containing: ["curl"]) }
    }
  }

  @Test("the toolchain's libFoundationNetworking.so: found next to libswiftCore.so, read, no curl_ws_*")
  func realLibrary() throws {
    #if os(Linux)
      let maps = String(decoding: try #require(SystemFiles.read("/proc/self/maps")), as: UTF8.self)
      let path = try #require(FoundationNetworkingCheck.libraryPath(maps: maps))
      // The reader does find the curl functions it imports, so an empty curl_ws_* list is real.
      let easy = SystemFiles.withMappedFile(path) {
        ELFImports.undefinedSymbols(in: $0, prefix: "curl_easy_")
      }
      guard case .imports(let names) = try #require(easy) else {
        Issue.record("unreadable: \(String(describing: easy))")
        return
      }
      #expect(names.contains("curl_easy_init"))
      // The Swift 6.3.1 toolchain here: built against libcurl headers without the WebSocket API.
      #expect(FoundationNetworkingCheck.verdictForThisProcess() == .noWebSocketAPI(path))
    #endif
  }

  @Test("the library path comes from libswiftCore.so's line in /proc/self/maps")
  func libraryPath() {
    let maps = """
      55d0c0a00000-55d0c0a01000 r--p 00000000 08:01 1 /usr/bin/ticker
      7f00a0000000-7f00a0100000 r-xp 00000000 08:01 2 /opt/my swift/lib/libswiftCore.so
      """
    #expect(
      FoundationNetworkingCheck.libraryPath(maps: maps) == "/opt/my swift/lib/libFoundationNetworking.so")
    #expect(FoundationNetworkingCheck.libraryPath(maps: "7f-8f r-xp 0 0 0 /lib/libswiftCore.so.old") == nil)
  }
}
