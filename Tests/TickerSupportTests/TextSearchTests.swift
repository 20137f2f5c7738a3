import Testing

/// `TextSearch`: the `_StringProcessing` searches the ticker used, by `Character` like them.
@Suite("Text search")
struct TextSearchTests {
  @Test(
    "firstRange(ofText:) finds what firstRange(of:) finds",
    arguments: [
      ("token=abc&x=token=", "token="), ("aaab", "aab"), ("abc", "abc"), ("abc", "abcd"), ("", "a"),
      ("abc", ""), ("é e\u{301} e", "e"), ("x (or null) y", "(or null)"), ("🙂🙂x", "🙂x"),
    ])
  func agreesWithStringProcessing(text: String, target: String) {
    let ours = text.firstRange(ofText: target)
    let theirs = target.isEmpty ? nil : text.firstRange(of: target)
    #expect(ours == theirs)
    #expect(text.contains(text: target) == (theirs != nil))
  }

  @Test("replacingAll replaces every occurrence left to right, and nothing for an empty target")
  func replacing() {
    #expect("a-b-c".replacingAll("-", with: "--") == "a--b--c")
    #expect("aaaa".replacingAll("aa", with: "b") == "bb")
    #expect("token=SECRET&token=SECRET".replacingAll("SECRET", with: "***") == "token=***&token=***")
    #expect("abc".replacingAll("", with: "x") == "abc")
    #expect("abc".replacingAll("z", with: "x") == "abc")
  }
}
