import Foundation
import GannetCore
import GannetTestSupport
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Behaviours of AFNetworking's task delegate (AFURLSessionManagerTaskDelegate) and of
/// AFURLConnectionOperation that had code in Gannet and no test, each against the local servers
/// (docs/core.md).
@Suite("AFNetworking's task delegate, behaviour by behaviour")
struct AFNetworkingTaskDelegateTests {
    let servers: TestServers
    init() throws { servers = try TestServers.shared() }

    /// A memory cache that counts what is stored in it.
    // @unchecked: URLCache is a class Foundation locks itself; the only state added is the Mutex.
    final class CountingCache: URLCache, @unchecked Sendable {
        private let stores = Mutex(0)
        var storeCount: Int { stores.withLock { $0 } }

        override func storeCachedResponse(_ cachedResponse: CachedURLResponse, for request: URLRequest) {
            stores.withLock { $0 += 1 }
            super.storeCachedResponse(cachedResponse, for: request)
        }
    }

    private func cachingManager() -> (SessionManager, CountingCache, CallCounter) {
        let cache = CountingCache(memoryCapacity: 8 << 20, diskCapacity: 0, diskPath: nil)
        var configuration = SessionConfiguration.default
        configuration.urlCache = cache
        configuration.httpCookieStorage = EphemeralCookieStorage()
        let manager = SessionManager(configuration: configuration)
        let offered = CallCounter()
        manager.setDataTaskWillCacheResponse { _, _, proposed in
            offered.increment()
            return proposed
        }
        return (manager, cache, offered)
    }

    // MARK: The cache

    /// NSURLSession asks `willCacheResponse` only for a response from the network: one the cache
    /// answered is neither offered nor stored again.
    @Test func aResponseAnsweredFromTheCacheIsNotOfferedOrStoredAgain() async throws {
        let (manager, cache, offered) = cachingManager()
        defer { manager.invalidateAndCancel() }
        let url = servers.nginx.adding("/cacheable/fresh?run=\(UUID().uuidString)")
        let first = await perform(manager, URLRequest(url: url))
        #expect(first.response?.statusCode == 200, "\(String(describing: first.error))")
        #expect(offered.value == 1 && cache.storeCount == 1)
        let second = await perform(manager, URLRequest(url: url))
        // nginx's body is a new $request_id for every request it answers: the same one came
        // from the cache.
        #expect(second.data == first.data)
        #expect(offered.value == 1, "a cached response was offered to willCacheResponse")
        #expect(cache.storeCount == 1, "a cached response was stored again")
    }

    /// A cancelled task's response is never cached (AFNetworking's delegate is not asked:
    /// the task did not finish loading).
    @Test func aCancelledTasksResponseIsNeverCached() async throws {
        let (manager, cache, offered) = cachingManager()
        defer { manager.invalidateAndCancel() }
        manager.setDataTaskDidReceiveResponse { _, _, _ in .cancel }
        let url = servers.nginx.adding("/cacheable/fresh?run=\(UUID().uuidString)")
        let response = await perform(manager, URLRequest(url: url))
        #expect((response.error as? URLError)?.code == .cancelled)
        #expect(response.response?.statusCode == 200, "the head arrived: the server answered")
        #expect(offered.value == 0 && cache.storeCount == 0)
        #expect(cache.cachedResponse(for: URLRequest(url: url)) == nil)
    }

    /// AFNetworking's `URLSession:dataTask:willCacheResponse:` is asked for every data task,
    /// upload tasks included, when the cache would store the response: a `GET` upload's is
    /// offered and stored; a `POST`'s is not, as NSURLCache stores none (RFC 9111, section 9.3.3).
    @Test func anUploadTasksResponseIsOfferedWhenItsMethodIsCacheable() async throws {
        let (manager, cache, offered) = cachingManager()
        defer { manager.invalidateAndCancel() }
        for method in ["GET", "POST"] {
            var request = URLRequest(url: servers.nginx.adding("/cacheable/fresh?run=\(UUID().uuidString)"))
            request.httpMethod = method
            let response = await withCheckedContinuation { continuation in
                manager.uploadTask(with: request, from: Data("body".utf8), serializer: .passthrough) {
                    continuation.resume(returning: $0)
                }.resume()
            }
            #expect(response.response?.statusCode == 200, "\(method): \(String(describing: response.error))")
        }
        #expect(offered.value == 1, "the GET upload's response, and only it")
        #expect(cache.storeCount == 1)
    }

    // MARK: Completion

    /// AFNetworking posts DidComplete from inside the completion block it queued, after the
    /// handler returned: an observer sees the handler's work done.
    @Test func theCompletionNotificationIsPostedAfterTheHandlerRan() async throws {
        let manager = SessionManager()
        defer { manager.finishTasksAndInvalidate() }
        let marker = UUID().uuidString
        let events = Mutex<[String]>([])
        let observer = NotificationCenter.default.addObserver(forName: .gannetTaskDidComplete, object: nil, queue: nil)
        { note in
            guard (note.object as? SessionTask)?.originalRequest?.url?.query?.contains(marker) == true else { return }
            events.withLock { $0.append("notification") }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        let url = servers.nginx.adding("/small?order=\(marker)")
        _ = await withCheckedContinuation { continuation in
            manager.dataTask(with: URLRequest(url: url), serializer: .passthrough) { response in
                events.withLock { $0.append("handler began") }
                // Work the handler does before it returns; no notification may come meanwhile.
                _ = String(decoding: response.data ?? Data(), as: UTF8.self)
                events.withLock { $0.append("handler returned") }
                continuation.resume(returning: response)
            }.resume()
        }
        #expect(await eventually(within: 30) { events.withLock { $0.count } == 3 })
        #expect(events.withLock { $0 } == ["handler began", "handler returned", "notification"])

        // The async API: posted before `await` returns.
        let asyncURL = servers.nginx.adding("/small?order=\(marker)&async=1")
        _ = await manager.response(for: URLRequest(url: asyncURL), serializer: .passthrough)
        #expect(events.withLock { $0.count } == 4)
    }

    /// A serializer that waits inside `serialize` until `count` serializations are inside it at
    /// once (or 60 s passed: a bound that tells "overlapped" from "ran one after the other").
    struct Rendezvous: ResponseSerializing {
        final class Room: Sendable {
            let inside = Mutex(0)
            let met = Mutex(0)
        }
        let room: Room
        let count: Int

        func serialize(_ input: ResponseInput) throws -> Bool {
            room.inside.withLock { $0 += 1 }
            let deadline = ContinuousClock.now + .seconds(60)
            while room.inside.withLock({ $0 }) < count, ContinuousClock.now < deadline { usleep(1000) }
            let met = room.inside.withLock { $0 } >= count
            if met { room.met.withLock { $0 += 1 } }
            return met
        }
    }

    /// AFNetworking serializes on a concurrent queue (url_session_manager_processing_queue): two
    /// slow serializations run at the same time, not one after the other.
    @Test func twoSlowSerializationsOverlapOnTheProcessingQueue() async throws {
        let manager = SessionManager()
        defer { manager.finishTasksAndInvalidate() }
        let serializer = Rendezvous(room: Rendezvous.Room(), count: 2)
        async let first = manager.response(
            for: URLRequest(url: servers.nginx.adding("/small?r=1")),
            serializer: serializer
        )
        async let second = manager.response(
            for: URLRequest(url: servers.nginx.adding("/small?r=2")),
            serializer: serializer
        )
        let results = await [first.value, second.value]
        #expect(results == [true, true], "the serializations did not overlap")
        #expect(serializer.room.met.withLock { $0 } == 2)
    }

    /// A serializer that records where the bytes it was given live.
    struct AddressRecorder: ResponseSerializing {
        final class Address: Sendable {
            let value = Mutex<UInt>(0)
        }
        let address: Address
        func serialize(_ input: ResponseInput) throws -> Int {
            let data = input.data ?? Data()
            address.value.withLock { $0 = data.withUnsafeBytes { UInt(bitPattern: $0.baseAddress) } }
            return data.count
        }
    }

    /// AFNetworking hands `mutableData` over (`[self.mutableData copy]` of an immutable buffer is
    /// the same object): the body is not copied between the transfer, the serializer, the
    /// completion handler and the notification. Asserted by identity of the bytes.
    @Test func theResponseDataIsHandedOverWithoutACopy() async throws {
        let manager = SessionManager()
        defer { manager.finishTasksAndInvalidate() }
        let marker = UUID().uuidString
        let recorder = TaskNotificationRecorder(names: [.gannetTaskDidComplete]) {
            $0.originalRequest?.url?.query?.contains(marker) == true
        }
        let address = AddressRecorder.Address()
        let url = servers.nginx.adding("/files/1m.bin?copy=\(marker)")
        let response = await withCheckedContinuation { continuation in
            manager.dataTask(with: URLRequest(url: url), serializer: AddressRecorder(address: address)) {
                continuation.resume(returning: $0)
            }.resume()
        }
        #expect(response.value == 1 << 20)
        let data = try #require(response.data)
        let handed = data.withUnsafeBytes { UInt(bitPattern: $0.baseAddress) }
        #expect(
            handed != 0 && handed == address.value.withLock { $0 },
            "the serializer and the handler saw different buffers"
        )
        let posted = try #require(
            await recorder.wait(for: .gannetTaskDidComplete).first?.userInfo[TaskNotificationKey.responseData] as? Data
        )
        #expect(posted.withUnsafeBytes { UInt(bitPattern: $0.baseAddress) } == handed)
    }

    // MARK: Output streams

    /// AFURLConnectionOperation closes its output stream when the body ends, on success too, and
    /// its `responseData` of a memory stream is the stream's bytes
    /// (`NSStreamDataWrittenToMemoryStreamKey`): so are Gannet's response data and what the
    /// serializer reads.
    @Test func aMemoryOutputStreamIsClosedOnSuccessAndItsBytesAreTheResponseData() async throws {
        let manager = SessionManager()
        defer { manager.invalidateAndCancel() }
        let url = servers.nginx.adding("/files/1m.bin")
        let expected = try #require(await manager.response(for: URLRequest(url: url), serializer: .passthrough).data)
        // @unchecked: the handler only reads the stream's status, after the writer's queue
        // closed it (the completion comes after the close).
        struct Shared: @unchecked Sendable { let stream: OutputStream }
        let shared = Shared(stream: OutputStream.toMemory())
        let stream = shared.stream
        let serialized = Mutex<Int?>(nil)
        let statusInHandler = Mutex<Stream.Status?>(nil)
        let response = await withCheckedContinuation { continuation in
            manager.dataTask(with: URLRequest(url: url), writingTo: stream, serializer: .passthrough) { response in
                statusInHandler.withLock { $0 = shared.stream.streamStatus }
                serialized.withLock { $0 = response.value?.count }
                continuation.resume(returning: response)
            }.resume()
        }
        #expect(response.error == nil)
        #expect(statusInHandler.withLock { $0 } == .closed, "the stream was not closed before the handler")
        #expect(response.data == expected)
        #expect(serialized.withLock { $0 } == expected.count, "the serializer did not read the stream's bytes")
        #expect(stream.property(forKey: .dataWrittenToMemoryStreamKey) as? Data == expected)
    }
}
