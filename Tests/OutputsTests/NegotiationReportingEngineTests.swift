import Testing

@testable import FeedRuntime
@testable import Outputs

/// What `--verbose` says about compression once a connection is open.
@Suite struct NegotiationReportingEngineTests {
  @Test func saysWhatWasAgreedOrWhyNothingWas() {
    let agreed = "permessage-deflate; server_max_window_bits=12; client_max_window_bits=12"
    #expect(
      NegotiationReportingEngine.describe(agreed, offered: true, engine: "native") == "compression: \(agreed)"
    )
    #expect(
      NegotiationReportingEngine.describe(nil, offered: true, engine: "native")
        == "compression: none (offered permessage-deflate; the server declined)")
    #expect(
      NegotiationReportingEngine.describe(nil, offered: false, engine: "native")
        == "compression: none (--compression off)")
    #expect(
      NegotiationReportingEngine.describe(nil, offered: true, engine: "urlsession")
        == "compression: none (the urlsession engine offers none)")
  }
}
