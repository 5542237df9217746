import Foundation
import GannetCore
import GannetTestSupport
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Runs one data task through the completion-handler API and returns its single response.
func perform(_ manager: SessionManager, _ request: URLRequest) async -> DataResponse<Data> {
    await withCheckedContinuation { continuation in
        manager.dataTask(with: request, serializer: .passthrough) { continuation.resume(returning: $0) }.resume()
    }
}

/// Decodes httpbin's JSON echo.
func json(_ data: Data?) throws -> [String: Any] {
    let data = try #require(data)
    return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
}

extension URL {
    func adding(_ path: String) -> URL {
        URL(string: path, relativeTo: self)!.absoluteURL
    }
}

/// The underlying GannetError of a transport URLError, if any.
func gannetCode(_ error: (any Error)?) -> GannetError.Code? {
    if let error = error as? GannetError { return error.code }
    guard let urlError = error as? URLError else { return nil }
    return (urlError.errorUserInfo[NSUnderlyingErrorKey] as? GannetError)?.code
}

/// Counts calls from any thread.
final class CallCounter: Sendable {
    private let count = Mutex(0)
    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}

/// A manager whose TLS trusts the generated test CA.
func testManager(_ servers: TestServers, configure: (inout SessionConfiguration) -> Void = { _ in }) -> SessionManager {
    var configuration = SessionConfiguration.default
    configuration.tls.caFile = servers.certificates.caBundle
    configure(&configuration)
    return SessionManager(configuration: configuration)
}
