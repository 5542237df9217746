internal import CCurl

/// The memory an easy handle points into for one hop: the error buffer
/// (`CURLOPT_ERRORBUFFER`) and the header lists (`CURLOPT_HTTPHEADER`, `CURLOPT_PROXYHEADER`).
/// libcurl reads them until the hop ends, so they live as long as the transfer holds the
/// handle; the buffer is the transfer's for its whole life (``deallocate()`` in its deinit).
struct EasyHandleMemory {
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

    /// The handle is given back: the lists are freed.
    mutating func releaseLists() {
        headers = nil
        proxyHeaders = nil
    }

    func deallocate() { errorBuffer.deallocate() }
}
