import CLI
import NATS
import TickerSupport

/// `--nats-nkey FILE` or `--nats-creds FILE`, read once at start: the key NATS connections sign
/// in with. A file that cannot be read is exit 66, one that holds no usable key exit 78; the
/// messages never quote the file.
enum NATSKeyFile {
  struct Failure: Error {
    var message: String
    var code: ExitCode
  }

  /// A seed is 58 characters and a credentials file under 2 KiB: 64 KiB is more than enough.
  static let maximumSize = 64 << 10

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
    let bytes: [UInt8]
    do throws(WholeFileError) {
      bytes = try WholeFile.read(path, limit: maximumSize)
    } catch {
      // Too large is a file that holds no key; the rest cannot be read at all.
      let code: ExitCode = if case .tooLarge = error { .config } else { .noInput }
      return .failure(Failure(message: "cannot use the \(flag) file \(path): \(error)", code: code))
    }
    let text = String(decoding: bytes, as: UTF8.self)
    do throws(NATSKeyAuthError) {
      return .success(isCredentials ? try NATSKeyAuth.credentialsFile(text) : try NATSKeyAuth.nkeyFile(text))
    } catch {
      return .failure(Failure(message: "cannot use the \(flag) file \(path): \(error)", code: .config))
    }
  }
}
