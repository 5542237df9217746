import Foundation
import GannetSecurity
import Testing

/// SECURITY-CASES.md 1–7 for every way of configuring trust: AFNetworking's policy in each
/// pinning mode (leaf, intermediate or root pinned) and each composable evaluator. Every
/// configuration trusts the good chain, so each refusal below is the case's doing.
@Suite("SECURITY-CASES 1–7 in every pinning mode")
struct SecurityCasesTests {
    /// A named evaluator that trusts `Fixtures.good` for localhost.
    struct Configuration: CustomTestStringConvertible, Sendable {
        let name: String
        let evaluator: any ServerTrustEvaluating
        /// Whether the pins are the trust anchors, so an unknown root surfaces as a pin failure.
        var pinsAreAnchors = false
        var testDescription: String { name }
    }

    static let root = Fixtures.certificate("root")
    static let intermediate = Fixtures.certificate("intermediate")
    static let leaf = Fixtures.certificate("good")

    init() async { await TestPKI.prepare() }

    /// The configurations, once the certificates exist (test arguments are built before any
    /// suite initializer runs).
    static func preparedConfigurations() async -> [Configuration] {
        await TestPKI.prepare()
        return configurations
    }

    static let configurations: [Configuration] = {
        var all: [Configuration] = [
            Configuration(name: "SecurityPolicy none", evaluator: Fixtures.policy(.none)),
            Configuration(name: "DefaultTrustEvaluator", evaluator: DefaultTrustEvaluator(trustStore: Fixtures.testCA)),
        ]
        for pinned in ["good", "intermediate", "root"] {
            all.append(
                Configuration(
                    name: "SecurityPolicy publicKey, \(pinned) pinned",
                    evaluator: Fixtures.policy(.publicKey, pinning: [pinned])
                )
            )
            all.append(
                Configuration(
                    name: "SecurityPolicy certificate, \(pinned) pinned",
                    evaluator: Fixtures.policy(.certificate, pinning: [pinned])
                )
            )
            let certificate = Fixtures.certificate(pinned)
            all.append(
                Configuration(
                    name: "PublicKeysTrustEvaluator, \(pinned) key",
                    evaluator: try! PublicKeysTrustEvaluator(certificates: [certificate], trustStore: Fixtures.testCA)
                )
            )
            all.append(
                Configuration(
                    name: "PinnedCertificatesTrustEvaluator, \(pinned)",
                    evaluator: PinnedCertificatesTrustEvaluator(certificates: [certificate]),
                    pinsAreAnchors: true
                )
            )
            all.append(
                Configuration(
                    name: "CertificatePinner, \(pinned) key",
                    evaluator: try! CertificatePinner(
                        ["localhost": [certificate.publicKeyPin.description]],
                        trustStore: Fixtures.testCA
                    )
                )
            )
        }
        all.append(
            Configuration(
                name: "Composite of default and pinned root",
                evaluator: CompositeTrustEvaluator([
                    DefaultTrustEvaluator(trustStore: Fixtures.testCA),
                    PinnedCertificatesTrustEvaluator(certificates: [root]),
                ])
            )
        )
        all.append(
            Configuration(
                name: "ServerTrustManager with a pinned localhost",
                evaluator: try! ServerTrustManager(
                    evaluators: [
                        "localhost": PublicKeysTrustEvaluator(
                            pins: PinSet([root.publicKeyPin]),
                            trustStore: Fixtures.testCA
                        )
                    ],
                    default: nil
                )
            )
        )
        return all
    }()

    @Test(
        "7: every configuration trusts a valid chain from the caller's test CA",
        arguments: await preparedConfigurations()
    )
    func validChainIsTrusted(configuration: Configuration) {
        #expect(configuration.evaluator.outcome(Fixtures.good) == .trusted)
        // The leaf also names 127.0.0.1 and ::1 in its subject alternative names.
        #expect(
            configuration.evaluator.outcome(Fixtures.trust("good", "intermediate", host: "127.0.0.1")) == .trusted
                || configuration.name.contains("Pinner") || configuration.name.contains("Manager")
        )
    }

    @Test(
        "1: a valid chain for another host name is refused, also when pinned",
        arguments: await preparedConfigurations()
    )
    func wrongHost(configuration: Configuration) {
        let outcome = configuration.evaluator.outcome(Fixtures.wrongHost)
        if configuration.pinsAreAnchors && configuration.name.hasSuffix("good") {
            // The pinned leaf is not in the other host's chain at all.
            #expect(outcome == .rejected(.pinMismatch))
        } else {
            #expect(outcome == .rejected(.hostMismatch))
        }
    }

    @Test(
        "1: pinning the wrong-host certificate itself does not replace the host name check",
        arguments: [SecurityPolicy.PinningMode.publicKey, .certificate]
    )
    func pinningNeverReplacesHostCheck(mode: SecurityPolicy.PinningMode) {
        #expect(Fixtures.policy(mode, pinning: ["wrongHost"]).outcome(Fixtures.wrongHost) == .rejected(.hostMismatch))
        var allowing = Fixtures.policy(mode, pinning: ["wrongHost"])
        allowing.allowInvalidCertificates = true
        #expect(allowing.outcome(Fixtures.wrongHost) == .rejected(.hostMismatch))
        let pinned = PinnedCertificatesTrustEvaluator(certificates: [Fixtures.certificate("wrongHost")])
        #expect(pinned.outcome(Fixtures.wrongHost) == .rejected(.hostMismatch))
    }

    @Test("2: a self-signed leaf is refused", arguments: await preparedConfigurations())
    func selfSigned(configuration: Configuration) {
        let expected: ServerTrustError.Code = configuration.pinsAreAnchors ? .pinMismatch : .untrustedRoot
        #expect(configuration.evaluator.outcome(Fixtures.selfSigned) == .rejected(expected))
    }

    @Test("3: an expired leaf whose key matches the pin is refused", arguments: await preparedConfigurations())
    func expired(configuration: Configuration) {
        if configuration.pinsAreAnchors && configuration.name.hasSuffix("good") {
            // Pinning the good certificate pins that certificate, not its key: the renewed
            // (here expired) certificate is simply not pinned.
            #expect(configuration.evaluator.outcome(Fixtures.expired) == .rejected(.pinMismatch))
            #expect(configuration.evaluator.outcome(Fixtures.notYetValid) == .rejected(.pinMismatch))
        } else {
            #expect(configuration.evaluator.outcome(Fixtures.expired) == .rejected(.expired))
            #expect(configuration.evaluator.outcome(Fixtures.notYetValid) == .rejected(.notYetValid))
        }
    }

    @Test(
        "3: …unless invalid certificates are explicitly allowed (public-key pinning, AFNetworking)",
        arguments: ["good", "intermediate", "root"]
    )
    func expiredAllowed(pinned: String) {
        var policy = Fixtures.policy(.publicKey, pinning: [pinned])
        policy.allowInvalidCertificates = true
        #expect(policy.outcome(Fixtures.expired) == .trusted)
        // The not-yet-valid leaf has a key of its own, so only a CA pin covers it.
        #expect(policy.outcome(Fixtures.notYetValid) == (pinned == "good" ? .rejected(.pinMismatch) : .trusted))
        // Certificate mode validates dates against the pinned anchors even then, as AFNetworking
        // does; and a pinned leaf certificate does not cover its renewal.
        var certificateMode = Fixtures.policy(.certificate, pinning: [pinned])
        certificateMode.allowInvalidCertificates = true
        #expect(
            certificateMode.outcome(Fixtures.expired)
                == (pinned == "good" ? .rejected(.pinMismatch) : .rejected(.expired))
        )
        // Without pinning, allowing invalid certificates needs domain validation off.
        var unpinned = Fixtures.policy(.none)
        unpinned.allowInvalidCertificates = true
        #expect(unpinned.outcome(Fixtures.expired) == .rejected(.invalidConfiguration))
        unpinned.validatesDomainName = false
        #expect(unpinned.outcome(Fixtures.expired) == .trusted)
    }

    @Test("4: an untrusted root is refused before any pin is looked at", arguments: await preparedConfigurations())
    func untrustedRoot(configuration: Configuration) {
        let expected: ServerTrustError.Code = configuration.pinsAreAnchors ? .pinMismatch : .untrustedRoot
        #expect(configuration.evaluator.outcome(Fixtures.untrustedRoot) == .rejected(expected))
    }

    @Test(
        "4: pinning the untrusted chain's own key does not make its root trusted",
        arguments: ["untrusted", "otherRoot"]
    )
    func untrustedRootEvenWhenPinned(pinned: String) throws {
        let certificate = Fixtures.certificate(pinned)
        #expect(
            Fixtures.policy(.publicKey, pinning: [pinned]).outcome(Fixtures.untrustedRoot) == .rejected(.untrustedRoot)
        )
        #expect(
            Fixtures.policy(.certificate, pinning: [pinned]).outcome(Fixtures.untrustedRoot)
                == .rejected(.untrustedRoot)
        )
        let keys = try PublicKeysTrustEvaluator(certificates: [certificate], trustStore: Fixtures.testCA)
        #expect(keys.outcome(Fixtures.untrustedRoot) == .rejected(.untrustedRoot))
        let pinner = try CertificatePinner(
            ["localhost": [certificate.publicKeyPin.description]],
            trustStore: Fixtures.testCA
        )
        #expect(pinner.outcome(Fixtures.untrustedRoot) == .rejected(.untrustedRoot))
    }

    @Test("5: a valid chain with a wrong pin lists the pins the verified chain presented")
    func wrongPinListsPresentedPins() async throws {
        let pki = TestPKI.shared
        let other = Fixtures.certificate("otherRoot")
        let evaluators: [any ServerTrustEvaluating] = [
            Fixtures.policy(.publicKey, pinning: ["otherRoot"]),
            Fixtures.policy(.certificate, pinning: ["otherRoot"]),
            try PublicKeysTrustEvaluator(certificates: [other], trustStore: Fixtures.testCA),
            try CertificatePinner(["**.localhost": [other.publicKeyPin.description]], trustStore: Fixtures.testCA),
        ]
        let leafPin = try await pki.opensslPin("good")
        let intermediatePin = try await pki.opensslPin("intermediate")
        let rootPin = try await pki.opensslPin("root")
        for evaluator in evaluators {
            let error = try #require(evaluator.trustError(Fixtures.good))
            #expect(error.code == .pinMismatch)
            #expect(error.urlErrorCode == .serverCertificateUntrusted)
            #expect(error.presentedPins.map(\.description) == [leafPin, intermediatePin, rootPin])
            #expect(error.message.hasPrefix("Certificate pinning failure for localhost: none of the pins matched."))
            #expect(
                error.message.contains(
                    "Presented: \(leafPin) (CN=localhost), \(intermediatePin) (CN=Gannet Test Intermediate), \(rootPin) (CN=Gannet Test Root)."
                )
            )
            #expect(error.message.contains("Pinned: \(other.publicKeyPin)"))
        }
    }

    @Test("5: the pinned-certificates evaluator lists the chain it could link")
    func pinnedCertificatesListsLinkedChain() throws {
        let evaluator = PinnedCertificatesTrustEvaluator(certificates: [Fixtures.certificate("otherRoot")])
        let error = try #require(evaluator.trustError(Fixtures.good))
        #expect(error.code == .pinMismatch)
        #expect(error.presentedChain.map(\.subjectSummary) == ["CN=localhost", "CN=Gannet Test Intermediate"])
    }

    @Test("6: a leaf used as an issuer is refused", arguments: await preparedConfigurations())
    func leafAsIssuer(configuration: Configuration) throws {
        let error = try #require(configuration.evaluator.trustError(Fixtures.leafAsIssuer))
        if configuration.pinsAreAnchors && !configuration.name.hasSuffix("root")
            && !configuration.name.hasSuffix("intermediate")
        {
            #expect(error.code == .pinMismatch)
        } else {
            #expect(error.code == .chainInvalid)
            #expect(error.verifyResult == 79)  // X509_V_ERR_INVALID_CA
            #expect(error.message.contains("invalid CA certificate"))
            #expect(error.failingDepth == 1)
        }
    }

    @Test("6: a path length limit exceeded is refused", arguments: await preparedConfigurations())
    func pathLength(configuration: Configuration) throws {
        let error = try #require(configuration.evaluator.trustError(Fixtures.pathTooLong))
        if configuration.pinsAreAnchors && configuration.name.hasSuffix("good") {
            #expect(error.code == .pinMismatch)
        } else {
            #expect(error.code == .chainInvalid)
            #expect(error.verifyResult == 25)  // X509_V_ERR_PATH_LENGTH_EXCEEDED
        }
    }

    @Test(
        "6: allowing invalid certificates never forgives a non-CA issuer or a path length",
        arguments: ["intermediate", "root"]
    )
    func allowInvalidKeepsStructure(pinned: String) {
        var policy = Fixtures.policy(.publicKey, pinning: [pinned])
        policy.allowInvalidCertificates = true
        #expect(policy.outcome(Fixtures.leafAsIssuer) == .rejected(.chainInvalid))
        #expect(policy.outcome(Fixtures.pathTooLong) == .rejected(.chainInvalid))
    }

    @Test("7: the system store holds the distribution's roots and not the test root")
    func systemStore() throws {
        let bundle = "/etc/ssl/certs/ca-certificates.crt"
        try #require(FileManager.default.fileExists(atPath: bundle), "the ca-certificates bundle is installed")
        let now = Date()
        let all = try Certificate.certificates(contentsOf: URL(fileURLWithPath: bundle))
        // Two roots sharing one subject name (a re-keyed root) defeat OpenSSL's exact-match
        // lookup of a leaf that is itself an anchor; they say nothing about the store.
        let subjects = Dictionary(grouping: all, by: \.subject)
        let roots = all.filter { $0.notBefore < now && now < $0.notAfter && subjects[$0.subject]?.count == 1 }
        #expect(roots.count > 50)
        // A root presented alone is a complete chain when the store holds it. Many roots are then
        // refused only because their key usage does not allow a TLS server (OpenSSL checks the
        // purpose after it has found the trust anchor); none may be refused as unknown.
        let evaluator = DefaultTrustEvaluator(validatesHost: false)
        var trusted = 0
        for root in roots {
            let error = evaluator.trustError(
                ServerTrust(host: "example.org", port: 443, certificateChain: [root.derEncoded])
            )
            guard let error else {
                trusted += 1
                continue
            }
            #expect(error.code == .chainInvalid, "\(root.subjectSummary): \(error)")
            #expect(error.verifyResult == 26, "\(root.subjectSummary): \(error)")  // X509_V_ERR_INVALID_PURPOSE
        }
        #expect(trusted > 10)
        #expect(SecurityPolicy.default.outcome(Fixtures.good) == .rejected(.untrustedRoot))
        #expect(DefaultTrustEvaluator().outcome(Fixtures.trust("root")) == .rejected(.untrustedRoot))
    }
}
