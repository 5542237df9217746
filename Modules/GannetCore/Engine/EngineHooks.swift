/// What the engine knows of the manager's hooks, taken when a transfer is made: which of them
/// are set, and the trust settings they carry. The hooks themselves are the task side's: the
/// engine asks ``TransferObserver`` (the task's ``TaskChannel``) to call them, and never holds
/// them (docs/engine.md, "The rooms").
///
/// Why not the whole ``SessionHooks``: the transfer kept a copy of its own, and each copy of its
/// 22 fields retains what they hold; a small request copied it four times, now twice, about 400
/// instructions fewer (docs/performance.md).
struct EngineHooks: Sendable {
    /// The schemes the manager's credential may answer (``SessionManager/credentialSchemes``).
    let credentialSchemes: AuthenticationSchemes
    /// A redirect hook is set: each followed redirect is asked about.
    let decidesRedirects: Bool
    /// A response hook is set, answering at once.
    let decidesResponse: Bool
    /// A deferred response hook is set: the transfer waits for its answer.
    let decidesResponseLater: Bool
    /// A server trust challenge hook is set: every connection is evaluated by Gannet.
    let decidesServerTrust: Bool
    /// A hook can give a new body stream, so a streamed body can be sent again.
    let renewsBody: Bool
    /// ``SessionHooks/trustGeneration`` when the transfer was made.
    let trustGeneration: UInt64
    /// ``SessionHooks/serverTrustEvaluatorOverride`` when the transfer was made.
    let serverTrustEvaluatorOverride: (any ServerTrustEvaluating)??

    init(_ hooks: borrowing SessionHooks) {
        credentialSchemes = hooks.credentialSchemes
        decidesRedirects = hooks.taskWillPerformHTTPRedirection != nil
        decidesResponse = hooks.dataTaskDidReceiveResponse != nil
        decidesResponseLater = hooks.dataTaskDidReceiveResponseDeferred != nil
        decidesServerTrust = hooks.serverTrustChallenge != nil
        renewsBody = hooks.taskNeedNewBodyStream != nil
        trustGeneration = hooks.trustGeneration
        serverTrustEvaluatorOverride = hooks.serverTrustEvaluatorOverride
    }
}
