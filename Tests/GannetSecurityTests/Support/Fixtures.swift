import Foundation
import GannetSecurity

/// Named server chains (DER, leaf first, as a server would present them) and trust stores over
/// the generated ``TestPKI``.
enum Fixtures {
    static var pki: TestPKI { TestPKI.shared }

    static func chain(_ names: String...) -> [Data] { names.map { pki.der($0) } }

    static func trust(_ names: String..., host: String = "localhost") -> ServerTrust {
        ServerTrust(host: host, port: 443, certificateChain: names.map { pki.der($0) })
    }

    static func certificate(_ name: String) -> Certificate {
        // The DER was written by the openssl tool; parsing it is what CertificateTests check.
        try! Certificate(derEncoded: pki.der(name))
    }

    /// The test root as the only anchor: "a test CA given by the caller".
    static let testCA: TrustStore = try! TrustStore.caFile(TestPKI.shared.file("ca-bundle.pem"))

    // The server situations of SECURITY-CASES.md 1–7, presented as a server would send them.
    static var good: ServerTrust { trust("good", "intermediate") }
    static var wrongHost: ServerTrust { trust("wrongHost", "intermediate") }
    static var selfSigned: ServerTrust { trust("selfSigned") }
    static var expired: ServerTrust { trust("expired", "intermediate") }
    static var notYetValid: ServerTrust { trust("notYetValid", "intermediate") }
    static var untrustedRoot: ServerTrust { trust("untrusted", "otherRoot") }
    static var leafAsIssuer: ServerTrust { trust("signedByLeaf", "leafIssuer", "intermediate") }
    static var pathTooLong: ServerTrust { trust("tooDeep", "subCA", "intermediate") }

    /// The `DER` data of a set of certificates, as AFNetworking's `pinnedCertificates` wants.
    static func pinned(_ names: String...) -> Set<Data> { Set(names.map { pki.der($0) }) }

    /// A policy in `mode` whose chain validation uses the test CA.
    static func policy(_ mode: SecurityPolicy.PinningMode, pinning names: [String] = []) -> SecurityPolicy {
        var policy = SecurityPolicy(pinningMode: mode, withPinnedCertificates: Set(names.map { pki.der($0) }))
        policy.trustStore = testCA
        return policy
    }
}

/// What an evaluator decided, comparable in `#expect`.
enum Outcome: Equatable, CustomStringConvertible {
    case trusted
    case rejected(ServerTrustError.Code)
    case failed(String)

    var description: String {
        switch self {
        case .trusted: "trusted"
        case .rejected(let code): "rejected(\(code))"
        case .failed(let text): "failed(\(text))"
        }
    }
}

extension ServerTrustEvaluating {
    /// Whether this evaluator trusts `trust`, and if not, with which error code.
    func outcome(_ trust: ServerTrust) -> Outcome {
        do {
            try evaluate(trust)
            return .trusted
        } catch let error as ServerTrustError {
            return .rejected(error.code)
        } catch {
            return .failed("\(type(of: error)): \(error)")
        }
    }

    /// The typed error for `trust`, or `nil` when it is trusted.
    func trustError(_ trust: ServerTrust) -> ServerTrustError? {
        do {
            try evaluate(trust)
            return nil
        } catch {
            return error as? ServerTrustError
        }
    }
}
