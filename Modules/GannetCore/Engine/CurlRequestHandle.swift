internal import CCurl

/// The easy handle a transfer's hop runs on, and what belongs to it: the memory it points into
/// (the error buffer, `CURLOPT_ERRORBUFFER`, and the header lists, `CURLOPT_HTTPHEADER` and
/// `CURLOPT_PROXYHEADER`), the TLS session cache it shares, and whether libcurl has yet taken
/// a pause. libcurl reads the lists until the hop ends, so they live as long as the transfer
/// holds the handle; the buffer is the transfer's for its whole life (``deallocate()`` in its
/// deinit).
struct CurlRequestHandle {
    /// The engine's pooled handle while a hop runs; `nil` between hops and for a hop the
    /// cache answers.
    var easy: EasyHandle?
    /// The TLS session cache this hop uses: `nil` when libcurl verifies, else the trust
    /// generation whose evaluation the cached sessions passed (TLSVerification.configure).
    var sessionScope: UInt64?
    /// A pause was asked for before libcurl had a connection to pause: the callbacks answer
    /// with libcurl's pause codes until an unpause succeeds (docs/engine.md, "Suspending").
    var pauseAwaitsConnection = false
    let errorBuffer: UnsafeMutablePointer<CChar>
    /// The hop's request headers, kept alive while libcurl reads them.
    var headers: HeaderList?
    /// Headers for the proxy only (`CURLOPT_PROXYHEADER`): a caller's `Proxy-Authorization`.
    var proxyHeaders: HeaderList?

    init() {
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
    }

    /// libcurl's message for the last failure, empty when it gave none.
    var errorDetail: String { String(cString: errorBuffer) }

    /// Points `easy` at the lists of `headers` and `proxyHeaders` and at a cleared error buffer.
    mutating func attach(to easy: EasyHandle, headers: HeaderList, proxyHeaders: HeaderList?) {
        self.headers = headers
        self.proxyHeaders = proxyHeaders
        easy.set(CURLOPT_HTTPHEADER, pointer: UnsafeMutableRawPointer(headers.raw))
        easy.set(CURLOPT_PROXYHEADER, pointer: proxyHeaders.map { UnsafeMutableRawPointer($0.raw) } ?? nil)
    }

    /// Points `easy` at the error buffer, cleared.
    func attachErrorBuffer(to easy: EasyHandle) {
        easy.set(CURLOPT_ERRORBUFFER, pointer: UnsafeMutableRawPointer(errorBuffer))
        errorBuffer[0] = 0
    }

    /// The handle is given back to the engine: the lists are freed.
    mutating func release() -> EasyHandle? {
        defer {
            easy = nil
            headers = nil
            proxyHeaders = nil
        }
        return easy
    }

    func deallocate() { errorBuffer.deallocate() }

    /// Notes what `curl_easy_pause` answered (`result`) to `pause` on this hop's handle (called
    /// after it returned, since it may re-enter the callbacks, which read this value); returns
    /// the code to end the hop with when libcurl failed. libcurl pauses a transfer only once it has a connection
    /// (7.88 refuses with `CURLE_BAD_FUNCTION_ARGUMENT` before): the wish is kept in
    /// ``pauseAwaitsConnection``, and the callbacks apply it the first time libcurl calls them. A
    /// failed unpause means libcurl replayed the bytes it held back and a callback refused them,
    /// which libcurl reports only to this caller, not to its transfer.
    mutating func paused(_ pause: TransferStateMachine.Pause, result: CURLcode) -> CURLcode? {
        pauseAwaitsConnection = result == CURLE_BAD_FUNCTION_ARGUMENT && pause != .none
        return result == CURLE_OK || result == CURLE_BAD_FUNCTION_ARGUMENT ? nil : result
    }

    /// The `curl_easy_pause` bits for `pause`.
    static func mask(_ pause: TransferStateMachine.Pause) -> Int32 {
        switch pause {
        case .none: return CurlPause.resume
        case .receiving: return CurlPause.receive
        case .all: return CurlPause.all
        }
    }
}
