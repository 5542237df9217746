import Foundation
import Testing

@testable import GannetCore

/// RFC 6265bis §5.1, §5.6, §5.7 and §5.8.3, step by step, without a socket: the parser
/// (`SetCookieLine`), the cookie-date algorithm (`CookieDate`), the storage model and retrieval
/// (`CookieStore`).
@Suite("RFC 6265bis algorithms")
struct CookieAlgorithmTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    private func origin(_ url: String) -> CookieStore.Origin {
        CookieStore.Origin(URL(string: url)!)!
    }

    // MARK: §5.6, parsing a Set-Cookie line

    @Test func step1AControlCharacterIgnoresTheLine() {
        #expect(SetCookieLine.parse("a=b\u{01}c") == nil)
        #expect(SetCookieLine.parse("a=b; Path=/\u{7F}") == nil)
        #expect(SetCookieLine.parse("a=b\tc")?.value == "b\tc")
    }

    @Test func steps2to4NameAndValue() {
        #expect(SetCookieLine.parse(" a = b ; Path=/")?.name == "a")
        #expect(SetCookieLine.parse(" a = b ; Path=/")?.value == "b")
        // No "=": a nameless cookie whose value is the pair.
        #expect(SetCookieLine.parse("token")?.name == "")
        #expect(SetCookieLine.parse("token")?.value == "token")
        #expect(SetCookieLine.parse("a==b")?.value == "=b")
        #expect(SetCookieLine.parse("=") == nil)
        #expect(SetCookieLine.parse(" ; Path=/") == nil)
    }

    @Test func step5NameAndValueOver4096BytesIgnoreTheLine() {
        #expect(SetCookieLine.parse("n=" + String(repeating: "v", count: 4095)) != nil)
        #expect(SetCookieLine.parse("n=" + String(repeating: "v", count: 4096)) == nil)
    }

    @Test func aCommaIsData() {
        let line = SetCookieLine.parse("a=1,b=2; Expires=Wed, 09 Jun 2100 10:18:14 GMT")
        #expect(line?.name == "a" && line?.value == "1,b=2")
        #expect(line?.expires == Date(timeIntervalSince1970: 4_116_219_494))
    }

    @Test func attributesTheLastOfANameWins() {
        let line = SetCookieLine.parse("a=b; Path=/x; path=/y; Max-Age=5; max-age=oops; Domain=.A.com; domain=b.com")
        #expect(line?.path == "/y" && line?.maxAge == 5 && line?.domain == "b.com")
        // An invalid Path resets to the default path (§5.6.4).
        #expect(SetCookieLine.parse("a=b; Path=/x; Path=rel")?.path == nil)
    }

    @Test func anAttributeValueOver1024BytesIsIgnored() {
        let long = "/" + String(repeating: "p", count: 1024)
        #expect(SetCookieLine.parse("a=b; Path=/ok; Path=\(long)")?.path == "/ok")
    }

    @Test func flagsTakeNoValue() {
        let line = SetCookieLine.parse("a=b; Secure=x; HttpOnly=no; SameSite=bogus")
        #expect(line?.secure == true && line?.httpOnly == true && line?.sameSite == .default)
        #expect(SetCookieLine.parse("a=b; samesite=STRICT")?.sameSite == .strict)
    }

    @Test func emptyAndDottedDomains() {
        #expect(SetCookieLine.parse("a=b; Domain=")?.domain == "")
        #expect(SetCookieLine.parse("a=b; Domain=..Example.COM")?.domain == "example.com")
    }

    @Test(arguments: [("0", 0), ("-5", -5), ("99999999999999999999999", Int64.max)] as [(String, Int64)])
    func maxAgeDeltaSeconds(text: String, seconds: Int64) {
        #expect(SetCookieLine.deltaSeconds(ArraySlice(text.utf8)) == seconds)
    }

    @Test(arguments: ["", "-", "+5", "5s", " 5"])
    func maxAgeNotDigitsIsIgnored(text: String) {
        #expect(SetCookieLine.deltaSeconds(ArraySlice(text.utf8)) == nil)
    }

    // MARK: §5.1.1, dates

    @Test(arguments: [
        ("Wed, 09 Jun 2021 10:18:14 GMT", 1_623_233_894.0), ("Wed, 09-Jun-21 10:18:14 GMT", 1_623_233_894),
        ("Sunday, 06-Nov-94 08:49:37 GMT", 784_111_777), ("Sun Nov  6 08:49:37 1994", 784_111_777),
        ("6 nov 1994 8:49:37", 784_111_777), ("29 Feb 2000 00:00:00", 951_782_400),
    ])
    func datesThatParse(text: String, seconds: Double) {
        #expect(CookieDate.parse(ArraySlice(text.utf8)) == Date(timeIntervalSince1970: seconds))
    }

    @Test(arguments: [
        "", "Wed, 09 Jun 2021", "31 Feb 2021 00:00:00", "29 Feb 2001 00:00:00", "09 Jun 1600 00:00:00",
        "09 Jun 2021 24:00:00", "32 Jun 2021 00:00:00", "09 Foo 2021 00:00:00", "09 Jun 2021 1:2:345",
    ])
    func datesThatFail(text: String) {
        #expect(CookieDate.parse(ArraySlice(text.utf8)) == nil)
    }

    // MARK: §5.1.3-5.1.4, domains and paths

    @Test(arguments: [
        ("/", "/"), ("", "/"), ("/a", "/"), ("/a/b", "/a"), ("/a/b/", "/a/b"), ("rel", "/"),
    ])
    func defaultPath(uriPath: String, path: String) {
        #expect(CookieStore.defaultPath(uriPath) == path)
    }

    @Test(arguments: [
        ("/a/", "/a/", true), ("/a", "/a/", false), ("/a/b", "/a", true), ("/ab", "/a", false), ("/a/b", "/a/", true),
    ])
    func pathMatching(path: String, cookiePath: String, matches: Bool) {
        #expect(CookieStore.pathMatches(path, cookiePath) == matches)
    }

    @Test func domainMatchingNeverAppliesToAnAddress() {
        #expect(CookieStore.domainMatches("www.example.com", "example.com"))
        #expect(!CookieStore.domainMatches("badexample.com", "example.com"))
        #expect(!CookieStore.domainMatches("1.2.3.4", "2.3.4"))
    }

    // MARK: §5.7, the storage model

    private func candidate(_ line: String, from url: String) -> Result<StoredCookie, CookieStore.Refusal> {
        CookieStore.cookie(from: SetCookieLine.parse(line)!, origin: origin(url), now: now)
    }

    @Test func step6MaxAgeWinsAndLifetimesAreCappedAt400Days() throws {
        let cookie = try candidate("a=b; Expires=Wed, 09 Jun 2100 10:18:14 GMT; Max-Age=60", from: "http://h/").get()
        #expect(cookie.expires == now.addingTimeInterval(60))
        let far = try candidate("a=b; Expires=Wed, 09 Jun 2100 10:18:14 GMT", from: "http://h/").get()
        #expect(far.expires == now.addingTimeInterval(400 * 86_400))
        #expect(try candidate("a=b", from: "http://h/").get().expires == nil)
        #expect(try candidate("a=b; Max-Age=0", from: "http://h/").get().expires == Date(timeIntervalSince1970: 0))
    }

    @Test func step9APublicSuffixDomainIsRefusedUnlessItIsTheHost() throws {
        #expect(candidate("a=b; Domain=com", from: "http://attacker.com/") == .failure(.publicSuffixDomain))
        #expect(candidate("a=b; Domain=.co.uk", from: "http://attacker.co.uk/") == .failure(.publicSuffixDomain))
        #expect(candidate("a=b; Domain=github.io", from: "http://me.github.io/") == .failure(.publicSuffixDomain))
        let own = try candidate("a=b; Domain=co.uk", from: "http://co.uk/").get()
        #expect(own.hostOnly && own.domain == "co.uk")
        let site = try candidate("a=b; Domain=attacker.co.uk", from: "http://www.attacker.co.uk/").get()
        #expect(!site.hostOnly && site.domain == "attacker.co.uk")
    }

    @Test func step10TheHostMustDomainMatch() throws {
        #expect(candidate("a=b; Domain=other.com", from: "http://site.com/") == .failure(.domainMismatch))
        #expect(candidate("a=b; Domain=0.0.1", from: "http://127.0.0.1/") == .failure(.domainMismatch))
        let empty = try candidate("a=b; Domain=", from: "http://site.com/").get()
        #expect(empty.hostOnly && empty.domain == "site.com")
        #expect(candidate("a=b; Domain=exämple.com", from: "http://site.com/") == .failure(.nonASCIIDomain))
    }

    @Test func steps13To21SecureOriginAndPrefixes() {
        #expect(candidate("a=b; Secure", from: "http://h/") == .failure(.secureFromInsecureOrigin))
        #expect((try? candidate("a=b; Secure", from: "https://h/").get()) != nil)
        #expect(candidate("a=b; SameSite=None", from: "https://h/") == .failure(.sameSiteNoneWithoutSecure))
        #expect(candidate("__Secure-a=b", from: "https://h/") == .failure(.prefixRequirements))
        #expect(candidate("__SECURE-a=b", from: "https://h/") == .failure(.prefixRequirements))
        #expect((try? candidate("__Secure-a=b; Secure", from: "https://h/").get()) != nil)
        #expect(candidate("__Host-a=b; Secure; Path=/x", from: "https://h/") == .failure(.prefixRequirements))
        #expect(candidate("__Host-a=b; Secure; Path=/; Domain=h", from: "https://h/") == .failure(.prefixRequirements))
        #expect((try? candidate("__Host-a=b; Secure; Path=/", from: "https://h/x/y").get()) != nil)
        #expect(candidate("__Host-x", from: "https://h/") == .failure(.prefixRequirements))
    }

    /// Found by the set-cookie fuzz target: `String` comparison joins a combining mark to the
    /// `/` or `-` before it and equates canonically equivalent text; the algorithms compare bytes.
    @Test func namesAndPathsAreComparedAsBytesNotAsCharacters() throws {
        // A combining mark after `__Host-` still makes a `__Host-` name (it starts with those bytes).
        #expect(candidate("__Host-\u{301}a=b", from: "http://h/") == .failure(.prefixRequirements))
        #expect(candidate("__Secure-\u{301}a=b", from: "https://h/") == .failure(.prefixRequirements))
        // A path whose first byte is `/` is a path, and matches only requests under its bytes.
        let marked = try candidate("a=b; Path=/\u{301}x", from: "http://h/").get()
        #expect(marked.path == "/\u{301}x")
        #expect(CookieStore.pathMatches("/\u{301}x/y", "/\u{301}x"))
        #expect(CookieStore.defaultPath("/\u{301}x/y") == "/\u{301}x")
        // "é" and "e" + U+0301 look alike but are different bytes: different paths and names.
        #expect(!CookieStore.pathMatches("/caf\u{E9}", "/cafe\u{301}"))
        #expect(!CookieStore.pathMatches("/caf\u{E9}/x", "/cafe\u{301}/"))
        var store = CookieStore()
        _ = store.receive("caf\u{E9}=1", from: origin("http://h/"), now: now)
        _ = store.receive("cafe\u{301}=2", from: origin("http://h/"), now: now)
        #expect(store.cookies.count == 2)
    }

    @Test func step16PlainHTTPCannotShadowASecureCookie() {
        var store = CookieStore()
        #expect(
            store.receive("s=1; Secure; Path=/", from: origin("https://h/"), now: now)
                != .refused(.secureFromInsecureOrigin)
        )
        #expect(store.receive("s=2; Path=/", from: origin("http://h/"), now: now) == .refused(.shadowsSecureCookie))
        #expect(store.cookies.map(\.value) == ["1"])
    }

    @Test func step23ReplacingKeepsTheCreationTimeAndExpiryDeletes() {
        var store = CookieStore()
        _ = store.receive("a=1; Path=/", from: origin("http://h/"), now: now)
        _ = store.receive("a=2; Path=/", from: origin("http://h/"), now: now.addingTimeInterval(10))
        #expect(store.cookies.map(\.value) == ["2"] && store.cookies.first?.created == now)
        if case .deleted = store.receive("a=3; Path=/; Max-Age=0", from: origin("http://h/"), now: now) {
        } else {
            Issue.record("Max-Age=0 did not delete")
        }
        #expect(store.cookies.isEmpty)
    }

    @Test func limitsEvictTheLeastRecentlyUsedOfTheSiteThenOfAll() {
        var store = CookieStore(limits: .init(perSite: 3, total: 5, headerBytes: 8190))
        for index in 0..<4 {
            _ = store.receive(
                "c\(index)=v",
                from: origin("http://a.site.com/"),
                now: now.addingTimeInterval(Double(index))
            )
        }
        // The site is site.com (libpsl's registrable domain); c0 was used least recently.
        #expect(store.cookies.map(\.name) == ["c1", "c2", "c3"])
        for index in 0..<3 {
            _ = store.receive(
                "o\(index)=v",
                from: origin("http://other.org/"),
                now: now.addingTimeInterval(Double(10 + index))
            )
        }
        #expect(store.cookies.count == 5 && !store.cookies.contains { $0.name == "c1" })
        var mirror = CookieStore(cookies: store.cookies.filter { $0.domain == "other.org" }, limits: store.limits)
        #expect(
            mirror.receive("o9=v", from: origin("http://other.org/"), now: now, evicting: false) == .refused(.siteFull)
        )
    }

    // MARK: §5.8.3, retrieval

    @Test func retrievalOrderAndHostOnly() {
        var store = CookieStore()
        _ = store.receive("a=1; Path=/", from: origin("http://www.h.com/"), now: now)
        _ = store.receive("b=2; Path=/x/y", from: origin("http://www.h.com/"), now: now.addingTimeInterval(1))
        _ = store.receive("c=3; Path=/x", from: origin("http://www.h.com/"), now: now.addingTimeInterval(2))
        _ = store.receive(
            "d=4; Domain=h.com; Path=/",
            from: origin("http://www.h.com/"),
            now: now.addingTimeInterval(3)
        )
        _ = store.receive("nameless", from: origin("http://www.h.com/"), now: now.addingTimeInterval(4))
        #expect(store.header(for: origin("http://www.h.com/x/y/z"), now: now) == "b=2; c=3; a=1; d=4; nameless")
        #expect(store.header(for: origin("http://api.h.com/x"), now: now) == "d=4")
        #expect(store.header(for: origin("http://h.com/"), now: now) == "d=4")
    }

    @Test func theCookieFieldIsCappedAndSecureCookiesNeedHTTPS() {
        var store = CookieStore(limits: .init(perSite: 180, total: 3000, headerBytes: 20))
        _ = store.receive("s=1; Secure", from: origin("https://h/"), now: now)
        _ = store.receive("aaaaaaaa=1", from: origin("https://h/"), now: now.addingTimeInterval(1))
        _ = store.receive("bbbbbbbb=2", from: origin("https://h/"), now: now.addingTimeInterval(2))
        #expect(store.header(for: origin("http://h/"), now: now) == "aaaaaaaa=1")
        #expect(store.header(for: origin("https://h/"), now: now) == "s=1; aaaaaaaa=1")
    }

    /// An empty jar answers before it parses the URL (the engine asks it for every request):
    /// the shortcut must not hide a cookie set, nor outlive one removed.
    @Test func aJarAnswersByItsContentsBeforeAndAfterTheShortcut() {
        let jar = CookieJar()
        let url = URL(string: "http://h.example/x")!
        #expect(jar.header(for: url) == nil)
        jar.setCookies(
            [HTTPCookie(properties: [.name: "a", .value: "1", .domain: "h.example", .path: "/"])!],
            for: url,
            mainDocumentURL: nil
        )
        #expect(jar.header(for: url) == "a=1")
        #expect(jar.header(for: URL(string: "http://other.example/")!) == nil)
        jar.removeAll()
        #expect(jar.header(for: url) == nil)
    }
}
