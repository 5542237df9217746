import Foundation
import Gannet
import GannetTestSupport
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What one AFNetworking-style call delivered: the task it returned, and the single success or
/// failure callback, with whether it ran on the expected queue.
struct Delivery: Sendable {
    var returnedTask: SessionTask?
    var callbackTask: SessionTask?
    var value: (any Sendable)?
    var error: (any Error)?
    var onCompletionQueue: Bool
    var succeeded: Bool { error == nil }
}

/// A queue the tests install as `completionQueue`, recognisable from inside a handler.
enum CompletionQueue {
    static let key = DispatchSpecificKey<String>()
    static func make() -> DispatchQueue {
        let queue = DispatchQueue(label: "gannet.tests.completion")
        queue.setSpecific(key: key, value: "gannet.tests.completion")
        return queue
    }
    static var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == "gannet.tests.completion" }
}

/// Runs `start` (one of the verb methods) and waits for its one callback. The manager must
/// use ``CompletionQueue/make()`` as its completion queue for `onCompletionQueue` to be true.
func deliver(
    _ start: (@escaping HTTPSessionManager.Success, @escaping HTTPSessionManager.Failure) -> SessionTask?
) async -> Delivery {
    let calls = Mutex(0)
    var returned: SessionTask?
    var delivery = await withCheckedContinuation { (continuation: CheckedContinuation<Delivery, Never>) in
        returned = start(
            { task, value in
                calls.withLock { $0 += 1 }
                continuation.resume(
                    returning: Delivery(
                        callbackTask: task,
                        value: value,
                        error: nil,
                        onCompletionQueue: CompletionQueue.isCurrent
                    )
                )
            },
            { task, error in
                calls.withLock { $0 += 1 }
                continuation.resume(
                    returning: Delivery(
                        callbackTask: task,
                        value: nil,
                        error: error,
                        onCompletionQueue: CompletionQueue.isCurrent
                    )
                )
            }
        )
    }
    delivery.returnedTask = returned
    #expect(calls.withLock { $0 } == 1)
    return delivery
}

/// The manager every test starts from: the given base URL, the test CA trusted, handlers on
/// ``CompletionQueue``.
func makeManager(
    _ baseURL: URL?,
    configure: (inout SessionConfiguration) -> Void = { _ in }
) throws -> HTTPSessionManager {
    var configuration = SessionConfiguration.default
    configuration.tls.caFile = try TestServers.shared().certificates.caBundle
    configure(&configuration)
    let manager = HTTPSessionManager(baseURL: baseURL, configuration: configuration)
    manager.completionQueue = CompletionQueue.make()
    return manager
}

/// httpbin's JSON echo as a dictionary, from the value a manager's response serializer made
/// (a parsed JSON object) or from raw data.
func echo(_ value: (any Sendable)?) throws -> [String: Any] {
    if let dictionary = value as? [String: Any] { return dictionary }
    let data = try #require(value as? Data)
    return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
}

/// A field of httpbin's echo: `echo["form"]["key"]`.
func field(_ echo: [String: Any], _ section: String, _ key: String) -> String? {
    (echo[section] as? [String: Any])?[key] as? String
}

/// The underlying GannetError of an error (itself, or under a URLError).
func gannetCode(_ error: (any Error)?) -> GannetError.Code? {
    if let error = error as? GannetError { return error.code }
    guard let urlError = error as? URLError else { return nil }
    return (urlError.errorUserInfo[NSUnderlyingErrorKey] as? GannetError)?.code
}

/// A temporary file holding `data`, removed by the caller.
func temporaryFile(_ data: Data, name: String = "upload.txt") throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gannet-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let url = directory.appendingPathComponent(name)
    try data.write(to: url)
    return url
}

/// Counts calls from any thread.
final class Counter: Sendable {
    private let value = Mutex(0)
    func increment() { value.withLock { $0 += 1 } }
    var count: Int { value.withLock { $0 } }
}

/// Records the largest fraction a progress handler saw.
final class ProgressRecorder: Sendable {
    private let state = Mutex<(calls: Int, completed: Int64, total: Int64)>((0, 0, 0))
    func record(_ progress: Progress) {
        let completed = progress.completedUnitCount
        let total = progress.totalUnitCount
        state.withLock { state in
            state.calls += 1
            if completed >= state.completed {
                state.completed = completed
                state.total = total
            }
        }
    }
    var calls: Int { state.withLock { $0.calls } }
    var completed: Int64 { state.withLock { $0.completed } }
    var total: Int64 { state.withLock { $0.total } }
}
