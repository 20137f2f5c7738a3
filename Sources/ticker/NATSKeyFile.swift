import CLI
import Foundation
import NATS

/// `--nats-nkey FILE` or `--nats-creds FILE`, read once at start: the key NATS connections sign
/// in with. A file that cannot be read is exit 66, one that holds no usable key exit 78; the
/// messages never quote the file.
enum NATSKeyFile {
  struct Failure: Error {
    var message: String
    var code: ExitCode
  }

  static func load(_ config: TickerConfig) -> Result<NATSKeyAuth?, Failure> {
    let (path, isCredentials): (String, Bool)
    if let creds = config.natsCreds {
      (path, isCredentials) = (creds, true)
    } else if let nkey = config.natsNkey {
      (path, isCredentials) = (nkey, false)
    } else {
      return .success(nil)
    }
    let flag = isCredentials ? "--nats-creds" : "--nats-nkey"
    if let problem = FileKind.problemReadingRegularFile(path) {
      return .failure(Failure(message: "cannot use the \(flag) file \(path): \(problem)", code: .noInput))
    }
    // A seed is 58 characters and a credentials file under 2 KiB: 64 KiB is more than enough.
    guard let handle = FileHandle(forReadingAtPath: path),
      let data = try? handle.read(upToCount: 64 << 10)
    else {
      return .failure(Failure(message: "cannot read the \(flag) file \(path)", code: .noInput))
    }
    try? handle.close()
    let text = String(decoding: data, as: UTF8.self)
    do throws(NATSKeyAuthError) {
      return .success(isCredentials ? try NATSKeyAuth.credentialsFile(text) : try NATSKeyAuth.nkeyFile(text))
    } catch {
      return .failure(Failure(message: "cannot use the \(flag) file \(path): \(error)", code: .config))
    }
  }
}
