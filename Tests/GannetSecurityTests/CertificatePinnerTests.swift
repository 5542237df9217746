import Foundation
import GannetSecurity
import Testing

@Suite("CertificatePinner")
struct CertificatePinnerTests {
    let rootPin: String
    let wrongPin: String

    init() async {
        await TestPKI.prepare()
        rootPin = Fixtures.certificate("root").publicKeyPin.description
        wrongPin = Fixtures.certificate("otherRoot").publicKeyPin.description
    }

    @Test("Unpinned hosts are validated but not pinned; pinned hosts must match")
    func perHost() throws {
        let pinner = try CertificatePinner(["pinned.example": [wrongPin]], trustStore: Fixtures.testCA)
        #expect(pinner.outcome(Fixtures.good) == .trusted)
        #expect(pinner.outcome(Fixtures.selfSigned) == .rejected(.untrustedRoot))
        #expect(pinner.pins(for: "localhost").isEmpty)
        #expect(pinner.pins(for: "PINNED.example").map(\.description) == [wrongPin])
    }

    @Test("Wildcard patterns pin subdomains: * one label, ** any depth")
    func wildcards() throws {
        let trust = Fixtures.trust("wildcard", "intermediate", host: "api.gannet.test")
        let oneLabel = try CertificatePinner(["*.gannet.test": [wrongPin]], trustStore: Fixtures.testCA)
        let anyDepth = try CertificatePinner(["**.gannet.test": [wrongPin]], trustStore: Fixtures.testCA)
        let deeper = try CertificatePinner(["*.api.gannet.test": [wrongPin]], trustStore: Fixtures.testCA)
        let correct = try CertificatePinner(["**.gannet.test": [rootPin]], trustStore: Fixtures.testCA)
        #expect(oneLabel.outcome(trust) == .rejected(.pinMismatch))
        #expect(anyDepth.outcome(trust) == .rejected(.pinMismatch))
        #expect(deeper.outcome(trust) == .trusted)
        #expect(correct.outcome(trust) == .trusted)
    }

    @Test("All matching patterns contribute pins; expired entries drop out")
    func unionAndExpiry() throws {
        let root = try PublicKeyPin(rootPin)
        let wrong = try PublicKeyPin(wrongPin)
        let pinner = try CertificatePinner(
            [
                "localhost": try PinSet([wrong]),
                "**.localhost": try PinSet([root], expiration: Date(timeIntervalSince1970: 1_000)),
            ],
            trustStore: Fixtures.testCA
        )
        #expect(pinner.pins(for: "localhost", at: Date(timeIntervalSince1970: 999)) == [root, wrong])
        #expect(pinner.pins(for: "localhost") == [wrong])
        #expect(pinner.outcome(Fixtures.good) == .rejected(.pinMismatch))
        let union = try CertificatePinner(
            ["localhost": [wrongPin], "**.localhost": [rootPin]],
            trustStore: Fixtures.testCA
        )
        #expect(union.outcome(Fixtures.good) == .trusted)
    }

    @Test("Bad patterns and pins are reported when the pinner is built")
    func invalidInput() {
        #expect(throws: PinError.self) { try CertificatePinner(["w*.example.com": [rootPin]]) }
        #expect(throws: PinError.self) { try CertificatePinner(["example.com": ["sha1/abc"]]) }
        #expect(throws: PinError.self) { try CertificatePinner(["example.com": []]) }
    }
}
