import Foundation
import Testing

@testable import GannetCore

/// Every state and transition of the transfer's life, without a socket: each event in each
/// state, with the answer or effect it returns and its payload.
@Suite struct TransferStateMachineTests {
    typealias Machine = TransferStateMachine

    private static let writeError: Int32 = 23  // CURLE_WRITE_ERROR
    private static let recvError: Int32 = 56  // CURLE_RECV_ERROR
    private static let first = URLRequest(url: URL(string: "http://example.test/first")!)
    private static let target = URLRequest(url: URL(string: "http://example.test/next")!)
    private static let ok = ResponseHead(statusCode: 200, httpVersion: "HTTP/1.1", fields: [])
    private static let moved = ResponseHead(statusCode: 302, httpVersion: "HTTP/1.1", fields: [("Location", "/next")])
    private static let challenge = ResponseHead(statusCode: 401, httpVersion: "HTTP/1.1", fields: [])
    private static let credential = HopCredential(user: "u", password: "p", scheme: .digest, proxy: false)
    /// A response whose body ends where the connection does, over TLS: the close_notify rule's case.
    private static let firstOverTLS = URLRequest(url: URL(string: "https://example.test/first")!)
    private static let closeDelimited = ResponseHead(statusCode: 200, httpVersion: "HTTP/1.0", fields: [])

    private func fresh() -> Machine {
        Machine(first: Hop(request: Self.first, limits: SessionConfiguration.Limits()))
    }

    private func receiving() -> Machine {
        var machine = fresh()
        #expect(machine.headParsed(Self.ok, .deliver) == .take)
        return machine
    }

    private func awaitingDisposition() -> Machine {
        var machine = fresh()
        #expect(machine.headParsed(Self.ok, .deliverAfterDisposition) == .pause)
        return machine
    }

    private func discarding() -> Machine {
        var machine = fresh()
        #expect(machine.headParsed(Self.moved, .follow(.redirect(to: Self.target))) == .take)
        return machine
    }

    private func stopping() -> Machine {
        var machine = receiving()
        #expect(machine.stop(GannetError(.bodyTooLarge, "limit")) == .refuse)
        return machine
    }

    private func finished() -> Machine {
        var machine = receiving()
        #expect(machine.hopEnded(code: 0) == .finish)
        return machine
    }

    // MARK: Awaiting the head

    @Test func aNewTransferAwaitsItsHeadAndParsesHeaderLines() {
        let machine = fresh()
        #expect(machine.phase == .awaitingHead)
        #expect(machine.hop.request == Self.first)
        #expect(!machine.hasHead)
        #expect(machine.countsIdleTime)
        #expect(machine.pause == .none)
        #expect(machine.headerLine() == .parse)
    }

    @Test func aFinalHeadStartsReceivingAndIsKeptInTheHop() {
        var machine = fresh()
        #expect(machine.headParsed(Self.ok, .deliver) == .take)
        #expect(machine.phase == .receiving)
        #expect(machine.hop.head == Self.ok)
        #expect(machine.hasHead)
        #expect(machine.headerLine() == .countAsTrailer)
        #expect(machine.bodyChunk(count: 10) == .deliver)
    }

    @Test func aDeferredDispositionPausesReceivingAndStopsTheIdleClock() {
        var machine = fresh()
        #expect(machine.headParsed(Self.ok, .deliverAfterDisposition) == .pause)
        #expect(machine.phase == .awaitingDisposition)
        #expect(machine.pause == .receiving)
        #expect(!machine.countsIdleTime)
        #expect(machine.headerLine() == .countAsTrailer)
    }

    @Test func bodyBytesBeforeTheHeadAreAProtocolViolation() {
        var machine = fresh()
        #expect(machine.bodyChunk(count: 1) == .refuse)
        #expect(machine.phase == .stopping)
        #expect((machine.failure as? GannetError)?.code == .protocolViolation)
    }

    @Test func aCleanEndWithoutAHeadIsAnIncompleteResponse() {
        var machine = fresh()
        #expect(machine.hopEnded(code: 0) == .fail(.incompleteResponse))
        #expect(machine.phase == .finished)
    }

    @Test func aFailedHopWithoutAHeadFailsWithLibcurlsCode() {
        var machine = fresh()
        #expect(machine.hopEnded(code: Self.recvError) == .fail(.libcurl(Self.recvError)))
    }

    @Test func theHopIsMutatedInPlaceInEveryLiveState() {
        for var machine in [fresh(), receiving(), awaitingDisposition(), discarding(), stopping()] {
            let phase = machine.phase
            machine.hop.sentBytes += 5
            machine.hop.closeNotifyArrived = true
            #expect(machine.hop.sentBytes == 5)
            #expect(machine.hop.closeNotifyArrived)
            #expect(machine.phase == phase)
        }
    }

    // MARK: Header lines, one step each

    private func line(
        _ text: String,
        into machine: inout Machine,
        pauseAwaitsConnection: Bool = false
    ) throws
        -> Machine.HeaderLineResult
    {
        var bytes = Array(text.utf8)
        return try bytes.withUnsafeMutableBytes {
            try machine.receiveHeaderLine(UnsafeRawBufferPointer($0), pauseAwaitsConnection: pauseAwaitsConnection)
        }
    }

    @Test func headerLinesAreParsedUntilTheHeadIsCompleteThenCountedAsTrailers() throws {
        var machine = fresh()
        #expect(try line("HTTP/1.1 200 OK\r\n", into: &machine) == .answer(.take))
        #expect(try line("Content-Length: 2\r\n", into: &machine) == .answer(.take))
        let head = ResponseHead(
            statusCode: 200,
            httpVersion: "HTTP/1.1",
            fields: [("Content-Length", "2")],
            reasonPhrase: "OK"
        )
        #expect(try line("\r\n", into: &machine) == .head(head))
        #expect(head.expectedContentLength == 2)
        #expect(machine.headParsed(head, .deliver) == .take)
        // After the head, a line is a trailer: counted, taken, never parsed as a new head.
        #expect(try line("X-Trailer: 1\r\n", into: &machine) == .answer(.take))
        #expect(machine.phase == .receiving)
    }

    @Test func aMalformedHeaderLineThrowsAndAStoppedTransferRefusesLines() throws {
        var machine = fresh()
        #expect(throws: (any Error).self) { try line("NOT HTTP\r\n", into: &machine) }
        var stopped = stopping()
        #expect(try line("X-Late: 1\r\n", into: &stopped) == .answer(.refuse))
    }

    @Test func aPauseAskedBeforeTheConnectionPausesEveryLine() throws {
        var machine = fresh()
        _ = machine.suspend()
        #expect(machine.pause == .all)
        #expect(try line("HTTP/1.1 200 OK\r\n", into: &machine, pauseAwaitsConnection: true) == .answer(.pause))
        // Not awaiting the connection: the pause was applied by libcurl, lines are parsed.
        #expect(try line("HTTP/1.1 200 OK\r\n", into: &machine, pauseAwaitsConnection: false) == .answer(.take))
        var running = fresh()
        #expect(try line("HTTP/1.1 200 OK\r\n", into: &running, pauseAwaitsConnection: true) == .answer(.take))
    }

    // MARK: Following: redirects and authentication retries

    @Test func aFollowedRedirectDiscardsItsBodyThenTheNextHopIsANewValue() {
        var machine = discarding()
        machine.hop.sentBytes = 7
        machine.hop.sendAttempts = 1
        machine.hop.closeNotifyArrived = true
        #expect(machine.phase == .discarding(bytes: 0, cutShort: false))
        #expect(machine.isFollowing)
        #expect(machine.headerLine() == .countAsTrailer)
        #expect(machine.bodyChunk(count: 100) == .discard)
        #expect(machine.phase == .discarding(bytes: 100, cutShort: false))
        #expect(machine.hopEnded(code: 0) == .follow(Self.target, previous: Self.first))
        #expect(machine.phase == .awaitingHead)
        #expect(machine.redirectCount == 1)
        // Nothing of the previous hop is carried over.
        #expect(machine.hop.request == Self.target)
        #expect(machine.hop.head == nil)
        #expect(machine.hop.credential == nil)
        #expect(machine.hop.sentBytes == 0)
        #expect(machine.hop.sendAttempts == 0)
        #expect(!machine.hop.closeNotifyArrived)
        #expect(!machine.hasHead)
        #expect(machine.headerLine() == .parse)
    }

    /// A `401` answered with a credential: its body is discarded like a redirect's and the same
    /// request goes again with the credential, but it is not a redirect.
    @Test func anAuthenticationRetrySendsTheCredentialOnceWithoutCountingARedirect() {
        var machine = fresh()
        #expect(machine.headParsed(Self.challenge, .follow(.retry(Self.first, with: Self.credential))) == .take)
        #expect(machine.bodyChunk(count: 10) == .discard)
        #expect(machine.hopEnded(code: 0) == .follow(Self.first, previous: Self.first))
        #expect(machine.redirectCount == 0)
        #expect(machine.hop.credential == Self.credential)
        // A redirect after it counts as one, and sends no credential.
        #expect(machine.headParsed(Self.moved, .follow(.redirect(to: Self.target))) == .take)
        #expect(machine.hopEnded(code: 0) == .follow(Self.target, previous: Self.first))
        #expect(machine.redirectCount == 1)
        #expect(machine.hop.credential == nil)
    }

    @Test func aLargeRedirectBodyCutsTheHopShortAndIsStillFollowed() {
        var machine = discarding()
        #expect(machine.bodyChunk(count: Machine.redirectBodyLimit) == .discard)
        #expect(machine.bodyChunk(count: 1) == .refuse)
        #expect(machine.phase == .discarding(bytes: Machine.redirectBodyLimit + 1, cutShort: true))
        #expect(machine.hopEnded(code: Self.writeError) == .follow(Self.target, previous: Self.first))
        #expect(machine.redirectCount == 1)
    }

    @Test func aRedirectHopThatFailsOnItsOwnFailsTheTransfer() {
        var machine = discarding()
        #expect(machine.hopEnded(code: Self.recvError) == .fail(.libcurl(Self.recvError)))
        #expect(machine.phase == .finished)
        #expect(machine.redirectCount == 0)
    }

    @Test func redirectsAreCountedAcrossHops() {
        var machine = fresh()
        var previous = Self.first
        for index in 0..<3 {
            let next = URLRequest(url: URL(string: "http://example.test/\(index)")!)
            #expect(machine.headParsed(Self.moved, .follow(.redirect(to: next))) == .take)
            #expect(machine.hopEnded(code: 0) == .follow(next, previous: previous))
            previous = next
        }
        #expect(machine.redirectCount == 3)
        #expect(machine.headParsed(Self.ok, .deliver) == .take)
        #expect(machine.hopEnded(code: 0) == .finish)
        #expect(machine.hop.request == previous)
    }

    @Test func aTruncationIsNotCheckedOnAHopThatIsFollowed() {
        var machine = Machine(first: Hop(request: Self.firstOverTLS, limits: SessionConfiguration.Limits()))
        #expect(machine.headParsed(Self.closeDelimited, .follow(.redirect(to: Self.target))) == .take)
        #expect(machine.hopEnded(code: 0) == .follow(Self.target, previous: Self.firstOverTLS))
        #expect(machine.failure == nil)
    }

    // MARK: Receiving

    @Test func aCleanEndAfterTheBodyFinishesAndKeepsTheLastHop() {
        var machine = receiving()
        #expect(machine.hopEnded(code: 0) == .finish)
        #expect(machine.phase == .finished)
        #expect(!machine.isLive)
        #expect(machine.hop.head == Self.ok)
    }

    /// A body delimited by the close of a TLS connection that sent no close_notify
    /// (``HeadPolicy/truncation(of:)``); with close_notify the same end is clean.
    @Test func aCleanEndThatThePolicyCallsATruncationFailsWithIt() {
        for disposition in [Machine.HeadDecision.deliver, .deliverAfterDisposition] {
            var machine = Machine(first: Hop(request: Self.firstOverTLS, limits: SessionConfiguration.Limits()))
            _ = machine.headParsed(Self.closeDelimited, disposition)
            #expect(machine.hopEnded(code: 0) == .fail(.recorded))
            #expect((machine.failure as? URLError)?.code == .networkConnectionLost)
            var whole = Machine(first: Hop(request: Self.firstOverTLS, limits: SessionConfiguration.Limits()))
            _ = whole.headParsed(Self.closeDelimited, disposition)
            whole.hop.closeNotifyArrived = true
            #expect(whole.hopEnded(code: 0) == .finish)
        }
    }

    @Test func aFailedEndAfterTheHeadFailsWithLibcurlsCode() {
        var machine = receiving()
        #expect(machine.hopEnded(code: Self.recvError) == .fail(.libcurl(Self.recvError)))
    }

    @Test func aSecondHeadInOneExchangeIsRefused() {
        for var machine in [receiving(), awaitingDisposition(), discarding()] {
            #expect(machine.headParsed(Self.ok, .deliver) == .refuse)
            #expect(machine.phase == .stopping)
            #expect((machine.failure as? GannetError)?.code == .protocolViolation)
        }
    }

    // MARK: Stopping

    @Test func aStopRefusesEverythingAndFailsWithTheFirstRecordedError() {
        var machine = stopping()
        #expect(machine.stop(GannetError(.decompressionBomb, "second")) == .refuse)
        #expect(machine.phase == .stopping)
        #expect(machine.bodyChunk(count: 1) == .refuse)
        #expect(machine.headerLine() == .refuse)
        #expect(machine.headParsed(Self.ok, .deliver) == .refuse)
        #expect(machine.dispositionDecided(.allow) == .none)
        #expect(machine.consumerFull() == .none)
        #expect(machine.hopEnded(code: Self.writeError) == .fail(.recorded))
        #expect((machine.failure as? GannetError)?.code == .bodyTooLarge)
    }

    @Test func aStopWinsOverACleanEnd() {
        // libcurl may end a hop cleanly after a callback refused bytes it replayed.
        var machine = stopping()
        #expect(machine.hopEnded(code: 0) == .fail(.recorded))
    }

    @Test func aStopInEveryLiveStateRefusesAndRecords() {
        for var machine in [fresh(), receiving(), awaitingDisposition(), discarding()] {
            #expect(machine.stop(GannetError(.serverTrustRejected, "rejected")) == .refuse)
            #expect(machine.phase == .stopping)
            #expect(machine.hopEnded(code: 35) == .fail(.recorded))
            #expect((machine.failure as? GannetError)?.code == .serverTrustRejected)
        }
    }

    // MARK: Dispositions

    @Test func allowReceivesTheBody() {
        var machine = awaitingDisposition()
        #expect(machine.dispositionDecided(.allow) == .setPause(.none))
        #expect(machine.phase == .receiving)
        #expect(machine.countsIdleTime)
    }

    @Test func cancelCancelsWithTheDispositionAsCause() {
        var machine = awaitingDisposition()
        #expect(machine.dispositionDecided(.cancel) == .cancel(.disposition))
        #expect(machine.phase == .finished)
    }

    @Test func allowWhileSuspendedWaitsForTheResume() {
        var machine = awaitingDisposition()
        #expect(machine.suspend() == .setPause(.all))
        #expect(machine.dispositionDecided(.allow) == .none)
        #expect(machine.phase == .receiving)
        #expect(machine.resume() == .setPause(.none))
    }

    @Test func aLateOrRepeatedDispositionIsIgnored() {
        var machine = awaitingDisposition()
        #expect(machine.dispositionDecided(.allow) == .setPause(.none))
        #expect(machine.dispositionDecided(.cancel) == .none)
        #expect(machine.phase == .receiving)
        var early = fresh()
        #expect(early.dispositionDecided(.allow) == .none)
        #expect(early.phase == .awaitingHead)
        var redirect = discarding()
        #expect(redirect.dispositionDecided(.allow) == .none)
        var done = finished()
        #expect(done.dispositionDecided(.cancel) == .none)
    }

    @Test func becomeDownloadSwitchesTheSinkThenReceives() {
        var machine = awaitingDisposition()
        #expect(machine.dispositionDecided(.becomeDownload) == .switchSink(.becomeDownload))
        // Still paused for receiving until the new sink is in place: no byte reaches the old one.
        #expect(machine.phase == .awaitingDisposition)
        #expect(machine.pause == .receiving)
        #expect(machine.bodyChunk(count: 1) == .refuse)
        var switched = awaitingDisposition()
        #expect(switched.dispositionDecided(.becomeDownload) == .switchSink(.becomeDownload))
        #expect(switched.sinkSwitched() == .setPause(.none))
        #expect(switched.phase == .receiving)
        #expect(switched.sinkSwitched() == .none)
    }

    @Test func becomeStreamSwitchesTheSinkToo() {
        var machine = awaitingDisposition()
        #expect(machine.dispositionDecided(.becomeStream) == .switchSink(.becomeStream))
        #expect(machine.sinkSwitched() == .setPause(.none))
        #expect(machine.phase == .receiving)
    }

    @Test func aSwitchWhileSuspendedWaitsForTheResume() {
        var machine = awaitingDisposition()
        #expect(machine.suspend() == .setPause(.all))
        #expect(machine.dispositionDecided(.becomeDownload) == .switchSink(.becomeDownload))
        #expect(machine.sinkSwitched() == .none)
        #expect(machine.phase == .receiving)
        #expect(machine.resume() == .setPause(.none))
    }

    @Test func aFailedSwitchFailsWithTheRecordedError() {
        var machine = awaitingDisposition()
        #expect(machine.dispositionDecided(.becomeDownload) == .switchSink(.becomeDownload))
        #expect(machine.fail(GannetError(.bodyStreamFailed, "disk full")) == .fail(.recorded))
        #expect(machine.phase == .finished)
        #expect(machine.sinkSwitched() == .none)
    }

    @Test func sinkSwitchedOutsideASwitchIsIgnored() {
        var early = fresh()
        #expect(early.sinkSwitched() == .none)
        #expect(early.phase == .awaitingHead)
        var machine = receiving()
        #expect(machine.sinkSwitched() == .none)
        var redirect = discarding()
        #expect(redirect.sinkSwitched() == .none)
        #expect(redirect.phase == .discarding(bytes: 0, cutShort: false))
    }

    @Test func aHopEndingWhileAwaitingADispositionEndsTheTransfer() {
        var machine = awaitingDisposition()
        #expect(machine.hopEnded(code: 28) == .fail(.libcurl(28)))
        var clean = awaitingDisposition()
        #expect(clean.hopEnded(code: 0) == .finish)
    }

    // MARK: Suspend and resume

    @Test func suspendPausesBothWaysAndStopsTheIdleClock() {
        var machine = receiving()
        #expect(machine.suspend() == .setPause(.all))
        #expect(machine.isSuspended)
        #expect(machine.pause == .all)
        #expect(!machine.countsIdleTime)
        #expect(machine.idleTimeoutExpired() == .none)
        #expect(machine.suspend() == .none)
        #expect(machine.resume() == .setPause(.none))
        #expect(machine.resume() == .none)
    }

    @Test func resumeKeepsReceivingPausedWhileADispositionIsAwaited() {
        var machine = awaitingDisposition()
        #expect(machine.suspend() == .setPause(.all))
        #expect(machine.resume() == .setPause(.receiving))
    }

    @Test func resumeKeepsReceivingPausedForASlowConsumer() {
        var machine = receiving()
        #expect(machine.consumerFull() == .setPause(.receiving))
        #expect(machine.suspend() == .setPause(.all))
        #expect(machine.resume() == .setPause(.receiving))
    }

    @Test func aSuspendBeforeTheHeadOrDuringARedirectApplies() {
        for var machine in [fresh(), discarding()] {
            #expect(machine.suspend() == .setPause(.all))
            #expect(machine.bodySourceReady() == .none)
            #expect(machine.resume() == .setPause(.none))
            #expect(machine.bodySourceReady() == .setPause(.none))
        }
    }

    // MARK: Backpressure

    @Test func aFullConsumerPausesReceivingUntilItDrains() {
        var machine = receiving()
        #expect(machine.consumerFull() == .setPause(.receiving))
        #expect(machine.isBackpressured)
        #expect(!machine.countsIdleTime)
        #expect(machine.consumerFull() == .none)
        #expect(machine.bodySourceReady() == .setPause(.receiving))
        #expect(machine.consumerDrained() == .setPause(.none))
        #expect(!machine.isBackpressured)
        #expect(machine.consumerDrained() == .none)
    }

    @Test func aConsumerDrainingWhileSuspendedLeavesTheResumeToTheTask() {
        var machine = receiving()
        #expect(machine.consumerFull() == .setPause(.receiving))
        #expect(machine.suspend() == .setPause(.all))
        #expect(machine.consumerDrained() == .none)
        #expect(!machine.isBackpressured)
        #expect(machine.resume() == .setPause(.none))
    }

    @Test func backpressureOnlyAppliesWhileReceiving() {
        for var machine in [fresh(), awaitingDisposition(), discarding(), stopping()] {
            #expect(machine.consumerFull() == .none)
            #expect(!machine.isBackpressured)
        }
    }

    // MARK: Cancel, fail, time out

    @Test func cancelEndsAnyLiveStateOnce() {
        for var machine in [fresh(), receiving(), awaitingDisposition(), discarding(), stopping()] {
            #expect(machine.cancel(.command(nil)) == .cancel(.command(nil)))
            #expect(machine.phase == .finished)
            #expect(machine.cancel(.command(nil)) == .none)
        }
    }

    @Test func theSessionGoingAwayCancelsWithItsCause() {
        var machine = receiving()
        #expect(machine.cancel(.sessionReleased) == .cancel(.sessionReleased))
    }

    @Test func aConfigurationFailureFailsWithTheError() {
        var machine = fresh()
        #expect(machine.fail(GannetError(.invalidHeader, "bad")) == .fail(.recorded))
        #expect((machine.failure as? GannetError)?.code == .invalidHeader)
        #expect(machine.fail(GannetError(.invalidRequest, "again")) == .none)
        #expect((machine.failure as? GannetError)?.code == .invalidHeader)
    }

    @Test func anIdleTransferTimesOutInEveryStateThatCountsIdleTime() {
        for var machine in [fresh(), receiving(), discarding(), stopping()] {
            #expect(machine.idleTimeoutExpired() == .fail(.timedOut))
            #expect(machine.phase == .finished)
        }
        var awaiting = awaitingDisposition()
        #expect(awaiting.idleTimeoutExpired() == .none)
    }

    @Test func anUnpauseFailureUsesTheRecordedErrorWhenThereIsOne() {
        var clean = receiving()
        #expect(clean.unpauseFailed(code: 27) == .fail(.libcurl(27)))
        var stopped = stopping()
        #expect(stopped.unpauseFailed(code: 23) == .fail(.recorded))
    }

    // MARK: Illegal events once finished

    @Test func aFinishedTransferRefusesCallbacksAndIgnoresCommands() {
        var machine = finished()
        #expect(machine.headerLine() == .refuse)
        #expect(machine.bodyChunk(count: 1) == .refuse)
        #expect(machine.headParsed(Self.ok, .deliver) == .refuse)
        #expect(machine.stop(GannetError(.transport, "late")) == .refuse)
        #expect(machine.failure == nil)
        #expect(machine.hopEnded(code: 0) == .none)
        #expect(machine.cancel(.command(nil)) == .none)
        #expect(machine.fail(GannetError(.transport, "late")) == .none)
        #expect(machine.suspend() == .none)
        #expect(machine.resume() == .none)
        #expect(machine.consumerFull() == .none)
        #expect(machine.consumerDrained() == .none)
        #expect(machine.bodySourceReady() == .none)
        #expect(machine.sinkSwitched() == .none)
        #expect(machine.unpauseFailed(code: 23) == .none)
        #expect(machine.idleTimeoutExpired() == .none)
        #expect(!machine.countsIdleTime)
        #expect(machine.phase == .finished)
    }

    // MARK: Commands, sends and the close_notify rule

    @Test func eachCommandIsTheEventItStandsFor() {
        var machine = receiving()
        #expect(machine.apply(.start) == .none)
        #expect(machine.apply(.suspend) == .setPause(.all))
        #expect(machine.apply(.resumeSending) == .none)
        #expect(machine.apply(.resume) == .setPause(.none))
        #expect(machine.apply(.resumeSending) == .setPause(.none))
        #expect(machine.consumerFull() == .setPause(.receiving))
        #expect(machine.apply(.resumeReading) == .setPause(.none))
        #expect(machine.apply(.disposition(.allow)) == .none)
        var deciding = awaitingDisposition()
        #expect(deciding.apply(.disposition(.becomeStream)) == .switchSink(.becomeStream))
        #expect(deciding.apply(.disposition(.cancel)) == .cancel(.disposition))
        var cancelled = receiving()
        let reason = GannetError(.sessionInvalidated, "invalidated")
        #expect(cancelled.apply(.cancel(reason)) == .cancel(.command(reason)))
        #expect(cancelled.apply(.cancel(nil)) == .none)
    }

    @Test func aConsumersFailureFailsTheTransferWithItsError() throws {
        var machine = receiving()
        #expect(machine.apply(.fail(GannetError(.outputStreamFailed, "full"))) == .fail(.recorded))
        let error = try #require(machine.failure as? URLError)
        #expect(error.code == .cannotWriteToFile)
        #expect((error.userInfo[NSUnderlyingErrorKey] as? GannetError)?.code == .outputStreamFailed)
        #expect(machine.phase == .finished)
    }

    @Test func aRequestThatIsNotIdempotentIsSentOncePerHop() throws {
        var post = Self.first
        post.httpMethod = "POST"
        var machine = Machine(first: Hop(request: post, limits: SessionConfiguration.Limits()))
        let first = machine.requestWillBeSent()
        let again = machine.requestWillBeSent()
        #expect(first && !again)
        #expect(machine.phase == .stopping)
        let error = try #require(machine.failure as? URLError)
        #expect(error.code == .networkConnectionLost)
        var get = fresh()
        let sends = [get.requestWillBeSent(), get.requestWillBeSent()]
        #expect(sends == [true, true])
        #expect(get.phase == .awaitingHead)
    }

    @Test func aBodyDelimitedByTheCloseWithoutCloseNotifyIsATruncation() throws {
        let tls = URLRequest(url: URL(string: "https://example.test/first")!)
        let closeDelimited = ResponseHead(statusCode: 200, httpVersion: "HTTP/1.0", fields: [])
        var machine = Machine(first: Hop(request: tls, limits: SessionConfiguration.Limits()))
        #expect(machine.headParsed(closeDelimited, .deliver) == .take)
        let error = try #require(machine.truncation as? URLError)
        #expect(error.code == .networkConnectionLost)
        machine.hop.closeNotifyArrived = true
        #expect(machine.truncation == nil)
        // A followed hop's body is dropped, and a stored response's was never on the wire.
        var following = Machine(first: Hop(request: tls, limits: SessionConfiguration.Limits()))
        #expect(following.headParsed(closeDelimited, .follow(.redirect(to: Self.target))) == .take)
        #expect(following.truncation == nil)
        var cached = Machine(first: Hop(request: tls, limits: SessionConfiguration.Limits()))
        cached.hop.cache = .serving(
            StoredResponse(
                url: tls.url!,
                statusCode: 200,
                fields: [],
                data: Data(),
                requestTime: Date(),
                responseTime: Date(),
                varying: [:]
            ),
            next: .body
        )
        #expect(cached.headParsed(closeDelimited, .deliver) == .take)
        #expect(cached.truncation == nil)
    }
}
