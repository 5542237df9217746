import Dispatch
import Foundation
import OpenAPIRuntime
import Synchronization

/// An `HTTPBody` as the `InputStream` Gannet sends a streamed request body from.
///
/// Gannet reads a body stream on a thread of its own, with blocking `read` calls, into a bounded
/// buffer (docs/core.md, "Tasks"). This stream is the bridge: on `open()` a Swift task iterates
/// the body into at most ``HTTPBodyBridge/capacity`` bytes of chunks, and `read` blocks that
/// thread until a chunk, the end or a failure arrives. So a body is never held whole: the
/// producer waits while the buffer is full, and the engine's own buffer waits while libcurl has
/// not sent. The state lives in ``bridge``, which the transport keeps (an `InputStream` is not
/// Sendable) to end the stream from outside.
final class HTTPBodyInputStream: InputStream {
    /// The shared state; ``HTTPBodyBridge/terminate(failure:)`` ends the stream from any thread.
    let bridge: HTTPBodyBridge

    init(_ body: HTTPBody) {
        bridge = HTTPBodyBridge(body)
        super.init(data: Data())
    }

    override func open() { bridge.open() }
    override func close() { bridge.terminate(failure: nil) }
    override var streamStatus: Stream.Status { bridge.status }
    override var streamError: (any Error)? { bridge.failure }
    override var hasBytesAvailable: Bool { bridge.hasBytesAvailable }

    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength length: Int) -> Int {
        bridge.read(into: buffer, maxLength: length)
    }
}

/// The state of an ``HTTPBodyInputStream``, shared by Gannet's reading thread, the producing
/// Swift task and the transport.
///
/// ``terminate(failure:)`` ends it from outside (the transport calls it when the Swift task is
/// cancelled or the exchange ends): the producer is cancelled and a blocked `read` returns `-1`
/// with the failure as the stream's error, so Gannet's reading thread never outlives the request.
final class HTTPBodyBridge: Sendable {
    /// Bytes taken from the body ahead of the reading thread.
    static let capacity = 256 << 10

    private struct State {
        var chunks: [ArraySlice<UInt8>] = []
        var buffered = 0
        var ended = false
        var failure: (any Error)?
        var status: Stream.Status = .notOpen
        var producer: Task<Void, Never>?
        /// The reading thread waits on `readable`: signal it on the next change.
        var readerWaiting = false
        /// The producer waits for room: resume it when bytes are taken or the stream ends.
        var room: CheckedContinuation<Void, Never>?
    }

    private let body: HTTPBody
    private let state = Mutex(State())
    private let readable = DispatchSemaphore(value: 0)

    init(_ body: HTTPBody) { self.body = body }

    // MARK: The stream's side, on Gannet's reading thread

    func open() {
        let start = state.withLock { state -> Bool in
            guard state.status == .notOpen else { return false }
            state.status = .open
            return true
        }
        guard start else { return }
        let producer = Task { [self] in await produce() }
        let cancelAtOnce = state.withLock { state -> Bool in
            state.producer = producer
            return state.status == .closed
        }
        if cancelAtOnce { producer.cancel() }
    }

    var status: Stream.Status { state.withLock { $0.status } }
    var failure: (any Error)? { state.withLock { $0.failure } }
    var hasBytesAvailable: Bool { state.withLock { $0.buffered > 0 || !$0.ended } }

    func read(into buffer: UnsafeMutablePointer<UInt8>, maxLength length: Int) -> Int {
        while true {
            enum Next {
                case bytes(Int, CheckedContinuation<Void, Never>?)
                case wait
            }
            let next: Next = state.withLock { state in
                if !state.chunks.isEmpty {
                    var count = 0
                    while count < length, let first = state.chunks.first {
                        let take = min(length - count, first.count)
                        first.prefix(take).withUnsafeBufferPointer { source in
                            (buffer + count).update(from: source.baseAddress!, count: take)
                        }
                        count += take
                        if take == first.count {
                            state.chunks.removeFirst()
                        } else {
                            state.chunks[0] = first.dropFirst(take)
                        }
                    }
                    state.buffered -= count
                    let room = state.buffered < Self.capacity ? state.room : nil
                    if room != nil { state.room = nil }
                    return .bytes(count, room)
                }
                if state.failure != nil { return .bytes(-1, nil) }
                if state.ended || state.status == .closed { return .bytes(0, nil) }
                state.readerWaiting = true
                return .wait
            }
            switch next {
            case .bytes(let count, let room):
                room?.resume()
                return count
            case .wait:
                readable.wait()
            }
        }
    }

    // MARK: Producer

    private func produce() async {
        do {
            for try await chunk in body {
                try Task.checkCancellation()
                await waitForRoom()
                let accepted = state.withLock { state -> (Bool, Bool) in
                    guard state.status == .open, state.failure == nil else { return (false, false) }
                    if !chunk.isEmpty {
                        state.chunks.append(chunk)
                        state.buffered += chunk.count
                    }
                    return (true, takeReaderWaiting(&state))
                }
                if accepted.1 { readable.signal() }
                guard accepted.0 else { return }
            }
            let wake = state.withLock { state -> Bool in
                state.ended = true
                return takeReaderWaiting(&state)
            }
            if wake { readable.signal() }
        } catch {
            terminate(failure: error)
        }
    }

    private func waitForRoom() async {
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state -> Bool in
                if state.buffered < Self.capacity || state.status != .open || state.failure != nil { return true }
                state.room = continuation
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    private func takeReaderWaiting(_ state: inout State) -> Bool {
        defer { state.readerWaiting = false }
        return state.readerWaiting
    }

    // MARK: Ending

    /// Ends the stream from any thread: cancels the producer, wakes a blocked `read` (which
    /// returns `-1` when `failure` is given, else `0`) and the producer's wait for room.
    func terminate(failure: (any Error)?) {
        let (producer, room, wake) = state.withLock { state in
            if state.status != .closed {
                state.status = .closed
                if let failure, !state.ended { state.failure = failure }
            }
            let room = state.room
            state.room = nil
            return (state.producer, room, takeReaderWaiting(&state))
        }
        producer?.cancel()
        room?.resume()
        if wake { readable.signal() }
    }
}
