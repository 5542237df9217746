import Foundation
import GannetSecurity
import Testing

/// Stapled OCSP responses made by `openssl ocsp` from the test CA's database.
@Suite("Stapled OCSP responses")
struct StapledOCSPTests {
    let pki: TestPKI
    let verifier: StapledOCSPVerifier

    init() async {
        await TestPKI.prepare()
        pki = TestPKI.shared
        verifier = StapledOCSPVerifier(trustStore: Fixtures.testCA)
    }

    private func chain(_ trust: ServerTrust) throws -> [Certificate] {
        try DefaultTrustEvaluator(trustStore: Fixtures.testCA).verifiedChain(for: trust)
    }

    private func response(_ name: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: pki.file(name)))
    }

    private func failure(
        _ response: Data,
        _ chain: [Certificate],
        verifier: StapledOCSPVerifier? = nil
    ) -> ServerTrustError? {
        do {
            try (verifier ?? self.verifier).verify(response, for: chain, host: "localhost")
            return nil
        } catch {
            return error
        }
    }

    @Test("A good status signed by the issuer passes")
    func good() throws {
        let chain = try chain(Fixtures.good)
        #expect(chain.map(\.subjectSummary) == ["CN=localhost", "CN=Gannet Test Intermediate", "CN=Gannet Test Root"])
        #expect(failure(try response("good.ocsp"), chain) == nil)
    }

    @Test("A revoked status is a revocation error with the reason")
    func revoked() throws {
        let error = try #require(
            failure(try response("revoked.ocsp"), try chain(Fixtures.trust("revokedLeaf", "intermediate")))
        )
        #expect(error.code == .revoked)
        #expect(error.urlErrorCode == .serverCertificateUntrusted)
        #expect(error.message.contains("keyCompromise"))
    }

    @Test("Responses that cannot be relied on are refused")
    func unusable() throws {
        let good = try chain(Fixtures.good)
        let wildcard = try chain(Fixtures.trust("wildcard", "intermediate", host: "a.gannet.test"))
        let cases: [(Data, [Certificate], String)] = [
            (try response("forged.ocsp"), good, "signature"),  // signed by an unrelated root
            (try response("good.ocsp"), wildcard, "no status"),  // about another certificate
            (try response("unknown.ocsp"), wildcard, "does not know"),  // the responder has no record
            (Data(), good, "not an OCSP response"),
            (Data([0x30, 0x03, 0x0A, 0x01, 0x06]), good, "responder status"),  // a bare "unauthorized" (6)
            (try response("good.ocsp"), [good[0]], "no issuer"),
        ]
        for (data, chain, text) in cases {
            let error = try #require(failure(data, chain), "\(text)")
            #expect(error.code == .ocspResponseInvalid, "\(text)")
            #expect(error.message.contains(text), "\(error.message)")
        }
    }

    @Test("The responder must chain to the verifier's trust store")
    func responderTrust() throws {
        let error = try #require(
            failure(try response("good.ocsp"), try chain(Fixtures.good), verifier: StapledOCSPVerifier())
        )
        #expect(error.code == .ocspResponseInvalid)
    }
}
