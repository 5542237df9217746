import Foundation
import Testing

@testable import GannetCore

/// Every state and transition of the transfer's life, without a socket.
@Suite struct TransferStateMachineTests {
    typealias Machine = TransferStateMachine

    private static let writeError: Int32 = 23  // CURLE_WRITE_ERROR
    private static let recvError: Int32 = 56  // CURLE_RECV_ERROR

    private func receiving() -> Machine {
        var machine = Machine()
        _ = machine.headParsed(.deliver)
        return machine
    }

    private func awaitingDisposition() -> Machine {
        var machine = Machine()
        _ = machine.headParsed(.deliverAfterDisposition)
        return machine
    }

    private func discarding() -> Machine {
        var machine = Machine()
        _ = machine.headParsed(.followRedirect)
        return machine
    }

    private func finished() -> Machine {
        var machine = receiving()
        _ = machine.hopEnded(code: 0)
        return machine
    }

    // MARK: Awaiting the head

    @Test func aNewTransferAwaitsItsHeadAndParsesHeaderLines() {
        var machine = Machine()
        #expect(machine.state == .awaitingHead)
        #expect(!machine.hasHead)
        #expect(machine.countsIdleTime)
        #expect(machine.pause == .none)
        #expect(machine.headerLine() == .parseHeaderLine)
    }

    @Test func aFinalHeadStartsReceiving() {
        var machine = Machine()
        #expect(machine.headParsed(.deliver) == .proceed)
        #expect(machine.state == .receiving)
        #expect(machine.hasHead)
        #expect(machine.headerLine() == .skipHeaderLine)
        #expect(machine.bodyChunk(count: 10) == .deliverBody)
    }

    @Test func aDeferredDispositionPausesReceivingAndStopsTheIdleClock() {
        var machine = Machine()
        #expect(machine.headParsed(.deliverAfterDisposition) == .awaitDisposition)
        #expect(machine.state == .awaitingDisposition)
        #expect(machine.pause == .receiving)
        #expect(!machine.countsIdleTime)
        #expect(machine.headerLine() == .skipHeaderLine)
    }

    @Test func bodyBytesBeforeTheHeadAreAProtocolViolation() {
        var machine = Machine()
        #expect(machine.bodyChunk(count: 1) == .refuse)
        #expect(machine.state == .stopping)
        #expect((machine.failure as? GannetError)?.code == .protocolViolation)
    }

    @Test func aCleanEndWithoutAHeadIsAnIncompleteResponse() {
        var machine = Machine()
        #expect(machine.hopEnded(code: 0) == .fail(.incompleteResponse))
        #expect(machine.state == .finished)
    }

    @Test func aFailedHopWithoutAHeadFailsWithLibcurlsCode() {
        var machine = Machine()
        #expect(machine.hopEnded(code: Self.recvError) == .fail(.libcurl(Self.recvError)))
    }

    // MARK: Redirects

    @Test func aFollowedRedirectDiscardsItsBodyThenStartsTheNextHop() {
        var machine = discarding()
        #expect(machine.state == .discardingRedirectBody(bytes: 0, cutShort: false))
        #expect(machine.headerLine() == .skipHeaderLine)
        #expect(machine.bodyChunk(count: 100) == .discardBody)
        #expect(machine.state == .discardingRedirectBody(bytes: 100, cutShort: false))
        #expect(machine.hopEnded(code: 0) == .followRedirect)
        #expect(machine.state == .awaitingHead)
        #expect(machine.redirectCount == 1)
        #expect(!machine.hasHead)
        #expect(machine.headerLine() == .parseHeaderLine)
    }

    /// A `401` answered with a credential: its body is discarded like a redirect's and the same
    /// request goes again, but it is not a redirect.
    @Test func anAuthenticationRetryDiscardsItsBodyWithoutCountingARedirect() {
        var machine = TransferStateMachine()
        #expect(machine.headerLine() == .parseHeaderLine)
        #expect(machine.headParsed(.retryAuthenticated) == .proceed)
        #expect(machine.bodyChunk(count: 10) == .discardBody)
        #expect(machine.hopEnded(code: 0) == .followRedirect)
        #expect(machine.redirectCount == 0)
        #expect(machine.state == .awaitingHead)
        // A redirect after it counts as one.
        #expect(machine.headParsed(.followRedirect) == .proceed)
        #expect(machine.hopEnded(code: 0) == .followRedirect)
        #expect(machine.redirectCount == 1)
    }

    @Test func aLargeRedirectBodyCutsTheHopShortAndIsStillFollowed() {
        var machine = discarding()
        #expect(machine.bodyChunk(count: Machine.redirectBodyLimit) == .discardBody)
        #expect(machine.bodyChunk(count: 1) == .refuse)
        #expect(machine.state == .discardingRedirectBody(bytes: Machine.redirectBodyLimit + 1, cutShort: true))
        #expect(machine.hopEnded(code: Self.writeError) == .followRedirect)
        #expect(machine.redirectCount == 1)
    }

    @Test func aRedirectHopThatFailsOnItsOwnFailsTheTransfer() {
        var machine = discarding()
        #expect(machine.hopEnded(code: Self.recvError) == .fail(.libcurl(Self.recvError)))
        #expect(machine.state == .finished)
        #expect(machine.redirectCount == 0)
    }

    @Test func redirectsAreCountedAcrossHops() {
        var machine = Machine()
        for _ in 0..<3 {
            _ = machine.headParsed(.followRedirect)
            _ = machine.hopEnded(code: 0)
        }
        #expect(machine.redirectCount == 3)
        #expect(machine.headParsed(.deliver) == .proceed)
        #expect(machine.hopEnded(code: 0) == .finish)
    }

    // MARK: Receiving

    @Test func aCleanEndAfterTheBodyFinishes() {
        var machine = receiving()
        #expect(machine.hopEnded(code: 0) == .finish)
        #expect(machine.state == .finished)
        #expect(!machine.isLive)
    }

    @Test func aFailedEndAfterTheHeadFailsWithLibcurlsCode() {
        var machine = receiving()
        #expect(machine.hopEnded(code: Self.recvError) == .fail(.libcurl(Self.recvError)))
    }

    @Test func aSecondHeadInOneExchangeIsRefused() {
        var machine = receiving()
        #expect(machine.headParsed(.deliver) == .refuse)
        #expect(machine.state == .stopping)
        #expect((machine.failure as? GannetError)?.code == .protocolViolation)
    }

    // MARK: Stopping

    @Test func aStopRefusesEverythingAndFailsWithTheFirstRecordedError() {
        var machine = receiving()
        #expect(machine.stop(GannetError(.bodyTooLarge, "first")) == .refuse)
        #expect(machine.stop(GannetError(.decompressionBomb, "second")) == .refuse)
        #expect(machine.state == .stopping)
        #expect(machine.bodyChunk(count: 1) == .refuse)
        #expect(machine.headerLine() == .refuse)
        #expect(machine.hopEnded(code: Self.writeError) == .fail(.recorded))
        #expect((machine.failure as? GannetError)?.code == .bodyTooLarge)
    }

    @Test func aStopWinsOverACleanEnd() {
        // libcurl may end a hop cleanly after a callback refused bytes it replayed.
        var machine = receiving()
        machine.stop(GannetError(.bodyTooLarge, "limit"))
        #expect(machine.hopEnded(code: 0) == .fail(.recorded))
    }

    @Test func aStopBeforeTheHeadFailsWithTheRecordedError() {
        var machine = Machine()
        machine.stop(GannetError(.serverTrustRejected, "rejected"))
        #expect(machine.hopEnded(code: 35) == .fail(.recorded))
        #expect((machine.failure as? GannetError)?.code == .serverTrustRejected)
    }

    // MARK: Dispositions

    @Test func allowReceivesTheBody() {
        var machine = awaitingDisposition()
        #expect(machine.dispositionDecided(.allow) == .setPause(.none))
        #expect(machine.state == .receiving)
        #expect(machine.countsIdleTime)
    }

    @Test func cancelCancelsWithTheDispositionAsCause() {
        var machine = awaitingDisposition()
        #expect(machine.dispositionDecided(.cancel) == .cancel(.disposition))
        #expect(machine.state == .finished)
    }

    @Test func allowWhileSuspendedWaitsForTheResume() {
        var machine = awaitingDisposition()
        #expect(machine.suspend() == .setPause(.all))
        #expect(machine.dispositionDecided(.allow) == .none)
        #expect(machine.state == .receiving)
        #expect(machine.resume() == .setPause(.none))
    }

    @Test func aLateOrRepeatedDispositionIsIgnored() {
        var machine = awaitingDisposition()
        _ = machine.dispositionDecided(.allow)
        #expect(machine.dispositionDecided(.cancel) == .none)
        #expect(machine.state == .receiving)
        var fresh = Machine()
        #expect(fresh.dispositionDecided(.allow) == .none)
        #expect(fresh.state == .awaitingHead)
        var done = finished()
        #expect(done.dispositionDecided(.cancel) == .none)
    }

    @Test func becomeDownloadSwitchesTheSinkThenReceives() {
        var machine = awaitingDisposition()
        #expect(machine.dispositionDecided(.becomeDownload) == .switchSink(.becomeDownload))
        // Still paused for receiving until the new sink is in place: no byte reaches the old one.
        #expect(machine.state == .awaitingDisposition)
        #expect(machine.pause == .receiving)
        #expect(machine.bodyChunk(count: 1) == .refuse)
        var switched = awaitingDisposition()
        _ = switched.dispositionDecided(.becomeDownload)
        #expect(switched.sinkSwitched() == .setPause(.none))
        #expect(switched.state == .receiving)
        #expect(switched.sinkSwitched() == .none)
    }

    @Test func becomeStreamSwitchesTheSinkToo() {
        var machine = awaitingDisposition()
        #expect(machine.dispositionDecided(.becomeStream) == .switchSink(.becomeStream))
        #expect(machine.sinkSwitched() == .setPause(.none))
        #expect(machine.state == .receiving)
    }

    @Test func aSwitchWhileSuspendedWaitsForTheResume() {
        var machine = awaitingDisposition()
        #expect(machine.suspend() == .setPause(.all))
        #expect(machine.dispositionDecided(.becomeDownload) == .switchSink(.becomeDownload))
        #expect(machine.sinkSwitched() == .none)
        #expect(machine.state == .receiving)
        #expect(machine.resume() == .setPause(.none))
    }

    @Test func aFailedSwitchFailsWithTheRecordedError() {
        var machine = awaitingDisposition()
        _ = machine.dispositionDecided(.becomeDownload)
        #expect(machine.fail(GannetError(.bodyStreamFailed, "disk full")) == .fail(.recorded))
        #expect(machine.state == .finished)
        #expect(machine.sinkSwitched() == .none)
    }

    @Test func sinkSwitchedOutsideASwitchIsIgnored() {
        var fresh = Machine()
        #expect(fresh.sinkSwitched() == .none)
        #expect(fresh.state == .awaitingHead)
        var receiving = awaitingDisposition()
        _ = receiving.dispositionDecided(.allow)
        #expect(receiving.sinkSwitched() == .none)
    }

    @Test func aHopEndingWhileAwaitingADispositionEndsTheTransfer() {
        var machine = awaitingDisposition()
        #expect(machine.hopEnded(code: 28) == .fail(.libcurl(28)))
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
        _ = machine.suspend()
        #expect(machine.resume() == .setPause(.receiving))
    }

    @Test func resumeKeepsReceivingPausedForASlowConsumer() {
        var machine = receiving()
        _ = machine.consumerFull()
        _ = machine.suspend()
        #expect(machine.resume() == .setPause(.receiving))
    }

    @Test func aSuspendBeforeTheHeadApplies() {
        var machine = Machine()
        #expect(machine.suspend() == .setPause(.all))
        #expect(machine.bodySourceReady() == .none)
        #expect(machine.resume() == .setPause(.none))
        #expect(machine.bodySourceReady() == .setPause(.none))
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
        _ = machine.consumerFull()
        _ = machine.suspend()
        #expect(machine.consumerDrained() == .none)
        #expect(!machine.isBackpressured)
        #expect(machine.resume() == .setPause(.none))
    }

    @Test func backpressureOnlyAppliesWhileReceiving() {
        var machine = Machine()
        #expect(machine.consumerFull() == .none)
        var redirect = discarding()
        #expect(redirect.consumerFull() == .none)
    }

    // MARK: Cancel, fail, time out

    @Test func cancelEndsAnyLiveStateOnce() {
        var machines = [Machine(), receiving(), awaitingDisposition(), discarding()]
        var stopping = receiving()
        stopping.stop(GannetError(.bodyTooLarge, "limit"))
        machines.append(stopping)
        for var machine in machines {
            #expect(machine.cancel(.command) == .cancel(.command))
            #expect(machine.state == .finished)
            #expect(machine.cancel(.command) == .none)
        }
    }

    @Test func theSessionGoingAwayCancelsWithItsCause() {
        var machine = receiving()
        #expect(machine.cancel(.sessionReleased) == .cancel(.sessionReleased))
    }

    @Test func aConfigurationFailureFailsWithTheError() {
        var machine = Machine()
        #expect(machine.fail(GannetError(.invalidHeader, "bad")) == .fail(.recorded))
        #expect((machine.failure as? GannetError)?.code == .invalidHeader)
        #expect(machine.fail(GannetError(.invalidRequest, "again")) == .none)
    }

    @Test func anIdleTransferTimesOut() {
        var machine = receiving()
        #expect(machine.idleTimeoutExpired() == .fail(.timedOut))
        #expect(machine.state == .finished)
    }

    @Test func anUnpauseFailureUsesTheRecordedErrorWhenThereIsOne() {
        var clean = receiving()
        #expect(clean.unpauseFailed(code: 27) == .fail(.libcurl(27)))
        var stopped = receiving()
        stopped.stop(GannetError(.bodyTooLarge, "limit"))
        #expect(stopped.unpauseFailed(code: 23) == .fail(.recorded))
    }

    // MARK: Illegal events once finished

    @Test func aFinishedTransferRefusesCallbacksAndIgnoresCommands() {
        var machine = finished()
        #expect(machine.headerLine() == .refuse)
        #expect(machine.bodyChunk(count: 1) == .refuse)
        #expect(machine.headParsed(.deliver) == .none)
        #expect(machine.stop(GannetError(.transport, "late")) == .none)
        #expect(machine.failure == nil)
        #expect(machine.hopEnded(code: 0) == .none)
        #expect(machine.cancel(.command) == .none)
        #expect(machine.suspend() == .none)
        #expect(machine.resume() == .none)
        #expect(machine.consumerFull() == .none)
        #expect(machine.consumerDrained() == .none)
        #expect(machine.bodySourceReady() == .none)
        #expect(machine.unpauseFailed(code: 23) == .none)
        #expect(machine.idleTimeoutExpired() == .none)
        #expect(!machine.countsIdleTime)
        #expect(machine.state == .finished)
    }
}
