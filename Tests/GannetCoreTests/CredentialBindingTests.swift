import Foundation
import Testing

@testable import GannetCore

/// Issue 24: ``CredentialBinding`` step by step, without a socket: which challenge a response is
/// answered for, and whether a credential given without a protection space may answer it.
@Suite("Credential binding")
struct CredentialBindingTests {
    private let origin = URL(string: "http://example.com/login")!

    private func challenges(_ field: String) -> [AuthenticationChallengeHeader.Challenge] {
        AuthenticationChallengeHeader.parse([field])
    }

    private func space(
        _ method: String,
        host: String = "example.com",
        port: Int = 80,
        protocol scheme: String = "http",
        proxy: Bool = false
    ) -> ProtectionSpace {
        ProtectionSpace(
            host: host,
            port: port,
            protocol: scheme,
            realm: "r",
            authenticationMethod: method,
            isProxy: proxy
        )
    }

    // MARK: the challenge answered

    @Test func theStrongestSchemeOfferedIsChosenWhateverItsPlace() {
        let offered = challenges(#"Basic realm="r", Digest realm="r", nonce="n", NTLM"#)
        #expect(CredentialBinding.challenge(in: offered, preferring: .any)?.scheme == "NTLM")
        #expect(CredentialBinding.challenge(in: offered, preferring: [.basic, .digest])?.scheme == "Digest")
        #expect(CredentialBinding.challenge(in: offered, preferring: .basic)?.scheme == "Basic")
        let basicThenDigest = challenges(#"Basic realm="r", Digest realm="r", nonce="n""#)
        #expect(CredentialBinding.challenge(in: basicThenDigest, preferring: .any)?.scheme == "Digest")
    }

    /// A scheme the credential is not for is still the challenge a handler sees (it may answer
    /// it); the binding then refuses the credential, below.
    @Test func withoutAPreferredSchemeTheStrongestAnswerableIsChosen() {
        let basicOnly = challenges(#"Basic realm="r""#)
        #expect(CredentialBinding.challenge(in: basicOnly, preferring: .digest)?.scheme == "Basic")
        let unknown = challenges(#"Negotiate, Bearer realm="api", basic realm="r""#)
        #expect(CredentialBinding.challenge(in: unknown, preferring: .any)?.scheme == "basic")
    }

    @Test func aSchemeGannetDoesNotComputeIsOfferedAsItIs() {
        let offered = challenges(#"Bearer realm="api", Negotiate"#)
        #expect(CredentialBinding.challenge(in: offered, preferring: .any)?.scheme == "Bearer")
        #expect(CredentialBinding.challenge(in: [], preferring: .any) == nil)
    }

    @Test func ofOneSchemeTheServersFirstIsChosen() {
        let offered = challenges(#"Digest realm="a", nonce="1", algorithm=SHA-256, Digest realm="b", nonce="2""#)
        #expect(CredentialBinding.challenge(in: offered, preferring: .any)?.parameters["realm"] == "a")
    }

    // MARK: the scheme

    @Test func aCredentialForDigestOrNTLMNeverAdmitsBasic() {
        for schemes in [AuthenticationSchemes.digest, .ntlm, [.digest, .ntlm]] {
            let binding = CredentialBinding(origin: origin, schemes: schemes)
            #expect(!binding.admits(space("Basic"), at: origin), "\(schemes)")
            #expect(!binding.admits(space("BASIC"), at: origin), "\(schemes)")
            #expect(!binding.admits(space("Basic", proxy: true), at: origin), "\(schemes)")
        }
        #expect(CredentialBinding(origin: origin, schemes: .digest).admits(space("digest"), at: origin))
        #expect(!CredentialBinding(origin: origin, schemes: .digest).admits(space("NTLM"), at: origin))
        #expect(CredentialBinding(origin: origin, schemes: .ntlm).admits(space("NTLM"), at: origin))
    }

    @Test func anySchemeAdmitsTheThreeGannetComputesAndNoOther() {
        let binding = CredentialBinding(origin: origin, schemes: .any)
        for method in ["Basic", "Digest", "NTLM"] { #expect(binding.admits(space(method), at: origin), "\(method)") }
        for method in ["Negotiate", "Bearer", "", "Basic2"] {
            #expect(!binding.admits(space(method), at: origin), "\(method)")
        }
        #expect(!CredentialBinding(origin: origin, schemes: []).admits(space("Basic"), at: origin))
    }

    // MARK: the origin

    @Test func anotherHostPortOrSchemeIsAnotherOrigin() {
        let binding = CredentialBinding(origin: origin, schemes: .any)
        #expect(binding.admits(space("Basic"), at: URL(string: "http://EXAMPLE.com:80/elsewhere?x")!))
        for other in [
            "http://example.org/login", "http://example.com:8080/login", "https://example.com/login",
            "http://sub.example.com/login", "http://example.com.evil/login",
        ] {
            #expect(!binding.admits(space("Basic"), at: URL(string: other)!), "\(other)")
        }
        // Default ports are explicit (curl CVE-2022-27776).
        let tls = CredentialBinding(origin: URL(string: "https://example.com/")!, schemes: .any)
        #expect(tls.admits(space("Digest"), at: URL(string: "https://example.com:443/x")!))
        #expect(!tls.admits(space("Digest"), at: URL(string: "http://example.com:443/x")!))
    }

    @Test func noOriginAdmitsNothing() {
        let binding = CredentialBinding(origin: nil, schemes: .any)
        #expect(!binding.admits(space("Basic"), at: origin))
        #expect(!binding.admits(space("Basic", host: "proxy", port: 3128, proxy: true), at: origin))
    }

    /// The origin's credential never answers a proxy's `407`, in any scheme, at any URL: the
    /// proxy would read the server's password (curl keeps `--user` and `--proxy-user` apart).
    @Test func aProxysChallengeIsNeverAdmitted() {
        for scheme in ["Basic", "Digest", "NTLM"] {
            let proxySpace = space(scheme, host: "proxy", port: 3128, proxy: true)
            #expect(!CredentialBinding(origin: origin, schemes: .any).admits(proxySpace, at: origin))
            #expect(
                !CredentialBinding(origin: origin, schemes: .any)
                    .admits(proxySpace, at: URL(string: "http://example.org/")!)
            )
        }
    }

    @Test func schemeNamesAreReadCaseInsensitively() {
        #expect(AuthenticationSchemes(challengeScheme: "bAsIc") == .basic)
        #expect(AuthenticationSchemes(challengeScheme: "DIGEST") == .digest)
        #expect(AuthenticationSchemes(challengeScheme: "ntlm") == .ntlm)
        #expect(AuthenticationSchemes(challengeScheme: "Negotiate") == nil)
        #expect(AuthenticationSchemes(challengeScheme: "") == nil)
    }
}
