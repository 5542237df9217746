import Foundation
import GannetSecurity
import Testing

@Suite("Composing evaluators")
struct CompositionTests {
    init() async {
        await TestPKI.prepare()
    }

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
            evaluators: [
                "**.gannet.test": pinnedOther, "*.gannet.test": pinnedRoot, "api.gannet.test": pinnedOther,
                "localhost": pinnedRoot,
            ],
            default: DisabledTrustEvaluator()
        )
        #expect(manager.outcome(Fixtures.trust("wildcard", "intermediate", host: "www.gannet.test")) == .trusted)
        #expect(
            manager.outcome(Fixtures.trust("wildcard", "intermediate", host: "api.gannet.test"))
                == .rejected(.pinMismatch)
        )
        #expect(
            manager.outcome(Fixtures.trust("wildcard", "intermediate", host: "a.b.gannet.test"))
                == .rejected(.pinMismatch)
        )
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
