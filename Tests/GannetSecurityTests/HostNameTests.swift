import Foundation
import GannetSecurity
import Testing

/// Host names and IP addresses, matched by OpenSSL (`X509_check_host` without partial
/// wildcards, `X509_check_ip_asc`).
@Suite("Host name and IP address checks")
struct HostNameTests {
    let evaluator: DefaultTrustEvaluator

    init() async {
        await TestPKI.prepare()
        evaluator = DefaultTrustEvaluator(trustStore: Fixtures.testCA)
    }

    @Test(
        "Host names and addresses the leaf names are accepted",
        arguments: [
            ("good", "localhost"), ("good", "LOCALHOST"), ("good", "localhost."), ("good", "127.0.0.1"),
            ("good", "::1"), ("good", "[::1]"), ("ipAddress", "127.0.0.1"),
            ("wildcard", "a.gannet.test"), ("wildcard", "FOO.gannet.test"),
        ]
    )
    func accepted(leaf: String, host: String) {
        #expect(evaluator.outcome(Fixtures.trust(leaf, "intermediate", host: host)) == .trusted)
    }

    @Test(
        "Other names and addresses are refused",
        arguments: [
            ("good", "localhost2"), ("good", "127.0.0.2"), ("good", "0:0:0:0:0:0:0:2"), ("good", ""),
            ("ipAddress", "localhost"), ("ipAddress", "::1"), ("ipAddress", "127.0.0.01"),
            // A name that spells the address is not the address: iPAddress SANs only.
            ("ipAddress", "127.0.0.1.nip.io"),
            ("wildcard", "gannet.test"), ("wildcard", "a.b.gannet.test"), ("wildcard", ".gannet.test"),
            // RFC 6125 6.4.3: no partial-label wildcards (f*.gannet.test).
            ("partialWildcard", "foo.gannet.test"), ("partialWildcard", "f.gannet.test"),
            ("good", "local\u{0}host"),
        ]
    )
    func refused(leaf: String, host: String) {
        #expect(evaluator.outcome(Fixtures.trust(leaf, "intermediate", host: host)) == .rejected(.hostMismatch))
    }

    @Test("The common name is not used when the certificate has DNS names")
    func commonNameIgnoredWithSANs() {
        // wrongHost has CN=wrong.example and SAN DNS:wrong.example; ipAddress has CN=127.0.0.1 only as a name.
        #expect(evaluator.outcome(Fixtures.trust("ipAddress", "intermediate", host: "127.0.0.1")) == .trusted)
        #expect(evaluator.outcome(Fixtures.trust("wrongHost", "intermediate", host: "wrong.example")) == .trusted)
    }

    @Test("Host validation off accepts any host, chain still verified")
    func hostValidationOff() {
        let lenient = DefaultTrustEvaluator(trustStore: Fixtures.testCA, validatesHost: false)
        #expect(lenient.outcome(Fixtures.trust("good", "intermediate", host: "elsewhere.example")) == .trusted)
        #expect(lenient.outcome(Fixtures.trust("selfSigned", host: "elsewhere.example")) == .rejected(.untrustedRoot))
    }

    @Test("A certificate meant only for clients is not accepted from a server")
    func purpose() throws {
        let error = try #require(evaluator.trustError(Fixtures.trust("clientOnly", "intermediate")))
        #expect(error.code == .chainInvalid)
        #expect(error.verifyResult == 26)  // X509_V_ERR_INVALID_PURPOSE
    }
}
