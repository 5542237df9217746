import Foundation
import GannetSecurity
import Testing

/// AFNetworking's own `AFSecurityPolicyTests.m`, case by case, over the generated PKI: the test
/// root stands in for the system's root, `good` + `intermediate` for httpbin.org's chain,
/// `wildcard` + `intermediate` for another site's valid chain (ADN in AFNetworking).
@Suite("SecurityPolicy: AFNetworking's policy table")
struct SecurityPolicyAFNetworkingTests {
    let otherServer: ServerTrust

    init() async {
        await TestPKI.prepare()
        otherServer = Fixtures.trust("wildcard", "intermediate", host: "a.gannet.test")
    }

    private func evaluate(_ policy: SecurityPolicy, _ trust: ServerTrust, forDomain domain: String?) -> Bool {
        policy.evaluate(trust, forDomain: domain)
    }

    // MARK: Default policy

    @Test("Default policy: no pinning, invalid certificates refused, domain names validated, nothing pinned")
    func defaults() {
        let policy = SecurityPolicy.default
        #expect(policy.pinningMode == .none)
        #expect(policy.allowInvalidCertificates == false)
        #expect(policy.validatesDomainName == true)
        #expect(policy.pinnedCertificates.isEmpty)
        #expect(policy.requiresSecureTransport == false)
        #expect(policy.trustStore == .system)
    }

    @Test("Default policy allows a valid chain, without and with a matching domain")
    func defaultAllowsValidChain() {
        let policy = Fixtures.policy(.none)
        #expect(evaluate(policy, Fixtures.good, forDomain: nil))
        #expect(evaluate(policy, Fixtures.good, forDomain: "localhost"))
    }

    @Test("Default policy refuses a self-signed certificate and a wrong domain")
    func defaultRefusesInvalid() {
        let policy = Fixtures.policy(.none)
        #expect(!evaluate(policy, Fixtures.trust("noDomains"), forDomain: nil))
        #expect(!evaluate(policy, Fixtures.good, forDomain: "apple.com"))
    }

    // MARK: Pinning, both modes

    @Test(
        "Pinning the leaf, the intermediate, the root, the whole chain, or the leaf plus others is trusted",
        arguments: [SecurityPolicy.PinningMode.publicKey, .certificate],
        [["good"], ["intermediate"], ["root"], ["good", "intermediate", "root"], ["good", "foobarCN"]]
    )
    func pinnedChainIsTrusted(mode: SecurityPolicy.PinningMode, pinned: [String]) {
        let policy = Fixtures.policy(mode, pinning: pinned)
        #expect(evaluate(policy, Fixtures.good, forDomain: nil))
        #expect(evaluate(policy, Fixtures.good, forDomain: "localhost"))
        #expect(policy.requiresSecureTransport)
    }

    @Test(
        "Pinning with nothing pinned, another server's leaf, or a wrong domain is refused",
        arguments: [SecurityPolicy.PinningMode.publicKey, .certificate]
    )
    func pinnedMismatchIsRefused(mode: SecurityPolicy.PinningMode) {
        #expect(!evaluate(Fixtures.policy(mode, pinning: []), Fixtures.good, forDomain: nil))
        #expect(!evaluate(Fixtures.policy(mode, pinning: ["good"]), otherServer, forDomain: nil))
        #expect(!evaluate(Fixtures.policy(mode, pinning: ["good", "foobarCN"]), otherServer, forDomain: nil))
        #expect(!evaluate(Fixtures.policy(mode, pinning: ["good"]), Fixtures.good, forDomain: "invaliddomainname.com"))
    }

    @Test("Pinned certificates are read from a bundle's .cer, .der, .crt and .pem files")
    func certificatesInBundle() throws {
        let pki = TestPKI.shared
        let folder = pki.directory.appendingPathComponent("bundle-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try pki.der("good").write(to: folder.appendingPathComponent("leaf.cer"))
        try pki.der("root").write(to: folder.appendingPathComponent("root.der"))
        try FileManager.default.copyItem(
            atPath: pki.pem("intermediate"),
            toPath: folder.appendingPathComponent("ca.crt").path
        )
        let twoInOne =
            try String(contentsOfFile: pki.pem("otherRoot"), encoding: .utf8)
            + String(contentsOfFile: pki.pem("selfSigned"), encoding: .utf8)
        try twoInOne.write(to: folder.appendingPathComponent("more.pem"), atomically: true, encoding: .utf8)
        try Data("not a certificate".utf8).write(to: folder.appendingPathComponent("broken.cer"))
        try pki.der("wildcard").write(to: folder.appendingPathComponent("ignored.txt"))

        let bundle = try #require(Bundle(path: folder.path))
        let found = SecurityPolicy.certificates(in: bundle)
        #expect(found == Fixtures.pinned("good", "root", "intermediate", "otherRoot", "selfSigned"))

        let policy = SecurityPolicy(pinningMode: .certificate, withPinnedCertificates: found)
        #expect(policy.pinnedPublicKeys.count == 5)
    }

    @Test("init(pinningMode:certificatesIn:) pins a bundle's certificates and refuses a bundle without any")
    func pinningModeWithBundle() throws {
        let pki = TestPKI.shared
        let folder = pki.directory.appendingPathComponent("bundle-\(UUID().uuidString)")
        let empty = pki.directory.appendingPathComponent("empty-bundle-\(UUID().uuidString)")
        for directory in [folder, empty] {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        }
        defer {
            try? FileManager.default.removeItem(at: folder)
            try? FileManager.default.removeItem(at: empty)
        }
        try pki.der("good").write(to: folder.appendingPathComponent("leaf.cer"))
        let bundle = try #require(Bundle(path: folder.path))
        let emptyBundle = try #require(Bundle(path: empty.path))

        var policy = try SecurityPolicy(pinningMode: .publicKey, certificatesIn: bundle)
        policy.trustStore = Fixtures.testCA
        #expect(policy.pinnedCertificates == Fixtures.pinned("good"))
        #expect(evaluate(policy, Fixtures.good, forDomain: "localhost"))
        #expect(!evaluate(policy, otherServer, forDomain: nil))

        for mode in [SecurityPolicy.PinningMode.publicKey, .certificate] {
            let error = #expect(throws: CertificateError.self) {
                try SecurityPolicy(pinningMode: mode, certificatesIn: emptyBundle)
            }
            #expect(error?.code == .noCertificates)
            #expect(error?.path == empty.path)
        }
        #expect(try SecurityPolicy(pinningMode: .none, certificatesIn: emptyBundle).pinnedCertificates.isEmpty)
    }

    @Test("PEM pinned certificates work like DER ones")
    func pemPinnedCertificates() throws {
        let pem = try Data(contentsOf: URL(fileURLWithPath: TestPKI.shared.pem("intermediate")))
        for mode in [SecurityPolicy.PinningMode.publicKey, .certificate] {
            var policy = SecurityPolicy(pinningMode: mode, withPinnedCertificates: [pem])
            policy.trustStore = Fixtures.testCA
            #expect(evaluate(policy, Fixtures.good, forDomain: "localhost"))
            #expect(policy.pinnedPublicKeys == [Fixtures.certificate("intermediate").publicKeyPin])
        }
    }

    // MARK: Domain name validation

    @Test("Without domain validation a wrong domain is allowed")
    func noDomainValidation() {
        var policy = Fixtures.policy(.none)
        policy.validatesDomainName = false
        #expect(evaluate(policy, Fixtures.good, forDomain: "invalid.org"))
    }

    @Test("With domain validation a wrong domain is refused")
    func domainValidation() {
        #expect(!evaluate(Fixtures.policy(.none), Fixtures.good, forDomain: "invalid.org"))
    }

    @Test(
        "Public-key pinning with invalid certificates allowed trusts a pinned self-signed certificate for its domain",
        arguments: ["foobarCN", "foobarSAN"]
    )
    func selfSignedPinnedKey(name: String) {
        var policy = Fixtures.policy(.publicKey, pinning: [name])
        policy.allowInvalidCertificates = true
        #expect(evaluate(policy, Fixtures.trust(name), forDomain: "foobar.com"))
    }

    @Test("Certificate pinning of a self-signed certificate without domains refuses a domain")
    func selfSignedNoDomain() {
        var policy = Fixtures.policy(.certificate, pinning: ["noDomains"])
        policy.allowInvalidCertificates = true
        #expect(!evaluate(policy, Fixtures.trust("noDomains"), forDomain: "foobar.com"))
    }

    // MARK: Self-signed certificates and allowInvalidCertificates

    @Test("Allowing invalid certificates trusts a self-signed certificate when no domain is given")
    func allowInvalidNoDomain() {
        var policy = Fixtures.policy(.none)
        policy.allowInvalidCertificates = true
        #expect(evaluate(policy, Fixtures.trust("foobarSAN"), forDomain: nil))
    }

    @Test("Allowing invalid certificates with a pinned key trusts the self-signed server for its domain")
    func allowInvalidPinnedKey() {
        var policy = Fixtures.policy(.publicKey, pinning: ["foobarSAN"])
        policy.allowInvalidCertificates = true
        #expect(evaluate(policy, Fixtures.trust("foobarSAN"), forDomain: "foobar.com"))
    }

    @Test("Allowing invalid certificates without pinning or domain validation trusts anything")
    func allowInvalidWithoutDomainValidation() {
        var policy = Fixtures.policy(.none)
        policy.allowInvalidCertificates = true
        policy.validatesDomainName = false
        #expect(evaluate(policy, Fixtures.trust("foobarSAN"), forDomain: "foobar.com"))
        #expect(evaluate(policy, Fixtures.untrustedRoot, forDomain: "example.org"))
    }

    @Test("The default policy refuses a self-signed certificate")
    func defaultRefusesSelfSigned() {
        #expect(!evaluate(Fixtures.policy(.none), Fixtures.trust("foobarSAN"), forDomain: nil))
    }

    @Test(
        "Allowing invalid certificates with domain validation needs pins",
        arguments: [(SecurityPolicy.PinningMode.publicKey, [String]()), (.none, ["foobarSAN"]), (.none, [])]
    )
    func allowInvalidNeedsPins(mode: SecurityPolicy.PinningMode, pinned: [String]) {
        var policy = Fixtures.policy(mode, pinning: pinned)
        policy.allowInvalidCertificates = true
        #expect(!evaluate(policy, Fixtures.trust("foobarSAN"), forDomain: "foobar.com"))
        #expect(policy.trustError(Fixtures.trust("foobarSAN", host: "foobar.com"))?.code == .invalidConfiguration)
    }

    // MARK: Copying (AFNetworking's NSCopying test)

    @Test("A copy keeps every setting and is independent of the original")
    func copying() {
        var policy = SecurityPolicy(pinningMode: .certificate, withPinnedCertificates: Fixtures.pinned("good"))
        policy.allowInvalidCertificates = true
        policy.validatesDomainName = false
        var copy = policy
        #expect(copy.pinningMode == policy.pinningMode)
        #expect(copy.allowInvalidCertificates == policy.allowInvalidCertificates)
        #expect(copy.validatesDomainName == policy.validatesDomainName)
        #expect(copy.pinnedCertificates == policy.pinnedCertificates)
        copy.pinnedCertificates = Fixtures.pinned("root")
        copy.validatesDomainName = true
        #expect(policy.pinnedCertificates == Fixtures.pinned("good"))
        #expect(policy.validatesDomainName == false)
        #expect(copy.pinnedPublicKeys == [Fixtures.certificate("root").publicKeyPin])
        #expect(policy.pinnedPublicKeys == [Fixtures.certificate("good").publicKeyPin])
    }
}
