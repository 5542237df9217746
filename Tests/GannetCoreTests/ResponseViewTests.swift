import Foundation
import GannetTestSupport
import Synchronization
import Testing

@testable import GannetCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A serializer that reads a ``ResponseInput``'s status and fields gets the parsed head's answers, the same as the
/// `HTTPURLResponse` built from that head would give, and the manager builds no `HTTPURLResponse`
/// for it (ResponseView.swift, docs/performance.md).
@Suite("ResponseView: the parsed head, answering as HTTPURLResponse would")
struct ResponseViewTests {
    let servers: TestServers
    init() throws { servers = try TestServers.shared() }

    /// Which entry point a serializer was called through.
    final class Calls: Sendable {
        let list = Mutex<[String]>([])
        func append(_ call: String) { list.withLock { $0.append(call) } }
        var all: [String] { list.withLock { $0 } }
    }

    /// Reads the status and `Content-Type` as a validator does, through the input's parsed head.
    struct Viewing: ResponseSerializing {
        let seen: Calls

        func serialize(_ input: ResponseInput) throws -> String {
            seen.append("view")
            return "\(input.statusCode ?? 0) \(input.value(forHTTPHeaderField: "content-type") ?? "-")"
        }
    }

    @Test func aParsedHeadAnswersAsTheResponseBuiltFromIt() throws {
        // Given: repeated fields, names in several cases, an X- field Foundation keeps as sent
        let head = ResponseHead(
            statusCode: 418,
            httpVersion: "HTTP/1.1",
            fields: [
                ("content-type", "application/json; charset=utf-8"), ("Set-Cookie", "a=1"),
                ("set-cookie", "b=2"), ("X-Trace", "t"), ("WWW-Authenticate", "Basic realm=\"r\""),
            ]
        )
        let url = URL(string: "http://example.com/a?b=c")!
        let lazy = LazyResponse(head: head, url: url)
        let built = try #require(head.makeResponse(url: url))
        let view = ResponseView(lazy)
        // Then
        #expect(view.statusCode == built.statusCode)
        for name in ["Content-Type", "CONTENT-TYPE", "set-cookie", "x-trace", "www-authenticate", "Absent"] {
            #expect(view.value(forHTTPHeaderField: name) == built.value(forHTTPHeaderField: name), "\(name)")
        }
        #expect(!lazy.isBuilt, "answering built nothing")
        #expect(view.response?.statusCode == 418)
        #expect(lazy.isBuilt, "the object is built when asked for")
    }

    @Test func theManagerHandsTheParsedHeadAndBuildsNoResponseUntilOneIsAskedFor() async throws {
        let manager = SessionManager()
        defer { manager.finishTasksAndInvalidate() }
        let seen = Calls()
        let response = await manager.response(
            for: URLRequest(url: servers.nginx.adding("/small.json")),
            serializer: Viewing(seen: seen)
        )
        #expect((try? response.result.get()) == "200 application/json")
        #expect(seen.all == ["view"])
        let lazy = try #require(response.lazyResponse)
        #expect(!lazy.isBuilt, "serializing built no HTTPURLResponse")
        #expect(response.response?.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(lazy.isBuilt)
    }

    /// The task during its transfer, the hooks and the completion see one `HTTPURLResponse`
    /// object: the transfer makes one lazy response for each head and hands it to all of them
    /// (Hop.lazyResponse()). Each used to build its own.
    @Test(arguments: [false, true])
    func theTaskAndItsCompletionShareOneResponseObject(responseHook: Bool) async throws {
        let manager = SessionManager()
        defer { manager.finishTasksAndInvalidate() }
        let fromHook = Mutex<HTTPURLResponse?>(nil)
        let duringTransfer = Mutex<URLResponse?>(nil)
        if responseHook {
            manager.setDataTaskDidReceiveResponse { _, _, response in
                fromHook.withLock { $0 = response }
                return .allow
            }
        }
        manager.setDataTaskDidReceiveData { _, task, _ in
            duringTransfer.withLock { if $0 == nil { $0 = task.response } }
        }
        let fromCompletion: HTTPURLResponse? = await withCheckedContinuation { done in
            manager.dataTask(with: URLRequest(url: servers.nginx.adding("/small.json")), serializer: .passthrough) {
                done.resume(returning: $0.response)
            }
            .resume()
        }
        let completion = try #require(fromCompletion)
        let read = duringTransfer.withLock { $0 }
        let during = try #require(read as? HTTPURLResponse, "the data hook read the task's response")
        #expect(during === completion)
        if responseHook { #expect(fromHook.withLock { $0 } === completion) }
    }

    @Test func aSerializerThatAsksForTheResponseGetsIt() async throws {
        let manager = SessionManager()
        defer { manager.finishTasksAndInvalidate() }
        let seen = Calls()
        let erased = AnyResponseSerializer(PassthroughAndStatus(seen: seen))
        let response = await manager.response(
            for: URLRequest(url: servers.nginx.adding("/small.json")),
            serializer: erased
        )
        #expect((try? response.result.get()) as? String == "200")
        #expect(seen.all == ["response"])
    }

    /// A serializer that asks for Foundation's object.
    struct PassthroughAndStatus: ResponseSerializing {
        let seen: Calls
        func serialize(_ input: ResponseInput) throws -> String {
            seen.append("response")
            return "\(input.response?.statusCode ?? 0)"
        }
    }
}
