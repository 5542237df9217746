import Foundation
import GannetSecurity
import Testing

@Suite("Trust stores and error mapping")
struct TrustStoreTests {
    init() async {
        await TestPKI.prepare()
    }

    @Test("A CA file, a hashed CA directory and explicit certificates anchor the chain")
    func stores() async throws {
        let pki = TestPKI.shared
        let directory = pki.directory.appendingPathComponent("hashed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.copyItem(
            atPath: pki.pem("root"),
            toPath: directory.appendingPathComponent("root.pem").path
        )
        try await pki.opensslOffPool(["rehash", directory.path])
        for store in [
            try TrustStore.caFile(pki.file("ca-bundle.pem")), try TrustStore.caDirectory(directory.path),
            try TrustStore.certificates([Fixtures.certificate("root")]),
        ] {
            #expect(DefaultTrustEvaluator(trustStore: store).outcome(Fixtures.good) == .trusted)
            #expect(
                DefaultTrustEvaluator(trustStore: store).outcome(Fixtures.untrustedRoot) == .rejected(.untrustedRoot)
            )
        }
        // An intermediate alone is not an anchor for default validation (no partial chains).
        let intermediateOnly = try TrustStore.certificates([Fixtures.certificate("intermediate")])
        #expect(DefaultTrustEvaluator(trustStore: intermediateOnly).outcome(Fixtures.good) == .rejected(.untrustedRoot))
    }

    @Test("Missing or empty CA sources are configuration errors")
    func badStores() throws {
        let pki = TestPKI.shared
        #expect(throws: CertificateError.self) { try TrustStore.caFile("/nonexistent/ca.pem") }
        #expect(throws: CertificateError.self) { try TrustStore.caFile(pki.key("root")) }
        #expect(throws: CertificateError.self) { try TrustStore.caDirectory("/nonexistent") }
        #expect(throws: CertificateError.self) { try TrustStore.caDirectory(pki.pem("root")) }
        #expect(try TrustStore.caFile(pki.file("ca-bundle.pem")) == TrustStore.caFile(pki.file("ca-bundle.pem")))
        #expect(TrustStore.system == .system)
    }

    @Test("Errors map to URLSession's codes")
    func urlErrorCodes() throws {
        let evaluator = DefaultTrustEvaluator(trustStore: Fixtures.testCA)
        let cases: [(ServerTrust, URLError.Code)] = [
            (Fixtures.expired, .serverCertificateHasBadDate),
            (Fixtures.notYetValid, .serverCertificateNotYetValid),
            (Fixtures.untrustedRoot, .serverCertificateHasUnknownRoot),
            (Fixtures.selfSigned, .serverCertificateHasUnknownRoot),
            (Fixtures.wrongHost, .serverCertificateUntrusted),
            (Fixtures.leafAsIssuer, .serverCertificateUntrusted),
        ]
        for (trust, code) in cases {
            let error = try #require(evaluator.trustError(trust))
            #expect(error.urlErrorCode == code, "\(error)")
            #expect(error.host == "localhost")
            #expect(error.errorDescription == error.message)
        }
    }

    @Test("Chain errors carry OpenSSL's reason, depth and culprit")
    func chainErrorDetail() throws {
        let error = try #require(DefaultTrustEvaluator(trustStore: Fixtures.testCA).trustError(Fixtures.expired))
        #expect(error.verifyResult == 10)  // X509_V_ERR_CERT_HAS_EXPIRED
        #expect(error.failingDepth == 0)
        #expect(
            error.message
                == "Certificate chain of localhost is not trusted: certificate has expired at depth 0 (CN=localhost) [CA file \(TestPKI.shared.file("ca-bundle.pem"))]"
        )
    }
}
