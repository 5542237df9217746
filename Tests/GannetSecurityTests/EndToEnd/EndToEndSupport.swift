import Foundation
import GannetSecurity
import GannetTestSupport
import Synchronization

/// Helpers for the tests that put evaluators inside real TLS handshakes with the test nginx.
enum EndToEnd {
    static func servers() throws -> TestServers { try TestServers.shared() }

    /// The test-support certificate called `name` (`rootCA`, `intermediateCA`, …).
    static func certificate(_ name: String) throws -> Certificate {
        let servers = try servers()
        let files = try require_(servers.certificates.all[name], "no certificate \(name)")
        return try Certificate(derEncoded: Data(contentsOf: URL(fileURLWithPath: files.der)))
    }

    static func leaf(_ variant: TLSVariant) throws -> Certificate {
        let files = try servers().certificates.leaf(variant)
        return try Certificate(derEncoded: Data(contentsOf: URL(fileURLWithPath: files.der)))
    }

    static func testCA() throws -> TrustStore {
        try TrustStore.caFile(servers().certificates.caBundle)
    }

    /// A URL on `variant`'s endpoint carrying a unique marker, to find (or not) in nginx's access log.
    static func markedURL(_ variant: TLSVariant, path: String = "echo") throws -> (URL, String) {
        let marker = "id=\(UUID().uuidString)"
        let base = try servers().tlsEndpoint(variant).appendingPathComponent(path)
        return (URL(string: base.absoluteString + "?" + marker)!, marker)
    }

    /// A manager whose TLS trust is decided by `evaluator`.
    static func manager(
        _ evaluator: (any ServerTrustEvaluating)?,
        configure: (inout SessionConfiguration) -> Void = { _ in }
    )
        -> SessionManager
    {
        var configuration = SessionConfiguration.default
        configuration.tls.serverTrustEvaluator = evaluator
        configure(&configuration)
        return SessionManager(configuration: configuration)
    }

    /// Sends a GET through `manager` and returns what came back.
    static func get(
        _ url: URL,
        with manager: SessionManager,
        headers: [String: String] = [:]
    ) async -> DataResponse<Data> {
        var request = URLRequest(url: url)
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return await manager.response(for: request, serializer: .passthrough)
    }
}

/// What a handshake ended in, as a test compares it.
struct Handshake: Equatable, CustomStringConvertible {
    var status: Int?
    var urlErrorCode: URLError.Code?
    var trustErrorCode: ServerTrustError.Code?

    static func ok(_ status: Int = 200) -> Handshake { Handshake(status: status) }
    static func refused(_ code: ServerTrustError.Code, _ urlCode: URLError.Code) -> Handshake {
        Handshake(urlErrorCode: urlCode, trustErrorCode: code)
    }

    init(status: Int? = nil, urlErrorCode: URLError.Code? = nil, trustErrorCode: ServerTrustError.Code? = nil) {
        self.status = status
        self.urlErrorCode = urlErrorCode
        self.trustErrorCode = trustErrorCode
    }

    init(_ response: DataResponse<Data>) {
        if let error = response.error {
            let urlError = error as? URLError
            self.init(urlErrorCode: urlError?.code, trustErrorCode: Handshake.trustError(in: error)?.code)
        } else {
            self.init(status: response.response?.statusCode)
        }
    }

    /// The evaluator's error, found under the `URLError` and the engine's `GannetError`.
    static func trustError(in error: any Error) -> ServerTrustError? {
        var current: (any Error)? = error
        for _ in 0..<4 {
            if let trust = current as? ServerTrustError { return trust }
            if let gannet = current as? GannetError {
                current = gannet.underlyingError
            } else if let urlError = current as? URLError {
                current = urlError.userInfo[NSUnderlyingErrorKey] as? any Error
            } else {
                return nil
            }
        }
        return nil
    }

    var description: String {
        if let status { return "HTTP \(status)" }
        return
            "refused(\(trustErrorCode.map(String.init(describing:)) ?? "nil"), URLError \(urlErrorCode.map { "\($0.rawValue)" } ?? "nil"))"
    }
}

/// Counts how often the wrapped evaluator runs: once per full TLS handshake.
final class CountingEvaluator: ServerTrustEvaluating {
    let inner: any ServerTrustEvaluating
    private let calls = Atomic<Int>(0)

    init(_ inner: any ServerTrustEvaluating) { self.inner = inner }

    var count: Int { calls.load(ordering: .relaxed) }
    var requiresSecureTransport: Bool { inner.requiresSecureTransport }

    func evaluate(_ trust: ServerTrust) throws {
        calls.add(1, ordering: .relaxed)
        try inner.evaluate(trust)
    }
}

struct RequireError: Error, CustomStringConvertible {
    let description: String
}

/// `#require` for use outside a test function.
func require_<T>(_ value: T?, _ message: String) throws -> T {
    guard let value else { throw RequireError(description: message) }
    return value
}
