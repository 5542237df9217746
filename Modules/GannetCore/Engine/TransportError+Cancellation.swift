extension TransportError {
    /// Why a task ended cancelled; each case names its underlying `GannetError`.
    enum Cancellation {
        /// `cancel()` was called.
        case byCaller
        /// Cancelled for this reason (the manager was invalidated).
        case because(GannetError)
        /// The response disposition was `.cancel`.
        case byDisposition
        /// The server-trust challenge handler answered `.cancel`.
        case byTrustChallenge
        /// The engine stopped because its session manager was released.
        case sessionReleased
    }

    /// The one way Gannet builds the error of a cancelled task: `URLError.cancelled` with a
    /// `GannetError` underneath saying why.
    static func cancelled(_ cause: Cancellation = .byCaller, url: URL?) -> URLError {
        let underlying: GannetError
        switch cause {
        case .byCaller: underlying = GannetError(.transport, "The task was cancelled", failingURL: url)
        case .because(let reason): underlying = reason
        case .byDisposition:
            underlying = GannetError(.transport, "Cancelled by the response disposition", failingURL: url)
        case .byTrustChallenge:
            underlying = GannetError(
                .serverTrustRejected,
                "The server trust challenge was cancelled",
                failingURL: url
            )
        case .sessionReleased: underlying = GannetError(.sessionInvalidated, "The session manager was released")
        }
        return make(.cancelled, underlying: underlying, url: url)
    }

    /// The error of a transfer the state machine ended cancelled for `cause`.
    static func cancelled(by cause: TransferStateMachine.CancellationCause, url: URL?) -> URLError {
        switch cause {
        case .command(let reason): return cancelled(reason: reason, url: url)
        case .disposition: return cancelled(.byDisposition, url: url)
        case .sessionReleased: return cancelled(.sessionReleased, url: url)
        }
    }

    /// A cancellation by the caller, with the reason it gave if any.
    static func cancelled(reason: GannetError?, url: URL?) -> URLError {
        cancelled(reason.map { .because($0) } ?? .byCaller, url: url)
    }
}
