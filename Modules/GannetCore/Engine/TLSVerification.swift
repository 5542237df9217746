internal import CCurl
internal import COpenSSL

/// Puts a session's ``ServerTrustEvaluating`` inside the TLS handshake.
///
/// The recipe (docs/engine.md, "TLS: trust decided in the handshake"): `CURLOPT_SSL_CTX_FUNCTION` installs an OpenSSL
/// certificate verification callback with `SSL_VERIFY_PEER` (without it a rejection is
/// ignored), libcurl's own checks are turned off so they cannot override the policy, and a
/// rejection aborts the handshake before a request byte is written. TLS session resumption
/// skips the callback, so sessions are cached per trust scope (a share handle per trust
/// generation) and a resumed connection is approved only within its scope; a pooled connection is checked
/// again in `CURLOPT_PREREQFUNCTION` unless its ``ConnectionTrust`` record says the trust
/// decision now in force (the same evaluator and challenge handler) approved it.
///
/// An evaluator that requests OCSP stapling is asked later in the same handshake: the stapled
/// response comes after the certificates (TLS 1.2: in its own message after Certificate; TLS
/// 1.3: inside it), so the certificate callback defers and OpenSSL's status callback decides.
/// OpenSSL calls that callback whether or not a response came (`tls_process_initial_server_flight`:
/// after ServerHelloDone in 1.2, after the server's Finished in 1.3), before the client has
/// sent anything beyond its hello; its refusal aborts the handshake.
enum TLSVerification {
    /// Installs the callbacks once per handle. They do nothing for a transfer that leaves
    /// trust to libcurl, so a challenge handler set after the manager was created still works.
    static func install(on easy: EasyHandle) {
        _ = ccurl_easy_setopt_ssl_ctx_function(easy.raw, tlsContextCallback)
        _ = ccurl_easy_setopt_prereq_function(easy.raw, tlsPrerequestCallback)
    }

    /// Per request: Gannet's evaluation with libcurl's checks off, or libcurl's own
    /// verification; either way TLS sessions are cached and resumed within the transfer's
    /// trust scope only (``CurlEngine/sessionShare(for:)``; docs/engine.md, "TLS session
    /// resumption").
    static func configure(_ easy: EasyHandle, transfer: Transfer) {
        let evaluates = evaluates(transfer)
        transfer.handle.sessionScope = evaluates ? transfer.hooks.trustGeneration : nil
        let share = transfer.engine.sessionShare(for: transfer.handle.sessionScope)
        // Set when they differ from what the handle has: a handle its engine kept mostly serves
        // the same scope again, and detaching it from its share to attach it again cost about
        // 350 instructions a request (docs/performance.md). A new policy is a new scope, so a
        // new share: a handle never keeps the old scope's verification or sessions
        // (SessionResumptionTests).
        let current = easy.trustSettings.map { $0.evaluates == evaluates && $0.share === share } ?? false
        if !current {
            easy.set(CURLOPT_SSL_VERIFYPEER, !evaluates)
            easy.set(CURLOPT_SSL_VERIFYHOST, evaluates ? 0 : 2)
            easy.set(CURLOPT_SSL_SESSIONID_CACHE, true)
            easy.set(CURLOPT_SHARE, pointer: share.raw)
            easy.trustSettings = (evaluates, share)
        }
        easy.set(CURLOPT_PREREQDATA, pointer: Unmanaged.passUnretained(transfer).toOpaque())
    }

    /// The chain the peer presented, leaf first, DER-encoded.
    static func presentedChain(leaf: OpaquePointer?, stack: OpaquePointer?) -> [Data] {
        var chain: [Data] = []
        var seen = Set<Data>()
        func append(_ certificate: OpaquePointer?) {
            guard let certificate else { return }
            let length = i2d_X509(certificate, nil)
            guard length > 0 else { return }
            var data = Data(count: Int(length))
            data.withUnsafeMutableBytes { raw in
                var pointer: UnsafeMutablePointer<UInt8>? = raw.baseAddress?.assumingMemoryBound(to: UInt8.self)
                _ = i2d_X509(certificate, &pointer)
            }
            if seen.insert(data).inserted { chain.append(data) }
        }
        append(leaf)
        if let stack {
            for index in 0..<copenssl_sk_X509_num(stack) {
                append(copenssl_sk_X509_value(stack, index))
            }
        }
        return chain
    }

    /// Whether Gannet decides trust for `transfer` (an evaluator or a challenge handler),
    /// instead of libcurl's own verification.
    static func evaluates(_ transfer: Transfer) -> Bool {
        transfer.trust.isDecidedByGannet
    }

    /// Whether the configured evaluator wants the stapled OCSP response, which moves its
    /// decision to the status callback.
    static func requestsStapling(_ transfer: Transfer) -> Bool {
        transfer.trust.requestsStapling
    }

    /// The OCSP response the server stapled on `ssl`'s connection, DER; `nil` when none came.
    /// OpenSSL keeps it for the life of the connection, so a reused connection still has it.
    static func stapledResponse(_ ssl: OpaquePointer) -> Data? {
        var bytes: UnsafeMutablePointer<UInt8>? = nil
        let length = copenssl_SSL_get_tlsext_status_ocsp_resp(ssl, &bytes)
        guard length > 0, let bytes else { return nil }
        return Data(bytes: bytes, count: length)
    }

    /// Asks the challenge handler, then the evaluator, or runs OpenSSL's standard verification
    /// (`store` is nil on a reused connection, where the handshake already verified the chain).
    /// A refusal (a rejection, or the handler cancelling) stops the transfer with its error, and
    /// the handshake does not go on.
    static func evaluate(
        _ chain: [Data],
        stapledOCSPResponse: Data? = nil,
        store: OpaquePointer?,
        for transfer: Transfer
    ) -> Bool {
        guard let url = transfer.url, let host = url.host else { return false }
        let port = url.port ?? (url.scheme?.lowercased() == "http" ? 80 : 443)
        let bareHost = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        let trust = ServerTrust(
            host: bareHost,
            port: port,
            certificateChain: chain,
            stapledOCSPResponse: stapledOCSPResponse
        )
        // Monitors hear of every challenge; the handler, if any, answers on the task side.
        let disposition = transfer.observer.transferServerTrustDisposition(trust)
        do {
            guard !chain.isEmpty else {
                throw GannetError(.serverTrustRejected, "The server presented no certificate")
            }
            if transfer.hooks.decidesServerTrust {
                switch disposition {
                case .useCredential:
                    return true
                case .cancel:
                    _ = transfer.machine.stop(TransportError.cancelled(.byTrustChallenge, url: url))
                    return false
                case .reject(let error):
                    throw error
                case .performDefaultHandling:
                    break
                }
            }
            if let evaluator = transfer.trust.evaluator {
                try evaluator.evaluate(trust)
            } else if let store {
                try defaultVerification(store: store, host: bareHost)
            }
            return true
        } catch {
            let gannet = rejection(error, trust: trust, url: url)
            _ = transfer.machine.stop(TransportError.urlError(gannet: gannet, url: url))
            return false
        }
    }

    /// What OpenSSL and libcurl would have done: the chain against the CA file or the system
    /// store libcurl loaded into the context, then the host name or IP address.
    static func defaultVerification(store: OpaquePointer, host: String) throws {
        if X509_verify_cert(store) != 1 {
            let code = X509_STORE_CTX_get_error(store)
            let reason = String(cString: X509_verify_cert_error_string(Int(code)))
            throw GannetError(.serverTrustRejected, "Certificate verification failed: \(reason)")
        }
        guard let leaf = X509_STORE_CTX_get0_cert(store) else {
            throw GannetError(.serverTrustRejected, "The server presented no certificate")
        }
        let matched = host.withCString { name -> Int32 in
            if host.contains(":") || host.allSatisfy({ $0.isNumber || $0 == "." }) {
                return X509_check_ip_asc(leaf, name, 0)
            }
            return X509_check_host(leaf, name, strlen(name), UInt32(X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS), nil)
        }
        guard matched == 1 else {
            throw GannetError(.serverTrustRejected, "The certificate is not valid for \(host)")
        }
    }

    /// The record of the TLS connection `transfer` is using, if any.
    static func record(of transfer: Transfer) -> ConnectionTrust? {
        guard let easy = transfer.handle.easy else { return nil }
        var info: UnsafeMutableRawPointer? = nil
        _ = ccurl_easy_getinfo_pointer(easy.raw, CURLINFO_TLS_SSL_PTR, &info)
        guard let sessionInfo = info?.assumingMemoryBound(to: curl_tlssessioninfo.self),
            let ssl = sessionInfo.pointee.internals, let ctx = SSL_get_SSL_CTX(OpaquePointer(ssl))
        else { return nil }
        return ConnectionTrust.existing(on: ctx)
    }

    static func transfer(ofEasy easy: UnsafeMutableRawPointer?) -> Transfer? {
        guard let easy else { return nil }
        var pointer: UnsafeMutableRawPointer? = nil
        _ = ccurl_easy_getinfo_pointer(easy, CURLINFO_PRIVATE, &pointer)
        return pointer.map { Unmanaged<Transfer>.fromOpaque($0).takeUnretainedValue() }
    }
}

/// CURLOPT_SSL_CTX_FUNCTION: called for each new connection's SSL_CTX, on the engine thread,
/// inside the transfer that opens the connection (so `easy` and its Transfer are alive).
func tlsContextCallback(
    _ easy: UnsafeMutableRawPointer?,
    _ context: UnsafeMutableRawPointer?,
    _ user: UnsafeMutableRawPointer?
) -> CURLcode {
    guard let context else { return CURLE_SSL_CERTPROBLEM }
    let ctx = OpaquePointer(context)
    // A TLS 1.2 renegotiation would run the handshake callbacks again in the middle of a later
    // transfer on a pooled connection; Gannet refuses it (the client answers a HelloRequest
    // with a no_renegotiation alert). TLS 1.3 has no renegotiation.
    _ = SSL_CTX_set_options(ctx, copenssl_SSL_OP_NO_RENEGOTIATION())
    guard let transfer = TLSVerification.transfer(ofEasy: easy) else { return CURLE_OK }
    // Every connection has a record, so the info callback can tell the transfer reading it
    // that the server ended TLS with close_notify (docs/engine.md, "TLS").
    let record = ConnectionTrust.attach(to: ctx, engine: transfer.engine, transfer: transfer.serial)
    record.lastTransfer = transfer
    SSL_CTX_set_info_callback(ctx, tlsInfoCallback)
    guard TLSVerification.evaluates(transfer) else { return CURLE_OK }
    if transfer.trust.evaluator == nil {
        // A challenge handler may ask for default handling, which needs the anchors libcurl
        // does not load while its own verification is off.
        let tls = transfer.configuration.tls
        if tls.caFile != nil || tls.caDirectory != nil {
            SSL_CTX_load_verify_locations(ctx, tls.caFile, tls.caDirectory)
        } else {
            SSL_CTX_set_default_verify_paths(ctx)
        }
    }
    SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, nil)
    // The callbacks' argument is the connection's record, which the context owns and frees:
    // never the easy handle, which finishes (and may be freed or reused) long before a pooled
    // connection closes.
    SSL_CTX_set_cert_verify_callback(ctx, tlsVerifyCallback, record.callbackArgument)
    if TLSVerification.requestsStapling(transfer) {
        // libcurl creates each connection's context afresh and its SSL after this callback,
        // so the request for a staple and the callback apply to this connection only.
        _ = copenssl_SSL_CTX_set_tlsext_status_type(ctx, TLSEXT_STATUSTYPE_ocsp)
        _ = copenssl_SSL_CTX_set_tlsext_status_cb(ctx, tlsStatusCallback)
        _ = copenssl_SSL_CTX_set_tlsext_status_arg(ctx, record.callbackArgument)
    }
    return CURLE_OK
}

/// OpenSSL's certificate verification, replaced by the session's evaluator. Returns 1 to
/// trust, 0 to abort the handshake.
func tlsVerifyCallback(_ store: OpaquePointer?, _ argument: UnsafeMutableRawPointer?) -> Int32 {
    guard let store, let record = ConnectionTrust.record(argument), let transfer = record.currentTransfer() else {
        return 0
    }
    if TLSVerification.requestsStapling(transfer),
        let ssl = X509_STORE_CTX_get_ex_data(store, SSL_get_ex_data_X509_STORE_CTX_idx()),
        copenssl_SSL_get_tlsext_status_type(OpaquePointer(ssl)) == TLSEXT_STATUSTYPE_ocsp
    {
        // Deferred to tlsStatusCallback, which OpenSSL calls later in this handshake. The
        // connection is not marked approved until that callback trusts it, so should it never
        // run, the PREREQFUNCTION check evaluates the connection before any request.
        return 1
    }
    let chain = TLSVerification.presentedChain(
        leaf: X509_STORE_CTX_get0_cert(store),
        stack: X509_STORE_CTX_get0_untrusted(store)
    )
    guard TLSVerification.evaluate(chain, store: store, for: transfer) else {
        X509_STORE_CTX_set_error(store, X509_V_ERR_APPLICATION_VERIFICATION)
        return 0
    }
    record.approvedGeneration = transfer.hooks.trustGeneration
    return 1
}

/// OpenSSL's OCSP status callback, installed for evaluators that request stapling: decides
/// trust with the peer's chain and the stapled response (`nil` when the server sent none).
/// Returns 1 to trust, 0 to abort the handshake with a `bad_certificate_status_response` alert.
func tlsStatusCallback(_ ssl: OpaquePointer?, _ argument: UnsafeMutableRawPointer?) -> Int32 {
    guard let ssl, let record = ConnectionTrust.record(argument), let transfer = record.currentTransfer() else {
        return 0
    }
    // On the client the peer chain starts with the leaf.
    let chain = TLSVerification.presentedChain(leaf: nil, stack: SSL_get_peer_cert_chain(ssl))
    let response = TLSVerification.stapledResponse(ssl)
    guard TLSVerification.evaluate(chain, stapledOCSPResponse: response, store: nil, for: transfer) else { return 0 }
    record.approvedGeneration = transfer.hooks.trustGeneration
    return 1
}

/// CURLOPT_PREREQFUNCTION: runs before each request is sent, on new and reused connections.
/// A request that is not idempotent is sent once per hop (``TransferStateMachine/requestWillBeSent()``).
/// A connection is sent a request only once the trust decision in force for this transfer
/// (the evaluator and the challenge handler it was created with) has approved it.
func tlsPrerequestCallback(
    _ context: UnsafeMutableRawPointer?,
    _ primaryIP: UnsafeMutablePointer<CChar>?,
    _ localIP: UnsafeMutablePointer<CChar>?,
    _ primaryPort: Int32,
    _ localPort: Int32
) -> Int32 {
    guard let context else { return Int32(CURL_PREREQFUNC_ABORT) }
    let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
    guard transfer.machine.requestWillBeSent() else { return Int32(CURL_PREREQFUNC_ABORT) }
    let https = transfer.machine.hop.usesTLS
    guard TLSVerification.evaluates(transfer), https else {
        if https { TLSVerification.record(of: transfer)?.lastTransfer = transfer }
        return Int32(CURL_PREREQFUNC_OK)
    }
    guard let easy = transfer.handle.easy else { return Int32(CURL_PREREQFUNC_ABORT) }
    var info: UnsafeMutableRawPointer? = nil
    _ = ccurl_easy_getinfo_pointer(easy.raw, CURLINFO_TLS_SSL_PTR, &info)
    guard let sessionInfo = info?.assumingMemoryBound(to: curl_tlssessioninfo.self),
        let ssl = sessionInfo.pointee.internals
    else { return Int32(CURL_PREREQFUNC_ABORT) }
    let sslPointer = OpaquePointer(ssl)
    guard let ctx = SSL_get_SSL_CTX(sslPointer) else { return Int32(CURL_PREREQFUNC_ABORT) }
    // The record names the transfer now using the connection, for any later callback on it.
    let record =
        ConnectionTrust.existing(on: ctx)
        ?? ConnectionTrust.attach(to: ctx, engine: transfer.engine, transfer: transfer.serial)
    record.transferSerial = transfer.serial
    record.lastTransfer = transfer
    if record.approvedGeneration == transfer.hooks.trustGeneration { return Int32(CURL_PREREQFUNC_OK) }
    // A resumed session sends no certificate, so the verify callback never ran. The session
    // came from this transfer's scope, whose only sessions are those of full handshakes the
    // decision of that generation approved: if that is still the decision in force, so is the
    // approval. Otherwise the chain the session kept is evaluated below (none: refused).
    if SSL_session_reused(sslPointer) == 1, record.approvedGeneration == nil,
        let scope = transfer.handle.sessionScope, scope == transfer.hooks.trustGeneration
    {
        record.approvedGeneration = scope
        return Int32(CURL_PREREQFUNC_OK)
    }
    let chain = TLSVerification.presentedChain(leaf: nil, stack: SSL_get_peer_cert_chain(sslPointer))
    let response = TLSVerification.requestsStapling(transfer) ? TLSVerification.stapledResponse(sslPointer) : nil
    guard TLSVerification.evaluate(chain, stapledOCSPResponse: response, store: nil, for: transfer) else {
        return Int32(CURL_PREREQFUNC_ABORT)
    }
    record.approvedGeneration = transfer.hooks.trustGeneration
    return Int32(CURL_PREREQFUNC_OK)
}

extension TLSVerification {
    /// The error a transfer to `url` fails with when its server's certificate (`trust`) was
    /// rejected for `error`, by the evaluator or libcurl's verification.
    static func rejection(_ error: any Error, trust: ServerTrust?, url: URL?) -> GannetError {
        GannetError(
            .serverTrustRejected,
            "The server's certificate was rejected: \(error)",
            failingURL: url,
            underlyingError: error,
            serverTrust: trust
        )
    }
}

/// Server trust as it stands for one transfer, settled when the transfer is made: the evaluator
/// the manager's `setServerTrustEvaluator(_:)` had installed, else the configuration's (a
/// replacement bumps the trust generation, so pooled connections are asked about again;
/// docs/security.md, "Replacing the policy on a live manager"), and what each hop asks of it.
/// Asked of the optional existential at each use, the answers cost about 250 instructions a
/// request in copies of it (callgrind, docs/performance.md).
struct TransferTrust: Sendable {
    /// The evaluator in force; `nil` for none.
    let evaluator: (any ServerTrustEvaluating)?
    /// Gannet decides trust (an evaluator or a challenge handler), not libcurl's verification.
    let isDecidedByGannet: Bool
    /// The evaluator refuses plain HTTP (``ServerTrustEvaluating/requiresSecureTransport``).
    let requiresSecureTransport: Bool
    /// The evaluator wants the stapled OCSP response, which moves its decision to the status
    /// callback.
    let requestsStapling: Bool

    /// - Parameter configured: the configuration's evaluator (`SessionConfiguration.tls`), passed
    ///   alone: the whole configuration, passed by value, was copied (about 400 instructions).
    init(hooks: EngineHooks, configured: (any ServerTrustEvaluating)?) {
        // Most transfers have neither evaluator: tested first, nothing is copied. Chosen with
        // `??`, the existentials went through the runtime's value witnesses even when both were
        // `nil`, about 400 instructions a transfer (docs/performance.md).
        guard hooks.serverTrustEvaluatorOverride != nil || configured != nil else {
            evaluator = nil
            isDecidedByGannet = hooks.decidesServerTrust
            requiresSecureTransport = false
            requestsStapling = false
            return
        }
        let evaluator = hooks.serverTrustEvaluatorOverride ?? configured
        if let evaluator {
            isDecidedByGannet = true
            requiresSecureTransport = evaluator.requiresSecureTransport
            requestsStapling = evaluator.requestsOCSPStapling
        } else {
            isDecidedByGannet = hooks.decidesServerTrust
            requiresSecureTransport = false
            requestsStapling = false
        }
        self.evaluator = evaluator
    }
}

/// OpenSSL's info callback, on every connection: tells the transfer reading the connection
/// that the server sent close_notify, without which a body delimited by the end of the
/// connection may have been cut short (``HeadPolicy/truncation(of:)``). It may also run
/// while libcurl closes a connection, after its transfer and even its engine are gone, so it
/// reaches the transfer only through the record's weak reference.
func tlsInfoCallback(_ ssl: OpaquePointer?, _ type: Int32, _ value: Int32) {
    // SSL_CB_READ_ALERT; the low byte of `value` is the alert's description, 0 for close_notify.
    guard type & SSL_CB_READ_ALERT == SSL_CB_READ_ALERT, value & 0xff == 0, let ssl, let ctx = SSL_get_SSL_CTX(ssl)
    else { return }
    ConnectionTrust.existing(on: ctx)?.lastTransfer?.machine.hop.closeNotifyArrived = true
}
