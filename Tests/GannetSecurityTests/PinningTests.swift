import Foundation
import GannetSecurity
import Testing

@Suite("Public-key pins, pin sets and host patterns")
struct PinningTests {
    @Test("A pin round-trips through its sha256/BASE64 text")
    func pinText() throws {
        let certificate = Fixtures.certificate("good")
        let text = certificate.publicKeyPin.description
        #expect(text.hasPrefix("sha256/"))
        #expect(try PublicKeyPin(text) == certificate.publicKeyPin)
        #expect(try PublicKeyPin("  \(text) ") == certificate.publicKeyPin)
        #expect(PublicKeyPin(certificate: certificate) == certificate.publicKeyPin)
    }

    @Test("Malformed pins are refused when parsed, not at the first handshake",
          arguments: ["", "sha256/", "sha1/AAAAAAAAAAAAAAAAAAAAAAAAAAA=", "SHA256/47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=",
                      "sha256/47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuF", "sha256/AAAA",
                      "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=", "sha256/not base64!!"])
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
        let lapsed = PublicKeysTrustEvaluator(pins: try PinSet([wrong], expiration: Date().addingTimeInterval(-60)),
                                              trustStore: Fixtures.testCA)
        let current = PublicKeysTrustEvaluator(pins: try PinSet([wrong], expiration: Date().addingTimeInterval(3600)),
                                               trustStore: Fixtures.testCA)
        #expect(lapsed.outcome(Fixtures.good) == .trusted)
        #expect(current.outcome(Fixtures.good) == .rejected(.pinMismatch))
        #expect(lapsed.outcome(Fixtures.wrongHost) == .rejected(.hostMismatch))
        #expect(lapsed.outcome(Fixtures.untrustedRoot) == .rejected(.untrustedRoot))
    }

    @Test("A backup pin alone matches")
    func backupPin() throws {
        let backupOnly = try PinSet([Fixtures.certificate("otherRoot").publicKeyPin, Fixtures.certificate("intermediate").publicKeyPin])
        #expect(PublicKeysTrustEvaluator(pins: backupOnly, trustStore: Fixtures.testCA).outcome(Fixtures.good) == .trusted)
        #expect(backupOnly.matches([Fixtures.certificate("intermediate")]))
        #expect(!backupOnly.matches([Fixtures.certificate("good")]))
    }

    @Test("Host patterns follow OkHttp's rules",
          arguments: [
            ("example.com", "example.com", true), ("example.com", "EXAMPLE.com.", true), ("example.com", "www.example.com", false),
            ("*.example.com", "www.example.com", true), ("*.example.com", "example.com", false),
            ("*.example.com", "a.b.example.com", false), ("*.example.com", "wwwexample.com", false),
            ("**.example.com", "example.com", true), ("**.example.com", "a.b.example.com", true),
            ("**.example.com", "badexample.com", false), ("**.example.com", "example.com.evil.org", false),
            ("127.0.0.1", "127.0.0.1", true), ("::1", "[::1]", true),
          ])
    func hostPatterns(pattern: String, host: String, matches: Bool) throws {
        #expect(try HostPattern(pattern).matches(host) == matches)
    }

    @Test("Malformed host patterns are refused",
          arguments: ["", "*", "**", "*.", "a.*.example.com", "w*.example.com", "***.example.com", ".example.com",
                      "example..com", "exämple.com", "example.com/path", "ex ample.com"])
    func malformedPatterns(pattern: String) {
        #expect(throws: PinError.self) { try HostPattern(pattern) }
    }
}

@Suite("CertificatePinner")
struct CertificatePinnerTests {
    let rootPin = Fixtures.certificate("root").publicKeyPin.description
    let wrongPin = Fixtures.certificate("otherRoot").publicKeyPin.description

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
        let pinner = try CertificatePinner([
            "localhost": try PinSet([wrong]),
            "**.localhost": try PinSet([root], expiration: Date(timeIntervalSince1970: 1_000)),
        ], trustStore: Fixtures.testCA)
        #expect(pinner.pins(for: "localhost", at: Date(timeIntervalSince1970: 999)) == [root, wrong])
        #expect(pinner.pins(for: "localhost") == [wrong])
        #expect(pinner.outcome(Fixtures.good) == .rejected(.pinMismatch))
        let union = try CertificatePinner(["localhost": [wrongPin], "**.localhost": [rootPin]], trustStore: Fixtures.testCA)
        #expect(union.outcome(Fixtures.good) == .trusted)
    }

    @Test("Bad patterns and pins are reported when the pinner is built")
    func invalidInput() {
        #expect(throws: PinError.self) { try CertificatePinner(["w*.example.com": [rootPin]]) }
        #expect(throws: PinError.self) { try CertificatePinner(["example.com": ["sha1/abc"]]) }
        #expect(throws: PinError.self) { try CertificatePinner(["example.com": []]) }
    }
}

@Suite("Composing evaluators")
struct CompositionTests {
    @Test("A composite trusts only when every member does, and reports the first refusal")
    func composite() throws {
        let composite = CompositeTrustEvaluator([
            DefaultTrustEvaluator(trustStore: Fixtures.testCA),
            PinnedCertificatesTrustEvaluator(certificates: [Fixtures.certificate("otherRoot")]),
        ])
        #expect(composite.outcome(Fixtures.good) == .rejected(.pinMismatch))
        #expect(composite.outcome(Fixtures.expired) == .rejected(.expired))
        #expect(composite.requiresSecureTransport)
        #expect(!CompositeTrustEvaluator([DefaultTrustEvaluator()]).requiresSecureTransport)
        #expect(CompositeTrustEvaluator([]).outcome(Fixtures.good) == .rejected(.invalidConfiguration))
    }

    @Test("The disabled evaluator trusts anything, by name")
    func disabled() {
        let evaluator = DisabledTrustEvaluator()
        #expect(evaluator.outcome(Fixtures.untrustedRoot) == .trusted)
        #expect(evaluator.outcome(ServerTrust(host: "", port: 0, certificateChain: [])) == .trusted)
        #expect(!evaluator.requiresSecureTransport)
    }

    @Test("The trust manager picks exact hosts, then the most specific pattern, then the default")
    func manager() throws {
        let pinnedRoot = PinnedCertificatesTrustEvaluator(certificates: [Fixtures.certificate("root")])
        let pinnedOther = PinnedCertificatesTrustEvaluator(certificates: [Fixtures.certificate("otherRoot")])
        let manager = try ServerTrustManager(
            evaluators: ["**.gannet.test": pinnedOther, "*.gannet.test": pinnedRoot, "api.gannet.test": pinnedOther,
                         "localhost": pinnedRoot],
            default: DisabledTrustEvaluator()
        )
        #expect(manager.outcome(Fixtures.trust("wildcard", "intermediate", host: "www.gannet.test")) == .trusted)
        #expect(manager.outcome(Fixtures.trust("wildcard", "intermediate", host: "api.gannet.test")) == .rejected(.pinMismatch))
        #expect(manager.outcome(Fixtures.trust("wildcard", "intermediate", host: "a.b.gannet.test")) == .rejected(.pinMismatch))
        #expect(manager.outcome(Fixtures.untrustedRoot) == .rejected(.pinMismatch))
        #expect(manager.outcome(Fixtures.trust("untrusted", host: "elsewhere.example")) == .trusted)
        #expect(manager.requiresSecureTransport)
    }

    @Test("Without an entry, the default validates, and no default refuses")
    func managerDefaults() throws {
        let validating = try ServerTrustManager(evaluators: [:])
        #expect(validating.outcome(Fixtures.good) == .rejected(.untrustedRoot))  // the system store
        let strict = try ServerTrustManager(evaluators: ["other.example": DisabledTrustEvaluator()], default: nil)
        #expect(strict.outcome(Fixtures.good) == .rejected(.noEvaluator))
        #expect(strict.evaluator(for: "localhost") == nil)
        #expect(throws: PinError.self) { try ServerTrustManager(evaluators: ["a.*.b": DisabledTrustEvaluator()]) }
    }
}

@Suite("Trust stores and error mapping")
struct TrustStoreTests {
    @Test("A CA file, a hashed CA directory and explicit certificates anchor the chain")
    func stores() throws {
        let pki = TestPKI.shared
        let directory = pki.directory.appendingPathComponent("hashed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.copyItem(atPath: pki.pem("root"), toPath: directory.appendingPathComponent("root.pem").path)
        try pki.openssl(["rehash", directory.path])
        for store in [try TrustStore.caFile(pki.file("ca-bundle.pem")), try TrustStore.caDirectory(directory.path),
                      try TrustStore.certificates([Fixtures.certificate("root")])] {
            #expect(DefaultTrustEvaluator(trustStore: store).outcome(Fixtures.good) == .trusted)
            #expect(DefaultTrustEvaluator(trustStore: store).outcome(Fixtures.untrustedRoot) == .rejected(.untrustedRoot))
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
        #expect(error.message == "Certificate chain of localhost is not trusted: certificate has expired at depth 0 (CN=localhost) [CA file \(TestPKI.shared.file("ca-bundle.pem"))]")
    }
}
