import Foundation
import GannetSecurity
import GannetTestSupport
import Testing

/// Every new TLS connection is evaluated or resumes a session its trust scope approved (nginx's
/// log tells which: `reused=r`), with and without pinning; the run prints how many new
/// connections per second each configuration completes and the client CPU time per handshake
/// (the figures in docs/security.md):
///
/// ```sh
/// GANNET_HANDSHAKES=2000 swift test -c release -Xswiftc -enable-testing --filter HandshakeCostTests
/// ```
///
/// The configurations take turns in rounds so that a change in machine load hits them alike;
/// medians over the rounds are printed.
@Suite("End to end: the cost of deciding trust in the handshake")
struct HandshakeCostTests {
    private struct Subject {
        let name: String
        let manager: SessionManager
        let counter: CountingEvaluator?
        var rates: [Double] = []
        var cpuPerHandshake: [Double] = []
        var completed = 0
    }

    @Test("Each of N new connections is evaluated once; handshakes per second are printed")
    func handshakes() async throws {
        let servers = try EndToEnd.servers()
        let total = ProcessInfo.processInfo.environment["GANNET_HANDSHAKES"].flatMap(Int.init) ?? 100
        let rounds = 5
        let perRound = max(total / rounds, 1)
        let root = try EndToEnd.certificate("rootCA")
        let intermediate = try EndToEnd.certificate("intermediateCA")
        let store = try EndToEnd.testCA()
        var certificateMode = SecurityPolicy(pinningMode: .certificate, withPinnedCertificates: [root.derEncoded])
        certificateMode.trustStore = store
        let evaluators: [(String, (any ServerTrustEvaluating)?)] = [
            ("libcurl's own verification (no evaluator; TLS resumption on)", nil),
            // Installs the handshake hook but checks nothing: the baseline that isolates what
            // verification and pinning themselves cost.
            ("DisabledTrustEvaluator (hook only)", DisabledTrustEvaluator()),
            ("DefaultTrustEvaluator (chain + host)", DefaultTrustEvaluator(trustStore: store)),
            (
                "PublicKeysTrustEvaluator (SPKI pin)",
                PublicKeysTrustEvaluator(pins: try PinSet([intermediate.publicKeyPin]), trustStore: store)
            ),
            ("SecurityPolicy .certificate (root pinned)", certificateMode),
        ]
        var subjects = evaluators.map { name, evaluator in
            let counter = evaluator.map(CountingEvaluator.init)
            let manager = EndToEnd.manager(counter) {
                $0.tls.caFile = servers.certificates.caBundle
                $0.httpVersion = .http1_1
            }
            return Subject(name: name, manager: manager, counter: counter)
        }
        defer { for subject in subjects { subject.manager.invalidateAndCancel() } }
        let run = UUID().uuidString
        // Each subject's requests carry a marker, to count its full handshakes in nginx's log.
        func url(_ index: Int) -> URL {
            URL(string: servers.nginxTLS.appendingPathComponent("small").absoluteString + "?hc=\(run)-\(index)-")!
        }
        // Connection: close makes every request a new TCP connection and a new handshake.
        let close = ["Connection": "close"]
        for index in subjects.indices {
            for _ in 0..<5 { _ = await EndToEnd.get(url(index), with: subjects[index].manager, headers: close) }
            subjects[index].completed = 5
        }
        for _ in 0..<rounds {
            for index in subjects.indices {
                let cpuStart = Self.processCPUTime()
                let started = ContinuousClock.now
                var failed = 0
                var reused = 0
                for _ in 0..<perRound {
                    let response = await EndToEnd.get(url(index), with: subjects[index].manager, headers: close)
                    if response.response?.statusCode != 200 { failed += 1 }
                    if response.metrics?.reusedConnection == true { reused += 1 }
                }
                let elapsed = ContinuousClock.now - started
                let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
                subjects[index].rates.append(Double(perRound) / seconds)
                subjects[index].cpuPerHandshake.append((Self.processCPUTime() - cpuStart) / Double(perRound))
                subjects[index].completed += perRound
                #expect(failed == 0, "\(subjects[index].name)")
                #expect(reused == 0, "\(subjects[index].name)")
            }
        }
        for (index, subject) in subjects.enumerated() {
            let lines = servers.accessLogLines(containing: "hc=\(run)-\(index)-")
            let full = lines.filter { $0.contains("reused=.") }.count
            #expect(lines.count == subject.completed, "\(subject.name): \(lines.count) logged")
            // The evaluator judged exactly the full handshakes; the rest resumed a session of
            // its own scope (docs/engine.md, "TLS session resumption").
            if let counter = subject.counter { #expect(counter.count == full, "\(subject.name)") }
            #expect(full < subject.completed, "\(subject.name): no connection resumed a session")
            print("handshakes: \(subject.name): \(full) full handshakes of \(subject.completed) connections")
            let rate = Self.median(subject.rates)
            let cpu = Self.median(subject.cpuPerHandshake) * 1e6
            print(
                "handshakes: \(subject.name): \(Int(rate.rounded())) new connections/s, "
                    + "\(Int(cpu.rounded())) µs client CPU each (median of \(rounds) × \(perRound))"
            )
        }
    }

    private static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }

    /// CPU time of the whole test process (engine thread included), in seconds.
    private static func processCPUTime() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
