import Foundation
import Testing

@testable import GannetCore

/// ``EngineHooks``: what the engine keeps of the manager's hooks. Each flag follows its own hook
/// and no other, so the engine asks the task side exactly when a hook would answer; the hooks'
/// behaviour end to end is TaskHooksTests' and HookCoverageTests'.
@Suite("EngineHooks: which hooks the engine asks about")
struct EngineHooksTests {
    private struct Flags: Equatable {
        var redirects = false, response = false, later = false, trust = false, body = false
        init(_ hooks: EngineHooks) {
            (redirects, response, later) = (hooks.decidesRedirects, hooks.decidesResponse, hooks.decidesResponseLater)
            (trust, body) = (hooks.decidesServerTrust, hooks.renewsBody)
        }
        init() {}
    }

    @Test func noHookSetAsksNothing() {
        let hooks = EngineHooks(SessionHooks())
        #expect(Flags(hooks) == Flags())
        #expect(hooks.credentialSchemes == .any)
        #expect(hooks.trustGeneration == 0)
        #expect(hooks.serverTrustEvaluatorOverride == nil)
    }

    @Test func eachFlagFollowsItsOwnHook() {
        var expected = Flags()
        var hooks = SessionHooks()
        hooks.taskWillPerformHTTPRedirection = { _, _, _, proposed in proposed }
        expected.redirects = true
        #expect(Flags(EngineHooks(hooks)) == expected)
        hooks.dataTaskDidReceiveResponse = { _, _, _ in .allow }
        expected.response = true
        #expect(Flags(EngineHooks(hooks)) == expected)
        hooks.dataTaskDidReceiveResponseDeferred = { _, _, _, decide in decide(.allow) }
        expected.later = true
        #expect(Flags(EngineHooks(hooks)) == expected)
        hooks.serverTrustChallenge = { _, _, _ in .performDefaultHandling }
        expected.trust = true
        #expect(Flags(EngineHooks(hooks)) == expected)
        hooks.taskNeedNewBodyStream = { _, _ in nil }
        expected.body = true
        #expect(Flags(EngineHooks(hooks)) == expected)
    }

    @Test func theTrustSettingsAndSchemesAreTakenAsTheyWere() {
        var hooks = SessionHooks()
        hooks.credentialSchemes = .digest
        hooks.trustGeneration = 7
        hooks.serverTrustEvaluatorOverride = .some(nil)
        let taken = EngineHooks(hooks)
        hooks.trustGeneration = 8
        #expect(taken.credentialSchemes == .digest)
        #expect(taken.trustGeneration == 7)
        #expect(taken.serverTrustEvaluatorOverride != nil, "libcurl's own verification, chosen")
    }
}
