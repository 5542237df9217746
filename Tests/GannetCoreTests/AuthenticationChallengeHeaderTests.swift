import Foundation
import Testing

@testable import GannetCore

/// `WWW-Authenticate` parsing without a server: several challenges in one field, quoted
/// strings with escapes, token68, and input that must not trap.
@Suite("WWW-Authenticate parsing")
struct AuthenticationChallengeHeaderTests {
    typealias Header = AuthenticationChallengeHeader

    @Test func basicWithARealm() {
        let parsed = Header.parse([#"Basic realm="Fake Realm""#])
        #expect(parsed == [.init(scheme: "Basic", parameters: ["realm": "Fake Realm"], token68: nil)])
    }

    @Test func severalChallengesInOneFieldAndAcrossFields() {
        let parsed = Header.parse([
            #"Newauth realm="apps", type=1, title="Login to \"apps\"", Basic realm="simple""#,
            #"Digest realm="me@kennethreitz.com", nonce="abc", qop="auth,auth-int", opaque="o", algorithm=MD5"#,
        ])
        #expect(parsed.map(\.scheme) == ["Newauth", "Basic", "Digest"])
        #expect(parsed[0].parameters == ["realm": "apps", "type": "1", "title": #"Login to "apps""#])
        #expect(parsed[1].parameters == ["realm": "simple"])
        #expect(parsed[2].parameters["qop"] == "auth,auth-int")
        #expect(parsed[2].parameters["algorithm"] == "MD5")
    }

    @Test func token68AndBareSchemes() {
        #expect(Header.parse(["Negotiate abc=="]) == [.init(scheme: "Negotiate", parameters: [:], token68: "abc==")])
        #expect(Header.parse(["NTLM"]) == [.init(scheme: "NTLM", parameters: [:], token68: nil)])
        let two = Header.parse([#"Digest realm="x", Foo"#])
        #expect(two.map(\.scheme) == ["Digest", "Foo"])
        #expect(two[1].token68 == nil)
    }

    @Test(arguments: [
        "", ",,,", "=", "\"", #"Basic realm="unterminated"#, "Basic ,,realm", "Basic realm=", "\u{0}\u{FF}",
    ])
    func malformedInputNeverTraps(value: String) {
        _ = Header.parse([value])
    }
}
