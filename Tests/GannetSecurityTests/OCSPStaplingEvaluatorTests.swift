import Foundation
import GannetSecurity
import Testing

/// ``OCSPStaplingTrustEvaluator`` on `ServerTrust` values carrying the responses `openssl ocsp`
/// made from the test CA's database (no server: the end-to-end suite puts it in a handshake).
@Suite("OCSP stapling evaluator")
struct OCSPStaplingEvaluatorTests {
    let pki: TestPKI

    init() async {
        await TestPKI.prepare()
        pki = TestPKI.shared
    }

    private func response(_ name: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: pki.file(name)))
    }

    private func evaluator(
        _ requirement: OCSPStaplingTrustEvaluator.Requirement,
        base: any ServerTrustEvaluating = DefaultTrustEvaluator(trustStore: Fixtures.testCA)
    )
        -> OCSPStaplingTrustEvaluator
    {
        OCSPStaplingTrustEvaluator(base: base, requirement: requirement, trustStore: Fixtures.testCA)
    }

    private func stapled(_ trust: ServerTrust, _ response: Data?) -> ServerTrust {
        var trust = trust
        trust.stapledOCSPResponse = response
        return trust
    }

    private var revokedLeaf: ServerTrust { Fixtures.trust("revokedLeaf", "intermediate") }

    @Test("Given a good staple, when either requirement evaluates, then the server is trusted")
    func goodStaple() throws {
        let trust = stapled(Fixtures.good, try response("good.ocsp"))
        #expect(evaluator(.required).outcome(trust) == .trusted)
        #expect(evaluator(.ifPresent).outcome(trust) == .trusted)
    }

    @Test("Given no staple, .required refuses with ocspResponseMissing and .ifPresent trusts")
    func noStaple() throws {
        let error = try #require(evaluator(.required).trustError(Fixtures.good))
        #expect(error.code == .ocspResponseMissing)
        #expect(error.urlErrorCode == .serverCertificateUntrusted)
        #expect(error.message == "Server localhost stapled no OCSP response, and one is required")
        #expect(evaluator(.ifPresent).outcome(Fixtures.good) == .trusted)
    }

    @Test(
        "Given a revoked staple, both requirements refuse with revoked and the reason",
        arguments: [OCSPStaplingTrustEvaluator.Requirement.required, .ifPresent]
    )
    func revokedStaple(requirement: OCSPStaplingTrustEvaluator.Requirement) throws {
        let trust = stapled(revokedLeaf, try response("revoked.ocsp"))
        // The chain itself is valid: only the staple condemns it.
        #expect(DefaultTrustEvaluator(trustStore: Fixtures.testCA).outcome(trust) == .trusted)
        let error = try #require(evaluator(requirement).trustError(trust))
        #expect(error.code == .revoked)
        #expect(error.message.contains("keyCompromise"), "\(error.message)")
    }

    @Test(
        "Given a staple present but unusable, both requirements refuse with ocspResponseInvalid",
        arguments: [OCSPStaplingTrustEvaluator.Requirement.required, .ifPresent]
    )
    func unusableStaple(requirement: OCSPStaplingTrustEvaluator.Requirement) throws {
        let cases: [(Data, String)] = [
            (try response("forged.ocsp"), "signed by an unrelated root"),
            (try response("revoked.ocsp"), "about another certificate"),
            (Data([0x30, 0x03, 0x0A, 0x01, 0x06]), "a bare unauthorized status"),
            (Data("not DER".utf8), "garbage"),
        ]
        for (data, why) in cases {
            #expect(
                evaluator(requirement).outcome(stapled(Fixtures.good, data)) == .rejected(.ocspResponseInvalid),
                "\(why)"
            )
        }
    }

    @Test("Given a base evaluator that refuses, its error wins over a good staple")
    func baseDecidesFirst() throws {
        let trust = stapled(Fixtures.trust("good", "intermediate", host: "other.example"), try response("good.ocsp"))
        #expect(evaluator(.required).outcome(trust) == .rejected(.hostMismatch))
        let pinned = try PublicKeysTrustEvaluator(
            certificates: [Fixtures.certificate("otherRoot")],
            trustStore: Fixtures.testCA
        )
        #expect(
            evaluator(.required, base: pinned).outcome(stapled(Fixtures.good, try response("good.ocsp")))
                == .rejected(.pinMismatch)
        )
    }

    @Test("The responder must chain to the evaluator's trust store, not merely to the base's")
    func responderTrustStore() throws {
        let evaluator = OCSPStaplingTrustEvaluator(
            base: DefaultTrustEvaluator(trustStore: Fixtures.testCA),
            requirement: .required
        )
        #expect(evaluator.outcome(stapled(Fixtures.good, try response("good.ocsp"))) == .rejected(.ocspResponseInvalid))
    }

    @Test("A staple needs an issuer: a self-signed leaf trusted by its pin cannot have a valid one")
    func selfSignedHasNoIssuer() throws {
        let base = PinnedCertificatesTrustEvaluator(certificates: [Fixtures.certificate("selfSigned")])
        let trust = stapled(Fixtures.selfSigned, try response("good.ocsp"))
        #expect(base.outcome(trust) == .trusted)
        let error = try #require(evaluator(.ifPresent, base: base).trustError(trust))
        #expect(error.code == .ocspResponseInvalid)
    }

    @Test("Stapling is requested by the evaluator and by compositions that contain it")
    func requestsStapling() throws {
        let stapling = evaluator(.ifPresent)
        let plain = DefaultTrustEvaluator(trustStore: Fixtures.testCA)
        #expect(stapling.requestsOCSPStapling)
        #expect(!plain.requestsOCSPStapling)
        #expect(!SecurityPolicy.default.requestsOCSPStapling)
        #expect(CompositeTrustEvaluator([plain, stapling]).requestsOCSPStapling)
        #expect(!CompositeTrustEvaluator([plain]).requestsOCSPStapling)
        #expect(try ServerTrustManager(evaluators: ["api.example": stapling]).requestsOCSPStapling)
        #expect(try ServerTrustManager(evaluators: [:], default: stapling).requestsOCSPStapling)
        #expect(try !ServerTrustManager(evaluators: ["api.example": plain]).requestsOCSPStapling)
    }

    @Test("A required staple needs HTTPS; an optional one defers to the base")
    func secureTransport() throws {
        #expect(evaluator(.required).requiresSecureTransport)
        #expect(!evaluator(.ifPresent).requiresSecureTransport)
        let pinned = PinnedCertificatesTrustEvaluator(certificates: [Fixtures.certificate("root")])
        #expect(evaluator(.ifPresent, base: pinned).requiresSecureTransport)
    }

    @Test("ServerTrust's initializer without a staple still compiles and carries none")
    func serverTrustSourceCompatibility() {
        let trust = ServerTrust(host: "localhost", port: 443, certificateChain: [])
        #expect(trust.stapledOCSPResponse == nil)
        #expect(
            ServerTrust(host: "localhost", port: 443, certificateChain: [], stapledOCSPResponse: Data([1])) != trust
        )
    }
}
