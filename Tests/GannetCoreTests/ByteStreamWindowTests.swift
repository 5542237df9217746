import Foundation
import Testing

@testable import GannetCore

/// The byte stream's adaptive window (docs/engine.md, "Backpressure") and its hand-over once
/// per pass ("Handing bytes over"), driven from both ends without a socket: the engine's side
/// pushes chunks, asks whether to pause and hands over at the end of a pass, the consumer's
/// side reads them.
@Suite struct ByteStreamWindowTests {
    private static let chunk = Data(repeating: 0x61, count: 32 * 1024)

    /// Pushes 32 KiB chunks until the state asks the engine to pause; returns the bytes pushed.
    private func fill(_ state: ByteStreamState) -> Int {
        var pushed = 0
        repeat {
            state.push(Self.chunk)
            pushed += Self.chunk.count
        } while !state.pauseIfFull() && pushed < 64 << 20
        return pushed
    }

    /// Reads every buffered chunk, then waits on the empty buffer (the consumer runs dry)
    /// until the engine's side pushes one more.
    private func drainUntilDry(_ state: ByteStreamState, buffered: Int) async throws {
        var read = 0
        while read < buffered {
            read += try #require(try await state.next()).count
        }
        async let dry = state.next()
        try await waitUntilParked(state)
        state.push(Self.chunk)
        state.handOver()
        #expect(try await dry?.count == Self.chunk.count)
    }

    /// Waits for the consumer's read to park on the empty buffer (a condition, not a time; the
    /// deadline only turns a read that never parks into a failure instead of a hang).
    private func waitUntilParked(_ state: ByteStreamState) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while !state.isConsumerWaiting {
            try #require(ContinuousClock.now < deadline, "the consumer's read never parked")
            await Task.yield()
        }
    }

    @Test func aConsumerThatRunsDryAfterAPauseDoublesTheWindowUpToEightMebibytes() async throws {
        let state = ByteStreamState()
        #expect(state.window == 1 << 20)
        var windows: [Int] = []
        for _ in 0..<5 {
            let pushed = fill(state)
            #expect(pushed == state.window, "the engine pauses exactly at the window")
            try await drainUntilDry(state, buffered: pushed)
            windows.append(state.window)
        }
        #expect(windows == [2 << 20, 4 << 20, 8 << 20, 8 << 20, 8 << 20])
    }

    @Test func aConsumerThatNeverRunsDryKeepsTheSmallestWindow() async throws {
        let state = ByteStreamState()
        for _ in 0..<4 {
            _ = fill(state)
            #expect(state.bufferedBytes == 1 << 20, "paused at the first window")
            // A slow consumer: it reads half, then the engine tops the buffer up again.
            for _ in 0..<(state.bufferedBytes / Self.chunk.count / 2) {
                _ = try #require(try await state.next())
            }
            #expect(state.window == 1 << 20)
        }
    }

    @Test func aConsumerThatWaitsBeforeAnyPauseKeepsTheWindow() async throws {
        let state = ByteStreamState()
        async let first = state.next()
        try await waitUntilParked(state)
        state.push(Self.chunk)
        state.handOver()
        _ = try await first
        #expect(state.window == 1 << 20, "waiting for the first bytes is not a sign of a small window")
    }

    /// Three numbered chunks, pushed as three reads of one pass.
    private static let numbered = (1...3).map { Data(repeating: UInt8($0), count: 32 * 1024) }

    @Test func aWaitingConsumerIsWokenOncePerPassNotOncePerRead() async throws {
        let state = ByteStreamState()
        async let first = state.next()
        try await waitUntilParked(state)
        for chunk in Self.numbered { state.push(chunk) }
        #expect(state.isConsumerWaiting, "a read alone does not wake the consumer")
        state.handOver()
        #expect(try await first == Self.numbered[0])
        #expect(!state.isConsumerWaiting)
        #expect(state.bufferedBytes == 2 * 32 * 1024, "the rest of the pass waits, read without a wake-up")
        #expect(try await state.next() == Self.numbered[1])
        #expect(try await state.next() == Self.numbered[2])
        state.handOver()  // a pass that wrote nothing more, or a consumer not waiting: nothing to do
        #expect(state.bufferedBytes == 0)
    }

    @Test func aConsumerThatNeverCatchesUpDoesNotKeepWhatItRead() async throws {
        let state = ByteStreamState()
        state.push(Self.numbered[0])
        for _ in 0..<10_000 {
            // The engine pushes the next read before the consumer takes the previous one: the
            // buffer is never empty, and every chunk read must still be let go.
            state.push(Self.numbered[1])
            _ = try #require(try await state.next())
        }
        #expect(state.bufferedBytes == 32 * 1024)
        #expect(state.slots <= 128, "\(state.slots) slots held for one buffered chunk")
    }

    @Test func theLastPassReachesAWaitingConsumerWhenTheTransferEnds() async throws {
        let state = ByteStreamState()
        async let first = state.next()
        try await waitUntilParked(state)
        state.push(Self.numbered[0])
        state.push(Self.numbered[1])
        state.finish(nil)  // the transfer ended in the same pass, before its hand-over
        #expect(try await first == Self.numbered[0])
        #expect(try await state.next() == Self.numbered[1])
        #expect(try await state.next() == nil)
    }

    @Test func aFailedTransferDeliversWhatItBufferedThenItsError() async throws {
        let state = ByteStreamState()
        async let first = state.next()
        try await waitUntilParked(state)
        state.push(Self.numbered[0])
        state.finish(URLError(.networkConnectionLost))
        #expect(try await first == Self.numbered[0])
        await #expect(throws: URLError.self) { try await state.next() }
    }
}
