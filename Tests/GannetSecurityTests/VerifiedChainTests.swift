import Foundation
import GannetSecurity
import Testing

/// Pins are compared against the chain OpenSSL verified, never against certificates a server
/// merely sent: a forged leaf that carries the real CA certificates along must not match a CA pin.
@Suite("Pins match the verified chain only")
struct VerifiedChainTests {
    /// A self-signed localhost leaf that travels with the genuine intermediate and root.
    let forgedWithRealCAs: ServerTrust
    /// A leaf from an unrelated root, with the genuine intermediate and root appended.
    let foreignWithRealCAs: ServerTrust

    init() async {
        await TestPKI.prepare()
        forgedWithRealCAs = Fixtures.trust("selfSigned", "intermediate", "root")
        foreignWithRealCAs = Fixtures.trust("untrusted", "intermediate", "root")
    }

    @Test(
        "Public-key pinning of a CA does not match a forged leaf that carries the CA along",
        arguments: ["intermediate", "root"]
    )
    func publicKeyPolicy(pinned: String) {
        #expect(Fixtures.policy(.publicKey, pinning: [pinned]).outcome(forgedWithRealCAs) == .rejected(.untrustedRoot))
        #expect(Fixtures.policy(.publicKey, pinning: [pinned]).outcome(foreignWithRealCAs) == .rejected(.untrustedRoot))
        // Even with invalid certificates allowed, the pinned key must be linked to the leaf by
        // verified signatures; AFNetworking compared the keys of whatever was sent.
        var lenient = Fixtures.policy(.publicKey, pinning: [pinned])
        lenient.allowInvalidCertificates = true
        #expect(lenient.outcome(forgedWithRealCAs) == .rejected(.pinMismatch))
        #expect(lenient.outcome(foreignWithRealCAs) == .rejected(.pinMismatch))
    }

    @Test(
        "Certificate pinning of a CA does not match a forged leaf that carries the CA along",
        arguments: ["intermediate", "root"]
    )
    func certificatePolicy(pinned: String) {
        var lenient = Fixtures.policy(.certificate, pinning: [pinned])
        lenient.allowInvalidCertificates = true
        #expect(lenient.outcome(forgedWithRealCAs) == .rejected(.pinMismatch))
        #expect(lenient.outcome(foreignWithRealCAs) == .rejected(.pinMismatch))
        let evaluator = PinnedCertificatesTrustEvaluator(certificates: [Fixtures.certificate(pinned)])
        #expect(evaluator.outcome(forgedWithRealCAs) == .rejected(.pinMismatch))
        #expect(evaluator.outcome(foreignWithRealCAs) == .rejected(.pinMismatch))
    }

    @Test("Key evaluators refuse a forged leaf before pins, whatever it carries")
    func keyEvaluators() throws {
        let rootPin = Fixtures.certificate("root").publicKeyPin
        let keys = PublicKeysTrustEvaluator(pins: try PinSet([rootPin]), trustStore: Fixtures.testCA)
        let pinner = try CertificatePinner(["localhost": [rootPin.description]], trustStore: Fixtures.testCA)
        for evaluator in [keys, pinner] as [any ServerTrustEvaluating] {
            #expect(evaluator.outcome(forgedWithRealCAs) == .rejected(.untrustedRoot))
            #expect(evaluator.outcome(foreignWithRealCAs) == .rejected(.untrustedRoot))
        }
    }

    @Test("Extra certificates sent by the server are not listed as presented pins")
    func extraCertificatesAreNotListed() throws {
        let trust = Fixtures.trust("good", "intermediate", "otherRoot", "wildcard")
        let policy = Fixtures.policy(.publicKey, pinning: ["otherRoot"])
        let error = try #require(policy.trustError(trust))
        #expect(error.code == .pinMismatch)
        #expect(
            error.presentedChain.map(\.subjectSummary) == [
                "CN=localhost", "CN=Gannet Test Intermediate", "CN=Gannet Test Root",
            ]
        )
    }

    @Test("The chain is built whatever the order the server sent it in")
    func order() {
        let shuffled = Fixtures.trust("good", "root", "otherRoot", "intermediate")
        #expect(Fixtures.policy(.publicKey, pinning: ["intermediate"]).outcome(shuffled) == .trusted)
        #expect(Fixtures.policy(.certificate, pinning: ["root"]).outcome(shuffled) == .trusted)
        // A server that omits its intermediate cannot be verified: no fetching of missing issuers.
        #expect(Fixtures.policy(.none).outcome(Fixtures.trust("good")) == .rejected(.untrustedRoot))
    }

    @Test("Empty and unparseable chains are refused before any verification")
    func malformedChains() {
        let policy = Fixtures.policy(.publicKey, pinning: ["root"])
        #expect(
            policy.outcome(ServerTrust(host: "localhost", port: 443, certificateChain: []))
                == .rejected(.noCertificates)
        )
        let garbage = ServerTrust(
            host: "localhost",
            port: 443,
            certificateChain: [TestPKI.shared.der("good"), Data([1, 2, 3])]
        )
        #expect(policy.outcome(garbage) == .rejected(.invalidCertificate))
        #expect(policy.trustError(garbage)?.failingDepth == 1)
        #expect(
            DefaultTrustEvaluator().outcome(ServerTrust(host: "x", port: 1, certificateChain: [Data()]))
                == .rejected(.invalidCertificate)
        )
    }

    @Test("A flood of presented certificates is refused before parsing")
    func tooManyCertificates() {
        let pki = TestPKI.shared
        let flood = [pki.der("good")] + Array(repeating: pki.der("intermediate"), count: 40)
        let error = DefaultTrustEvaluator(trustStore: Fixtures.testCA).trustError(
            ServerTrust(host: "localhost", port: 443, certificateChain: flood)
        )
        #expect(error?.code == .chainInvalid)
        #expect(error?.message.contains("41 certificates") == true)
        let padded = [pki.der("good")] + Array(repeating: pki.der("intermediate"), count: 20)
        #expect(
            DefaultTrustEvaluator(trustStore: Fixtures.testCA).outcome(
                ServerTrust(host: "localhost", port: 443, certificateChain: padded)
            ) == .trusted
        )
    }
}
