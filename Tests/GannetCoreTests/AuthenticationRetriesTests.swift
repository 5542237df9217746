import Foundation
import Testing

@testable import GannetCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The authentication decision without a socket: which challenge is put to the task side,
/// what its credential leads to, and the limit of refusals per protection space.
@Suite struct AuthenticationRetriesTests {
    private static let url = URL(string: "https://example.test/a")!
    private static let credential = URLCredential(user: "u", password: "p", persistence: .none)

    private func head(_ status: Int, _ challenge: String) -> ResponseHead {
        let field = status == 407 ? "Proxy-Authenticate" : "WWW-Authenticate"
        return ResponseHead(statusCode: status, httpVersion: "HTTP/1.1", fields: [(name: field, value: challenge)])
    }

    private static func retries() -> AuthenticationRetries {
        AuthenticationRetries(binding: CredentialBinding(origin: url, schemes: .any), proxy: .none)
    }

    private func decide(
        _ retries: inout AuthenticationRetries,
        _ head: ResponseHead,
        repeatable: Bool = true,
        ask: (AuthenticationRetries.Question) throws -> URLCredential? = { _ in credential }
    ) -> AuthenticationRetries.Outcome {
        retries.decide(
            head,
            url: Self.url,
            bodyCanBeSentAgain: repeatable,
            failureResponse: { nil },
            ask: ask
        )
    }

    @Test func aDigestChallengeIsRetriedWithTheCredentialInDigest() {
        var retries = Self.retries()
        var asked: AuthenticationChallenge?
        let outcome = decide(&retries, head(401, "Digest realm=\"r\", nonce=\"n\"")) {
            asked = $0.challenge
            return Self.credential
        }
        guard case .retry(let credential) = outcome else {
            Issue.record("a credential retries: \(outcome)")
            return
        }
        #expect(credential == HopCredential(user: "u", password: "p", scheme: .digest, proxy: false))
        #expect(asked?.previousFailureCount == 0)
        #expect(asked?.protectionSpace.realm == "r")
    }

    @Test func noCredentialOrNoSchemeGannetAnswersDeliversTheResponse() {
        var retries = Self.retries()
        guard case .deliver = decide(&retries, head(401, "Basic realm=\"r\""), ask: { _ in nil }) else {
            Issue.record("no credential delivers")
            return
        }
        // A scheme Gannet does not compute (Bearer) is still offered to the handler, as
        // AFNetworking does, but a credential for it cannot be sent: the response is delivered.
        let unknown = decide(&retries, head(401, "Bearer realm=\"r\""))
        guard case .deliver = unknown else {
            Issue.record("a scheme Gannet does not answer delivers: \(unknown)")
            return
        }
    }

    @Test func aStreamedBodyThatCannotBeSentAgainFails() throws {
        var retries = Self.retries()
        guard case .fail(let error) = decide(&retries, head(401, "Basic realm=\"r\""), repeatable: false) else {
            Issue.record("a body that cannot be sent again fails")
            return
        }
        #expect((error as? URLError) != nil)
    }

    @Test func theHandlersErrorFailsTheTransfer() {
        struct Refused: Error {}
        var retries = Self.retries()
        guard case .fail(let error) = decide(&retries, head(401, "Basic realm=\"r\""), ask: { _ in throw Refused() })
        else {
            Issue.record("the handler's error fails")
            return
        }
        #expect(error is Refused)
    }

    @Test func afterThreeRefusalsOfOneSpaceTheResponseIsDelivered() {
        var retries = Self.retries()
        var counts: [Int] = []
        for _ in 0..<3 {
            let outcome = decide(&retries, head(401, "Basic realm=\"r\"")) {
                counts.append($0.challenge.previousFailureCount)
                return Self.credential
            }
            guard case .retry = outcome else {
                Issue.record("retried within the limit: \(outcome)")
                return
            }
        }
        guard case .deliver = decide(&retries, head(401, "Basic realm=\"r\"")) else {
            Issue.record("the fourth refusal is delivered")
            return
        }
        #expect(counts == [0, 1, 2])
    }
}
