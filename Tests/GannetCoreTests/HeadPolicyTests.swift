import Foundation
import Testing

@testable import GannetCore

/// The head policy step by step, without a socket: probe, challenge, redirect within the limit,
/// delivery, and the close_notify rule for a body delimited by the connection's end.
@Suite struct HeadPolicyTests {
    private static let secure = URL(string: "https://example.test/a")!

    private func hop(_ url: URL = Self.secure, method: String = "GET", probe: Bool = false) -> Hop {
        var request = URLRequest(url: url)
        request.httpMethod = method
        var hop = Hop(request: request, limits: SessionConfiguration.Limits())
        hop.awaitsAuthenticationProbe = probe
        return hop
    }

    private func head(_ status: Int, version: String = "HTTP/1.1", _ fields: [(String, String)] = []) -> ResponseHead {
        ResponseHead(statusCode: status, httpVersion: version, fields: fields.map { (name: $0.0, value: $0.1) })
    }

    // MARK: The first question

    @Test func aChallengeIsOfferedAndAProxysIsMarkedSo() {
        #expect(HeadPolicy.step(for: head(401), hop: hop()) == .challenge(proxy: false))
        #expect(HeadPolicy.step(for: head(407), hop: hop()) == .challenge(proxy: true))
    }

    @Test func libcurlsOwnProbeIsNotTheResponse() {
        #expect(HeadPolicy.step(for: head(401), hop: hop(probe: true)) == .authenticationProbe)
        // Only a challenge status is a probe's answer.
        #expect(HeadPolicy.step(for: head(200), hop: hop(probe: true)) == .deliver)
    }

    @Test(arguments: [301, 302, 303, 307, 308])
    func redirectStatusesAreRedirects(status: Int) {
        #expect(HeadPolicy.step(for: head(status), hop: hop()) == .redirect)
    }

    @Test(arguments: [200, 204, 300, 304, 404, 500])
    func otherStatusesAreTheResponse(status: Int) {
        #expect(HeadPolicy.step(for: head(status), hop: hop()) == .deliver)
    }

    // MARK: Redirects and their limit

    @Test func aRedirectUnderTheLimitIsFollowed() {
        let outcome = HeadPolicy.redirect(
            after: URLRequest(url: Self.secure),
            head: head(302, [("Location", "/b")]),
            policy: .follow(max: 2),
            bodyIsRepeatable: true,
            redirectsSoFar: 1
        )
        guard case .follow(let next) = outcome else {
            Issue.record("Expected a follow, got \(outcome)")
            return
        }
        #expect(next.url?.absoluteString == "https://example.test/b")
    }

    @Test func aRedirectAtTheLimitIsRefusedAsTooMany() {
        let outcome = HeadPolicy.redirect(
            after: URLRequest(url: Self.secure),
            head: head(302, [("Location", "/b")]),
            policy: .follow(max: 2),
            bodyIsRepeatable: true,
            redirectsSoFar: 2
        )
        guard case .refuse(let error) = outcome else {
            Issue.record("Expected a refusal, got \(outcome)")
            return
        }
        #expect(error.code == .tooManyRedirects)
        #expect(error.message == "Stopped after 2 redirects (the limit is 2)")
    }

    @Test func aRedirectWithoutALocationIsDeliveredWhateverTheCount() {
        let outcome = HeadPolicy.redirect(
            after: URLRequest(url: Self.secure),
            head: head(302),
            policy: .follow(max: 2),
            bodyIsRepeatable: true,
            redirectsSoFar: 5
        )
        guard case .deliver = outcome else {
            Issue.record("Expected delivery, got \(outcome)")
            return
        }
    }

    // MARK: close_notify

    private func ended(_ hop: Hop, _ head: ResponseHead, closeNotify: Bool = false) -> Hop {
        var hop = hop
        hop.head = head
        hop.closeNotifyArrived = closeNotify
        return hop
    }

    @Test func aBodyDelimitedByABareTCPCloseOverTLSMayBeTruncated() {
        let error = HeadPolicy.truncation(of: ended(hop(), head(200, version: "HTTP/1.0")))
        #expect(error?.code == .transport)
        #expect(HeadPolicy.truncation(of: ended(hop(), head(200))) != nil)
    }

    @Test func closeNotifyMakesItComplete() {
        #expect(HeadPolicy.truncation(of: ended(hop(), head(200, version: "HTTP/1.0"), closeNotify: true)) == nil)
    }

    @Test func aFramedBodyIsCompleteWithoutCloseNotify() {
        #expect(HeadPolicy.truncation(of: ended(hop(), head(200, [("Content-Length", "3")]))) == nil)
        #expect(HeadPolicy.truncation(of: ended(hop(), head(200, [("transfer-encoding", "chunked")]))) == nil)
    }

    @Test func responsesWithoutABodyAndOtherTransportsAreNotChecked() {
        #expect(HeadPolicy.truncation(of: ended(hop(method: "HEAD"), head(200))) == nil)
        #expect(HeadPolicy.truncation(of: ended(hop(), head(204))) == nil)
        #expect(HeadPolicy.truncation(of: ended(hop(), head(304))) == nil)
        #expect(HeadPolicy.truncation(of: ended(hop(), head(200, version: "HTTP/2"))) == nil)
        #expect(HeadPolicy.truncation(of: ended(hop(URL(string: "http://example.test/a")!), head(200))) == nil)
        #expect(HeadPolicy.truncation(of: hop()) == nil)
    }

    // MARK: The redirect hook's answer

    @Test func theHooksRequestIsFollowedAndNoRequestDeliversTheRedirect() {
        let next = URLRequest(url: URL(string: "https://example.test/b")!)
        guard case .follow(let followed) = HeadPolicy.redirect(approvedByHook: next) else {
            Issue.record("the hook's request was not followed")
            return
        }
        #expect(followed == next)
        guard case .deliver = HeadPolicy.redirect(approvedByHook: nil) else {
            Issue.record("no request from the hook did not deliver the redirect")
            return
        }
    }

    @Test func theHookIsAskedOnlyAboutARedirectGannetWouldFollow() {
        var asked: [URL?] = []
        func redirect(_ head: ResponseHead, soFar: Int, answer: URLRequest?) -> Redirection.Outcome {
            HeadPolicy.redirect(
                after: URLRequest(url: Self.secure),
                head: head,
                policy: .follow(max: 2),
                bodyIsRepeatable: true,
                redirectsSoFar: soFar,
                hook: {
                    asked.append($0.url)
                    return answer
                }
            )
        }
        let elsewhere = URLRequest(url: URL(string: "https://example.test/c")!)
        guard case .follow(let followed) = redirect(head(302, [("Location", "/b")]), soFar: 0, answer: elsewhere) else {
            Issue.record("the hook's request was not followed")
            return
        }
        #expect(followed == elsewhere)
        #expect(asked == [URL(string: "https://example.test/b")])
        guard case .deliver = redirect(head(302, [("Location", "/b")]), soFar: 0, answer: nil) else {
            Issue.record("no request from the hook did not deliver the redirect")
            return
        }
        // Over the limit, and without a Location, the hook is not asked.
        guard case .refuse = redirect(head(302, [("Location", "/b")]), soFar: 2, answer: elsewhere),
            case .deliver = redirect(head(302), soFar: 0, answer: elsewhere)
        else {
            Issue.record("a redirect Gannet does not follow went to the hook")
            return
        }
        #expect(asked.count == 2)
    }

    @Test(arguments: ["file:///etc/passwd", "ftp://example.test/a", "gopher://example.test/a"])
    func aHookRequestThatCannotBeSentIsRefused(target: String) {
        let outcome = HeadPolicy.redirect(approvedByHook: URLRequest(url: URL(string: target)!))
        guard case .refuse(let error) = outcome else {
            Issue.record("\(target) was not refused: \(outcome)")
            return
        }
        #expect(error.code == .unsupportedScheme)
        #expect(error.failingURL?.absoluteString == target)
    }

    @Test func aHopKnowsWhetherItUsesTLSWhateverTheSchemesCase() {
        #expect(hop().usesTLS)
        #expect(hop(URL(string: "HTTPS://example.test/a")!).usesTLS)
        #expect(!hop(URL(string: "http://example.test/a")!).usesTLS)
    }
}
