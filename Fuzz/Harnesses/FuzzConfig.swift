import CLI
import FeedRuntime
import JSON
import Outputs
import TickerSupport
// libFuzzer harness: ConfigFile.parse on arbitrary file contents. Built by Fuzz/run.sh.
import Venues

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  do throws(ConfigError) {
    let config = try ConfigFile.parse(bytes, path: "fuzz.json")
    _ = "\(config)"
    // Parsing is deterministic.
    let again = try ConfigFile.parse(bytes, path: "fuzz.json")
    precondition(again == config, "config parse not deterministic")
  } catch {
    // Messages name the file and are never empty.
    precondition(error.description.hasPrefix("fuzz.json: "), "config error without the path: \(error)")
  }
  return 0
}
