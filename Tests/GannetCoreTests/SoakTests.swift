import Foundation
import GannetTestSupport
import Synchronization
import Testing

@testable import GannetCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Issue 16: thousands of tasks, 200 in flight, against slow, failing and TLS endpoints, a
/// third of them cancelled (some in the middle of a TLS handshake that never ends), then the
/// process's threads, descriptors, temporary files and memory compared with their values
/// before (docs/reliability-testing.md).
///
/// `GANNET_SOAK_TASKS` sets the size (default 1,000, CI's; `make soak` runs 10,000) and
/// `GANNET_SOAK_IN_FLIGHT` the concurrency (default 200). The counts are the whole process's,
/// so this suite runs alone (scripts/test.sh, `make soak`): both set `GANNET_SOAK_TASKS`, and
/// without it the suite does not run, saying why, since beside other suites it would measure them.
@Suite(
    "Soak: thousands of tasks, a third cancelled, resources back to their baseline",
    .enabled(
        if: ProcessInfo.processInfo.environment["GANNET_SOAK_TASKS"] != nil,
        "runs alone, as scripts/test.sh and make soak run it, with GANNET_SOAK_TASKS set"
    )
)
struct SoakTests {
    let servers: TestServers
    init() throws { servers = try TestServers.shared() }

    static let environment = ProcessInfo.processInfo.environment
    static let taskCount = environment["GANNET_SOAK_TASKS"].flatMap { Int($0) } ?? 1000
    static let inFlight = environment["GANNET_SOAK_IN_FLIGHT"].flatMap { Int($0) } ?? 200
    /// Resident memory may grow this much over the run (allocator caches, libcurl's DNS and
    /// connection caches, OpenSSL's per-thread state); a leak of one body per task is far more.
    static let residentGrowthBound = 48 << 20

    /// What the process holds, from /proc.
    struct Snapshot: CustomStringConvertible {
        var threads = FaultsProcess.threadCount()
        var descriptors = openFileDescriptorCount()
        var temporaryFiles = Snapshot.gannetTemporaryFiles()
        var residentBytes = FaultsProcess.residentBytes()

        /// Gannet's download files (`gannet-download-*.tmp`) in the temporary folder (the soak's own).
        static func gannetTemporaryFiles() -> Int {
            let folder = FileManager.default.temporaryDirectory.path
            return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
                .filter { $0.hasPrefix("gannet-download-") }.count
        }

        var description: String {
            "threads \(threads), descriptors \(descriptors), temporary files \(temporaryFiles), RSS \(residentBytes >> 20) MiB"
        }
    }

    enum Kind: Int, CaseIterable, Sendable {
        case delayed, slowBody, download, failing, tls, stalledHandshake
    }

    /// One task of the plan.
    struct Job: Sendable {
        var kind: Kind
        var url: URL
        var cancelAfterMicroseconds: Int?
    }

    /// What came back, per task.
    final class Ledger: Sendable {
        struct Entry {
            var completions = 0
            var problem: String?
            var cancelled = false
        }
        private let entries: Mutex<[Entry]>
        init(count: Int) { entries = Mutex(Array(repeating: Entry(), count: count)) }

        func record(_ index: Int, cancelled: Bool, problem: String?) {
            entries.withLock {
                $0[index].completions += 1
                $0[index].cancelled = $0[index].cancelled || cancelled
                if $0[index].problem == nil { $0[index].problem = problem }
            }
        }

        var all: [Entry] { entries.withLock { $0 } }
    }

    private func plan(count: Int, stallPort: Int) -> [Job] {
        var random = FaultsSplitMix(seed: 16)
        let failing: [FaultRoute] = [.truncated, .resetImmediately, .emptyReply, .status(503), .badChunk]
        let tls = servers.tlsEndpoint(.http1Only).appendingPathComponent("small")
        let stall = URL(string: "https://localhost:\(stallPort)/")!
        var jobs: [Job] = []
        for index in 0..<count {
            let kind = Kind(rawValue: Int(random.next() % UInt64(Kind.allCases.count)))!
            let url: URL
            switch kind {
            case .delayed: url = servers.url(.delay(milliseconds: Int(random.next() % 40)))
            case .slowBody: url = servers.url(.slowBody(bytes: 8, intervalMilliseconds: 5))
            case .download: url = servers.url(.slowBody(bytes: 16, intervalMilliseconds: 2))
            case .failing: url = servers.url(failing[index % failing.count])
            case .tls: url = tls
            case .stalledHandshake: url = stall
            }
            // A handshake that never ends is always cancelled; others one time in four, which
            // with those makes about a third.
            let cancels = kind == .stalledHandshake || random.next() % 4 == 0
            jobs.append(Job(kind: kind, url: url, cancelAfterMicroseconds: cancels ? Int(random.next() % 30_000) : nil))
        }
        return jobs
    }

    /// The problem with one response, or nil when it is what its endpoint should give.
    private static func problem(
        _ job: Job,
        _ response: DataResponse<Data>?,
        _ file: URL?,
        _ error: (any Error)?
    )
        -> String?
    {
        let code = (error as? URLError)?.code
        if job.cancelAfterMicroseconds != nil, code == .cancelled { return nil }
        switch job.kind {
        case .stalledHandshake:
            return "a stalled handshake ended with \(String(describing: error))"
        case .failing:
            if let status = response?.response?.statusCode, error == nil {
                return status == 503 ? nil : "status \(status)"
            }
            return code == .networkConnectionLost || code == .badServerResponse ? nil : "\(String(describing: error))"
        case .download:
            guard let file, error == nil else { return "download failed: \(String(describing: error))" }
            defer { try? FileManager.default.removeItem(at: file) }
            return (try? Data(contentsOf: file))?.count == 16 ? nil : "the downloaded file is wrong"
        case .delayed, .tls:
            return response?.value == Data("ok".utf8) ? nil : "expected ok: \(String(describing: error))"
        case .slowBody:
            return response?.value?.count == 8 ? nil : "expected 8 bytes: \(String(describing: error))"
        }
    }

    /// Runs every job, `inFlight` at a time, from a Dispatch queue (a semaphore waits there,
    /// never on the cooperative pool); returns when every completion handler has run.
    private func run(_ jobs: [Job], on manager: SessionManager, ledger: Ledger) async -> Bool {
        let group = DispatchGroup()
        group.enter()
        let inFlight = Self.inFlight
        DispatchQueue.global().async {
            let slots = DispatchSemaphore(value: inFlight)
            for (index, job) in jobs.enumerated() {
                slots.wait()
                group.enter()
                let done: @Sendable (String?, (any Error)?) -> Void = { problem, error in
                    let cancelled = (error as? URLError)?.code == .cancelled
                    ledger.record(index, cancelled: cancelled, problem: problem)
                    slots.signal()
                    group.leave()
                }
                var request = URLRequest(url: job.url)
                request.timeoutInterval = 60
                let task: SessionTask
                if job.kind == .download {
                    task = manager.downloadTask(with: request) { response in
                        done(Self.problem(job, nil, response.value, response.error), response.error)
                    }
                } else {
                    task = manager.dataTask(with: request, serializer: .passthrough) { response in
                        done(Self.problem(job, response, nil, response.error), response.error)
                    }
                }
                task.resume()
                if let delay = job.cancelAfterMicroseconds {
                    DispatchQueue.global().asyncAfter(deadline: .now() + .microseconds(delay)) { task.cancel() }
                }
            }
            group.leave()
        }
        return await Faults.wait(for: group, seconds: 1800)
    }

    @Test(.tags(.faultsSlow)) func thousandsOfTasksLeaveNothingBehind() async throws {
        let good = servers.certificates.leaf(.good)
        let other = servers.certificates.leaf(.rsa)
        let stallServer = try HelperServer(
            script: "tls_fault_server.py",
            arguments: [good.chain ?? good.pem, good.privateKey, other.chain ?? other.pem, other.privateKey]
        )
        defer { stallServer.stop() }
        let stallPort = try #require(try await stallServer.ports()["stall"])
        let configuration = Faults.configuration { $0.tls.caFile = servers.certificates.caBundle }
        // Download files go to a folder of this run's own: other test processes on the machine
        // create and delete theirs in the shared temporary folder.
        let previousTemporaryFolder = getenv("TMPDIR").map { String(cString: $0) }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gannet-soak-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        setenv("TMPDIR", folder.path, 1)
        defer {
            if let previousTemporaryFolder { setenv("TMPDIR", previousTemporaryFolder, 1) } else { unsetenv("TMPDIR") }
            try? FileManager.default.removeItem(at: folder)
        }
        #expect(FileManager.default.temporaryDirectory.standardizedFileURL.path == folder.standardizedFileURL.path)

        // Warm-up: a short run on a manager of its own, so the baseline has curl's and
        // OpenSSL's global state and the allocator's first growth in it.
        await openProcessWideTimerDescriptors()
        let initial = Snapshot()
        let warmUpEngine = FaultsWeak()
        do {
            let manager = SessionManager(configuration: configuration)
            warmUpEngine.object = manager.engine
            let warmUp = plan(count: 200, stallPort: stallPort)
            _ = await run(warmUp, on: manager, ledger: Ledger(count: warmUp.count))
            manager.invalidateAndCancel()
        }
        // Its engine closes the connections as it ends, a little after the weak reference is
        // cleared (that happens when deinitialization begins): wait for the descriptors too.
        #expect(
            await Faults.poll(seconds: 30) {
                warmUpEngine.object == nil && openFileDescriptorCount() <= initial.descriptors
            },
            "the warm-up engine outlived its manager"
        )
        let engineGone = FaultsWeak()
        let before = Snapshot()

        let jobs = plan(count: Self.taskCount, stallPort: stallPort)
        let ledger = Ledger(count: jobs.count)
        let clock = ContinuousClock()
        let started = clock.now
        do {
            let manager = SessionManager(configuration: configuration)
            engineGone.object = manager.engine
            let finished = await run(jobs, on: manager, ledger: ledger)
            #expect(finished, "not every task completed within 30 minutes")
            manager.invalidateAndCancel()
        }
        let elapsed = clock.now - started
        // The engine's thread ends and its connections close once the manager is released.
        _ = await Faults.poll(seconds: 30) {
            let now = Snapshot()
            return engineGone.object == nil && now.threads <= before.threads && now.descriptors <= before.descriptors
                && now.temporaryFiles <= before.temporaryFiles
        }
        let after = Snapshot()

        let entries = ledger.all
        let cancelled = jobs.filter { $0.cancelAfterMicroseconds != nil }.count
        let stalled = jobs.filter { $0.kind == .stalledHandshake }.count
        let endedCancelled = entries.filter(\.cancelled).count
        var completedByKind: [String: Int] = [:]
        for (job, entry) in zip(jobs, entries) where !entry.cancelled {
            completedByKind["\(job.kind)", default: 0] += 1
        }
        print(
            "soak: \(jobs.count) tasks, \(Self.inFlight) in flight, \(cancelled) cancelled (\(stalled) in a stalled "
                + "handshake; \(endedCancelled) ended cancelled, the others had finished), not cancelled by kind: "
                + "\(completedByKind.sorted { $0.key < $1.key }), \(elapsed); before: \(before); after: \(after)"
        )
        let multiple = entries.filter { $0.completions != 1 }.count
        #expect(multiple == 0, "\(multiple) tasks did not complete exactly once")
        let problems = entries.compactMap(\.problem)
        #expect(problems.isEmpty, "\(problems.count) unexpected outcomes, e.g. \(Array(Set(problems)).prefix(5))")
        #expect(engineGone.object == nil, "the engine outlived its manager")
        // Besides the engine's thread, the process's threads are libdispatch's workers, which
        // it starts and retires by itself: there may be fewer after, never more.
        #expect(after.threads <= before.threads, "threads: \(before.threads) before, \(after.threads) after")
        #expect(
            after.descriptors == before.descriptors,
            "descriptors: \(before.descriptors) before, \(after.descriptors) after: \(FaultsProcess.descriptorTargets())"
        )
        #expect(after.temporaryFiles == before.temporaryFiles, "temporary files left: \(after.temporaryFiles)")
        let growth = after.residentBytes - before.residentBytes
        #expect(growth < Self.residentGrowthBound, "resident memory grew by \(growth >> 20) MiB")
    }
}
