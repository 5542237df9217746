import Foundation
import GannetCore
import GannetTestSupport
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `multipart/x-mixed-replace` against the fault server: one response per part.
@Suite("multipart/x-mixed-replace")
struct MixedReplaceTests {
    let servers: TestServers
    init() throws { servers = try TestServers.shared() }

    /// The bytes Tests/Servers/mixed_replace_routes.py sends as part `index`.
    static func expectedPart(_ index: Int, big: Int) -> Data {
        if index == big { return Data((0..<(5 << 20)).map { UInt8($0 % 251) }) }
        return Data(String(repeating: "part-\(index);", count: (index * 37) % 200 + 1).utf8)
    }

    private struct Seen {
        var statuses: [Int] = []
        var partHeaders: [String?] = []
        var bodies: [Data] = []
    }

    /// Records every part's response and body; `cancelAt` (1-based) answers `.cancel` there.
    private func run(count: Int, big: Int, cancelAt: Int? = nil) async -> (Seen, DataResponse<Data>) {
        let manager = SessionManager()
        defer { manager.finishTasksAndInvalidate() }
        let seen = Mutex(Seen())
        manager.setDataTaskDidReceiveResponse { _, _, response in
            let number = seen.withLock { seen -> Int in
                seen.statuses.append(response.statusCode)
                seen.partHeaders.append(response.value(forHTTPHeaderField: "X-Part"))
                seen.bodies.append(Data())
                return seen.statuses.count
            }
            return number == cancelAt ? .cancel : .allow
        }
        manager.setDataTaskDidReceiveData { _, _, data in
            seen.withLock { $0.bodies[$0.bodies.count - 1].append(data) }
        }
        let response = await perform(manager, URLRequest(url: servers.url(.mixedReplace(count: count, big: big))))
        return (seen.withLock { $0 }, response)
    }

    @Test func fiftyPartsAreFiftyResponsesWithByteExactBodies() async throws {
        let (seen, response) = await run(count: 50, big: 20)
        #expect(response.error == nil)
        #expect(seen.statuses.count == 50)
        #expect(seen.statuses.allSatisfy { $0 == 200 })
        #expect(seen.partHeaders == (0..<50).map { String($0) })
        for index in 0..<min(seen.bodies.count, 50) {
            #expect(seen.bodies[index] == Self.expectedPart(index, big: 20), "part \(index)")
        }
        // The task's data is the last part's, replaced at each part, never appended.
        #expect(response.data == Self.expectedPart(49, big: 20))
        #expect(response.response?.value(forHTTPHeaderField: "X-Part") == "49")
    }

    @Test func cancelOnPartTenStopsTheTransfer() async throws {
        let (seen, response) = await run(count: 50, big: 20, cancelAt: 10)
        #expect((response.error as? URLError)?.code == .cancelled)
        #expect(seen.statuses.count == 10)
        #expect(seen.bodies.last?.isEmpty == true)
        for index in 0..<min(seen.bodies.count, 9) {
            #expect(seen.bodies[index] == Self.expectedPart(index, big: 20), "part \(index)")
        }
    }
}
