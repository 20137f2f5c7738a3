import Testing

@testable import NATS
@testable import Transport

@Suite("NKEYs: seeds, public keys, signatures")
struct NKeyTests {
  @Test("Ed25519 through OpenSSL signs RFC 8032's first test vector")
  func rfc8032() throws {
    func bytes(_ hex: String) -> [UInt8] {
      var out: [UInt8] = []
      var index = hex.startIndex
      while index < hex.endIndex {
        let next = hex.index(index, offsetBy: 2)
        out.append(UInt8(hex[index..<next], radix: 16)!)
        index = next
      }
      return out
    }
    let signed = try Ed25519.sign(
      [], seed: bytes("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60"))
    #expect(signed.publicKey == bytes("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"))
    #expect(
      signed.signature
        == bytes(
          "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"
        ))
  }

  @Test("base32 and CRC-16/XMODEM as NKEYs use them")
  func encodings() {
    #expect(Base32.encode(Array("foobar".utf8)) == "MZXW6YTBOI")
    #expect(Base32.decode("MZXW6YTBOI") == Array("foobar".utf8))
    #expect(Base32.decode("mzxw6ytboi") == Array("foobar".utf8))
    #expect(Base32.decode("MZXW6YTBOI======") == nil)
    #expect(NKey.crc16(Array("123456789".utf8)[...]) == 0x31C3)
  }

  @Test("a user seed reads back; its public key is a U key of 56 characters")
  func seeds() throws {
    var random = SystemRandomNumberGenerator()
    for _ in 0..<20 {
      let key = (0..<32).map { _ in UInt8.random(in: 0...255, using: &random) }
      let text = NKey.userSeedText(key)
      #expect(text.hasPrefix("SU") && text.count == 58, "\(text)")
      #expect(try NKey.userSeed(text) == key)
      #expect(try NKey.userSeed("  " + text + "\n") == key)
      let publicKey = NKey.userPublicKey(try Ed25519.sign([], seed: key).publicKey)
      #expect(publicKey.hasPrefix("U") && publicKey.count == 56, "\(publicKey)")
    }
  }

  @Test("what is not a user seed says why, never quoting it")
  func notSeeds() {
    let key = [UInt8](repeating: 7, count: 32)
    var text = Array(NKey.userSeedText(key))
    text[10] = text[10] == "A" ? "B" : "A"
    #expect(throws: NKeyError.badChecksum) { try NKey.userSeed(String(text)) }
    #expect(throws: NKeyError.notBase32) { try NKey.userSeed("SU0189") }
    #expect(throws: NKeyError.wrongLength(6)) { try NKey.userSeed("SUAAAAAAAA") }
    // A user's public key where a seed was expected.
    #expect(throws: NKeyError.wrongLength(35)) { try NKey.userSeed(NKey.userPublicKey(key)) }
  }

  @Test("seed and credentials files; CONNECT carries the public key or the JWT, and the signature")
  func files() throws {
    let key = [UInt8](repeating: 9, count: 32)
    let seed = NKey.userSeedText(key)
    let nkey = try NATSKeyAuth.nkeyFile("# a comment\n\(seed)\n")
    #expect(nkey.secrets == [seed])
    let fields = try nkey.connectFields(nonce: "nonce-1")
    let signed = try Ed25519.sign(Array("nonce-1".utf8), seed: key)
    #expect(fields.nkey == NKey.userPublicKey(signed.publicKey))
    #expect(fields.jwt == nil)
    #expect(
      fields.signature.count == 86 && !fields.signature.contains("=") && !fields.signature.contains("+"))
    let jwt = "eyJ0eXAiOiJKV1QiLCJhbGciOiJlZDI1NTE5LW5rZXkifQ.eyJzdWIiOiJVIn0.c2ln"
    let creds = """
      -----BEGIN NATS USER JWT-----
      \(jwt)
      ------END NATS USER JWT------

      ************************* IMPORTANT *************************
      NKEY Seed printed below can be used to sign and prove identity.

      -----BEGIN USER NKEY SEED-----
      \(seed)
      ------END USER NKEY SEED------
      """
    let credentials = try NATSKeyAuth.credentialsFile(creds)
    #expect(credentials.jwt == jwt)
    let credentialFields = try credentials.connectFields(nonce: "nonce-1")
    #expect(credentialFields.nkey == nil && credentialFields.jwt == jwt)
    #expect(credentialFields.signature == fields.signature)
    #expect(throws: NATSKeyAuthError.noSeed) { try NATSKeyAuth.nkeyFile("nothing\n") }
    #expect(throws: NATSKeyAuthError.noJWT) { try NATSKeyAuth.credentialsFile(seed) }
    let connect = String(
      decoding: NATSCommands.connect(name: "t", version: "1", credentials: nil, key: fields), as: UTF8.self)
    #expect(connect.hasSuffix(#","nkey":"\#(fields.nkey!)","sig":"\#(fields.signature)"}"# + "\r\n"))
  }
}
