import Foundation
import Testing

@testable import GannetCore

/// How the engine's own refusals become the `URLError` a task fails with, without a socket.
@Suite struct TransportErrorTests {
    private static let url = URL(string: "https://example.test/a")!

    @Test func aThrownGannetErrorIsKeptAndAnyOtherIsWrappedInTheStepsCode() {
        let limit = TransportError.urlError(
            thrown: GannetError(.bodyTooLarge, "limit"),
            as: .bodyStreamFailed,
            url: Self.url
        )
        #expect((limit.userInfo[NSUnderlyingErrorKey] as? GannetError)?.code == .bodyTooLarge)
        #expect(limit.code == .dataLengthExceedsMaximum)
        struct Broken: Error {}
        let other = TransportError.urlError(thrown: Broken(), as: .protocolViolation, url: Self.url)
        let underlying = other.userInfo[NSUnderlyingErrorKey] as? GannetError
        #expect(underlying?.code == .protocolViolation)
        #expect(underlying?.message.contains("Broken") == true)
        #expect(other.userInfo[NSURLErrorFailingURLErrorKey] as? URL == Self.url)
    }

    @Test func eachCancellationCauseNamesItsReason() {
        func reason(_ cause: TransferStateMachine.CancellationCause) -> GannetError.Code? {
            let error = TransportError.cancelled(by: cause, url: Self.url)
            #expect(error.code == .cancelled)
            return (error.userInfo[NSUnderlyingErrorKey] as? GannetError)?.code
        }
        #expect(reason(.command(nil)) == .transport)
        #expect(reason(.command(GannetError(.sessionInvalidated, "invalidated"))) == .sessionInvalidated)
        #expect(reason(.disposition) == .transport)
        #expect(reason(.sessionReleased) == .sessionInvalidated)
    }
}
