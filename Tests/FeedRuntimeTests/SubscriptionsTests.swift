import Testing

@testable import FeedRuntime
@testable import Outputs
@testable import Recording

@Suite struct SubscriptionsTests {
  @Test func addKeepsOrderAndIgnoresWhatIsThere() {
    var set = Subscriptions(["A", "B", "A"])
    #expect(set.symbols == ["A", "B"])
    #expect(set.apply(.add(["B", "C", "C"])) == Subscriptions.Change(added: ["C"]))
    #expect(set.symbols == ["A", "B", "C"])
    #expect(set.apply(.add(["A"])).isEmpty)
  }

  @Test func removeTakesOnlyWhatIsThere() {
    var set = Subscriptions(["A", "B", "C"])
    #expect(set.apply(.remove(["B", "X"])) == Subscriptions.Change(removed: ["B"]))
    #expect(set.symbols == ["A", "C"])
    #expect(set.apply(.remove(["X"])).isEmpty)
  }

  @Test func replaceSaysWhatCameAndWent() {
    var set = Subscriptions(["A", "B"])
    #expect(set.apply(.replace(["B", "C", "B"])) == Subscriptions.Change(added: ["C"], removed: ["A"]))
    #expect(set.symbols == ["B", "C"])
    #expect(set.apply(.replace(["B", "C"])).isEmpty)
  }
}
