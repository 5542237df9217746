import Foundation
import GannetCore
import GannetTestSupport
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Helpers of the hostile-server and lifecycle suites. Every name starts with `Faults` because
// other suites of this test target declare their own helpers in the same module.

/// What one task produced, and how many times its completion handler ran.
struct FaultsOutcome: Sendable {
    let response: DataResponse<Data>
    /// Completion handler calls counted after a short settle time; anything but 1 is a bug.
    let completions: Int

    var error: (any Error)? { response.error }
    var urlErrorCode: URLError.Code? { (response.error as? URLError)?.code }

    /// The `GannetError` itself (validation) or the one under a transport `URLError`.
    var gannetError: GannetError? { FaultsErrors.gannetError(in: response.error) }
    var gannetCode: GannetError.Code? { gannetError?.code }

    /// A one-line account for failure messages.
    var summary: String {
        let body = response.data.map { "\($0.count) body bytes" } ?? "no body"
        guard let error = response.error else {
            return "success, status \(response.response?.statusCode ?? 0), \(body)"
        }
        let gannet =
            gannetError.map {
                "GannetError.\($0.code) [curl \($0.transportCode.map(String.init) ?? "-")] \($0.message)"
            } ?? "no GannetError"
        return "\(type(of: error)) \(urlErrorCode.map { "\($0.rawValue)" } ?? "-"); \(gannet); \(body)"
    }
}

enum FaultsErrors {
    static func gannetError(in error: (any Error)?) -> GannetError? {
        if let error = error as? GannetError { return error }
        return (error as? URLError)?.errorUserInfo[NSUnderlyingErrorKey] as? GannetError
    }
}

/// Records every completion of one task and wakes one waiter on the first.
final class FaultsCompletionLog<Output: Sendable>: Sendable {
    private struct State {
        var responses: [DataResponse<Output>] = []
        var waiter: CheckedContinuation<DataResponse<Output>?, Never>?
    }
    private let state = Mutex(State())

    var count: Int { state.withLock { $0.responses.count } }
    var first: DataResponse<Output>? { state.withLock { $0.responses.first } }

    func record(_ response: DataResponse<Output>) {
        let waiter = state.withLock { state -> CheckedContinuation<DataResponse<Output>?, Never>? in
            state.responses.append(response)
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: response)
    }

    /// The first response, or `nil` when none came within `seconds`.
    func wait(seconds: Double) async -> DataResponse<Output>? {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> DataResponse<Output>? in
                if let first = state.responses.first { return first }
                state.waiter = continuation
                return nil
            }
            if let ready {
                continuation.resume(returning: ready)
                return
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in
                let waiter = state.withLock { state -> CheckedContinuation<DataResponse<Output>?, Never>? in
                    defer { state.waiter = nil }
                    return state.waiter
                }
                waiter?.resume(returning: nil)
            }
        }
    }
}

/// Thrown when a task did not complete in time: the hang itself is the failure.
struct FaultsHang: Error, CustomStringConvertible {
    let seconds: Double
    let request: String
    var description: String { "No completion within \(seconds) s for \(request)" }
}

enum Faults {
    /// Settle time after the first completion before counting completions: a second call
    /// would come from the same engine turn or the next queue hop, well within this.
    static let settle: Duration = .milliseconds(60)

    /// Runs one data task to its completion and counts how often its handler ran.
    /// `prepare` may act on the task before (`resume: false`) or right after it is resumed.
    static func run(
        _ manager: SessionManager,
        _ request: URLRequest,
        within seconds: Double = 15,
        resume: Bool = true,
        prepare: (SessionTask) -> Void = { _ in }
    ) async throws -> FaultsOutcome {
        let log = FaultsCompletionLog<Data>()
        let task = manager.dataTask(with: request, serializer: .passthrough) { log.record($0) }
        if resume { task.resume() }
        prepare(task)
        guard let response = await log.wait(seconds: seconds) else {
            task.cancel()
            throw FaultsHang(seconds: seconds, request: request.url?.absoluteString ?? "?")
        }
        try await Task.sleep(for: settle)
        return FaultsOutcome(response: response, completions: log.count)
    }

    /// Checks the documented failure: exactly one completion, no value, the `URLError` code
    /// and the `GannetError` under it.
    static func expectFailure(
        _ outcome: FaultsOutcome,
        _ urlCode: URLError.Code,
        _ gannetCode: GannetError.Code?,
        transportCode: Int? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        expectFailure(
            outcome,
            oneOf: [urlCode],
            gannetCode,
            transportCode: transportCode,
            sourceLocation: sourceLocation
        )
    }

    /// Like ``expectFailure(_:_:_:transportCode:sourceLocation:)`` where more than one
    /// `URLError` code describes the failure correctly.
    static func expectFailure(
        _ outcome: FaultsOutcome,
        oneOf urlCodes: [URLError.Code],
        _ gannetCode: GannetError.Code?,
        transportCode: Int? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let expected = urlCodes.map { "\($0.rawValue)" }.joined(separator: " or ")
        #expect(
            outcome.completions == 1,
            "completion handler ran \(outcome.completions) times",
            sourceLocation: sourceLocation
        )
        #expect(
            outcome.response.value == nil,
            "expected a failure, got \(outcome.summary)",
            sourceLocation: sourceLocation
        )
        #expect(
            outcome.urlErrorCode.map(urlCodes.contains) == true,
            "expected URLError \(expected), got \(outcome.summary)",
            sourceLocation: sourceLocation
        )
        if let gannetCode {
            #expect(
                outcome.gannetCode == gannetCode,
                "expected GannetError.\(gannetCode), got \(outcome.summary)",
                sourceLocation: sourceLocation
            )
        }
        if let transportCode {
            #expect(
                outcome.gannetError?.transportCode == transportCode,
                "expected curl code \(transportCode), got \(outcome.summary)",
                sourceLocation: sourceLocation
            )
        }
    }

    /// A configuration that bypasses any proxy from the environment (tests talk to loopback).
    static func configuration(_ change: (inout SessionConfiguration) -> Void = { _ in }) -> SessionConfiguration {
        var configuration = SessionConfiguration.default
        configuration.proxy = .none
        change(&configuration)
        return configuration
    }

    static func request(_ url: URL, timeout: TimeInterval? = nil, method: String? = nil) -> URLRequest {
        var request = URLRequest(url: url)
        if let timeout { request.timeoutInterval = timeout }
        if let method { request.httpMethod = method }
        return request
    }

    /// The fault server's request log lines (`METHOD target`) that contain `marker`.
    static func faultLogLines(_ servers: TestServers, containing marker: String) -> [String] {
        guard let data = FileManager.default.contents(atPath: servers.faultLog) else { return [] }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").filter { $0.contains(marker) }.map(
            String.init
        )
    }

    /// A fresh marker to find one test's requests in a server log.
    static func marker() -> String { "m" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased() }
}

/// A counter any thread may bump.
final class FaultsCounter: Sendable {
    private let value = Atomic<Int>(0)
    @discardableResult func increment() -> Int { value.wrappingAdd(1, ordering: .relaxed).newValue }
    var count: Int { value.load(ordering: .relaxed) }
}

extension Tag {
    /// Tests that take a second or more: timeouts, floods, thousands of tasks.
    @Tag static var faultsSlow: Self
}

/// Parent of the suites that count this process's descriptors, threads and server connections:
/// they run one at a time, so one test's connections are never counted against another's.
@Suite("Core transport under hostile servers and callers", .serialized)
struct FaultsSerialSuites {}

extension Faults {
    /// Waits for `group` for at most `seconds`; `false` when it timed out.
    static func wait(for group: DispatchGroup, seconds: Double) async -> Bool {
        let claimed = FaultsBox(false)
        return await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let finish: @Sendable (Bool) -> Void = { value in
                let first = claimed.withLock { claimed -> Bool in
                    defer { claimed = true }
                    return !claimed
                }
                if first { continuation.resume(returning: value) }
            }
            group.notify(queue: .global()) { finish(true) }
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { finish(false) }
        }
    }

    /// Polls `condition` every 10 ms for at most `seconds`.
    static func poll(seconds: Double, until condition: () -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() {
            if Date() >= deadline { return false }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return true
    }
}

/// What one of many concurrent tasks produced; filled from its completion handler.
final class FaultsRecord: Sendable {
    private struct State {
        var completions = 0
        var urlErrorCode: URLError.Code?
        var gannetCode: GannetError.Code?
        var failed = false
        var data: Data?
    }
    private let state = Mutex(State())

    /// Records one completion; returns `true` for the first.
    func record(_ response: DataResponse<Data>) -> Bool {
        state.withLock { state in
            state.completions += 1
            guard state.completions == 1 else { return false }
            state.failed = response.error != nil
            state.urlErrorCode = (response.error as? URLError)?.code
            state.gannetCode = FaultsErrors.gannetError(in: response.error)?.code
            state.data = response.value
            return true
        }
    }

    var completions: Int { state.withLock { $0.completions } }
    var urlErrorCode: URLError.Code? { state.withLock { $0.urlErrorCode } }
    var gannetCode: GannetError.Code? { state.withLock { $0.gannetCode } }
    var failed: Bool { state.withLock { $0.failed } }
    /// The body of a successful completion.
    var data: Data? { state.withLock { $0.data } }
}

/// The fault server's `/echo` answer: the request head as received, then the body's length and digest.
struct FaultsEcho {
    let requestLine: String
    let headers: [(name: String, value: String)]
    let bodyLength: Int
    let bodySHA256: String

    init(_ data: Data?) throws {
        let text = String(decoding: try #require(data), as: UTF8.self)
        var lines = text.components(separatedBy: "\r\n")
        requestLine = lines.removeFirst()
        var headers: [(String, String)] = []
        while let line = lines.first, !line.isEmpty {
            lines.removeFirst()
            let parts = line.split(separator: ":", maxSplits: 1)
            headers.append((String(parts[0]), parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : ""))
        }
        self.headers = headers
        let trailer = lines.joined(separator: "\n").split(separator: "\n")
        bodyLength = try #require(trailer.first { $0.hasPrefix("body-length: ") }.flatMap { Int($0.dropFirst(13)) })
        bodySHA256 = try #require(trailer.first { $0.hasPrefix("body-sha256: ") }.map { String($0.dropFirst(13)) })
    }

    var method: String { String(requestLine.split(separator: " ").first ?? "") }

    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

/// A seeded generator, so a failing random schedule can be replayed from its printed seed.
struct FaultsSplitMix: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Shared mutable state for closures that run on other threads (a `Mutex` itself cannot be
/// captured: it is not copyable).
final class FaultsBox<Value: Sendable>: Sendable {
    private let value: Mutex<Value>
    init(_ value: Value) { self.value = Mutex(value) }
    func withLock<Result: Sendable>(_ body: (inout Value) -> Result) -> Result { value.withLock { body(&$0) } }
    var current: Value { value.withLock { $0 } }
}
