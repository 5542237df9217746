import Foundation
import GannetSecurity
import Testing

@Suite("Public-key pins, pin sets and host patterns")
struct PinningTests {
    init() async {
        await TestPKI.prepare()
    }

    @Test("A pin round-trips through its sha256/BASE64 text")
    func pinText() throws {
        let certificate = Fixtures.certificate("good")
        let text = certificate.publicKeyPin.description
        #expect(text.hasPrefix("sha256/"))
        #expect(try PublicKeyPin(text) == certificate.publicKeyPin)
        #expect(try PublicKeyPin("  \(text) ") == certificate.publicKeyPin)
        #expect(PublicKeyPin(certificate: certificate) == certificate.publicKeyPin)
    }

    @Test(
        "Malformed pins are refused when parsed, not at the first handshake",
        arguments: [
            "", "sha256/", "sha1/AAAAAAAAAAAAAAAAAAAAAAAAAAA=", "SHA256/47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=",
            "sha256/47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuF", "sha256/AAAA",
            "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=", "sha256/not base64!!",
        ]
    )
    func malformedPins(text: String) {
        #expect(throws: PinError.self) { try PublicKeyPin(text) }
    }

    @Test("An empty pin set is refused")
    func emptyPinSet() {
        #expect(throws: PinError.self) { try PinSet([PublicKeyPin]()) }
        #expect(throws: PinError.self) { try PinSet([String]()) }
    }

    @Test("A pin set is enforced until its expiration, then not")
    func expiration() throws {
        let deadline = Date(timeIntervalSince1970: 2_000_000_000)
        let pins = try PinSet([Fixtures.certificate("otherRoot").publicKeyPin], expiration: deadline)
        #expect(pins.isEnforced(at: deadline.addingTimeInterval(-1)))
        #expect(!pins.isEnforced(at: deadline))
        #expect(try PinSet([Fixtures.certificate("root").publicKeyPin]).isEnforced(at: .distantFuture))
    }

    @Test("Expired pins are not enforced, validation still is")
    func expiredPinsStillValidate() throws {
        let wrong = Fixtures.certificate("otherRoot").publicKeyPin
        let lapsed = PublicKeysTrustEvaluator(
            pins: try PinSet([wrong], expiration: Date().addingTimeInterval(-60)),
            trustStore: Fixtures.testCA
        )
        let current = PublicKeysTrustEvaluator(
            pins: try PinSet([wrong], expiration: Date().addingTimeInterval(3600)),
            trustStore: Fixtures.testCA
        )
        #expect(lapsed.outcome(Fixtures.good) == .trusted)
        #expect(current.outcome(Fixtures.good) == .rejected(.pinMismatch))
        #expect(lapsed.outcome(Fixtures.wrongHost) == .rejected(.hostMismatch))
        #expect(lapsed.outcome(Fixtures.untrustedRoot) == .rejected(.untrustedRoot))
    }

    @Test("A backup pin alone matches")
    func backupPin() throws {
        let backupOnly = try PinSet([
            Fixtures.certificate("otherRoot").publicKeyPin, Fixtures.certificate("intermediate").publicKeyPin,
        ])
        #expect(
            PublicKeysTrustEvaluator(pins: backupOnly, trustStore: Fixtures.testCA).outcome(Fixtures.good) == .trusted
        )
        #expect(backupOnly.matches([Fixtures.certificate("intermediate")]))
        #expect(!backupOnly.matches([Fixtures.certificate("good")]))
    }

    @Test(
        "Host patterns follow OkHttp's rules",
        arguments: [
            ("example.com", "example.com", true), ("example.com", "EXAMPLE.com.", true),
            ("example.com", "www.example.com", false),
            ("*.example.com", "www.example.com", true), ("*.example.com", "example.com", false),
            ("*.example.com", "a.b.example.com", false), ("*.example.com", "wwwexample.com", false),
            ("**.example.com", "example.com", true), ("**.example.com", "a.b.example.com", true),
            ("**.example.com", "badexample.com", false), ("**.example.com", "example.com.evil.org", false),
            ("127.0.0.1", "127.0.0.1", true), ("::1", "[::1]", true),
        ]
    )
    func hostPatterns(pattern: String, host: String, matches: Bool) throws {
        #expect(try HostPattern(pattern).matches(host) == matches)
    }

    @Test(
        "Malformed host patterns are refused",
        arguments: [
            "", "*", "**", "*.", "a.*.example.com", "w*.example.com", "***.example.com", ".example.com",
            "example..com", "exämple.com", "example.com/path", "ex ample.com",
        ]
    )
    func malformedPatterns(pattern: String) {
        #expect(throws: PinError.self) { try HostPattern(pattern) }
    }
}
