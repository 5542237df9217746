internal import CCurl

/// Maps a libcurl result, and what Gannet itself recorded while the transfer ran, to the
/// `URLError` a URLSession user expects.
enum TransportError {
    /// A transfer that libcurl ended with `code`. `detail` is the `CURLOPT_ERRORBUFFER` text,
    /// which may quote what Gannet gave libcurl whole: a proxy URL with its password ("Unsupported
    /// proxy syntax in '…'"), in any form libcurl takes. `quoted` lists those strings, so that
    /// their secrets are taken out of the message whatever their form (``CredentialRedaction``).
    static func urlError(curlCode code: CURLcode, detail: String, url: URL?, quoted: [String] = []) -> URLError {
        let strerror = String(cString: curl_easy_strerror(code))
        let message = detail.isEmpty ? strerror : CredentialRedaction.text(detail, quoting: quoted)
        let underlying = GannetError(gannetCode(for: code), message, failingURL: url, transportCode: Int(code.rawValue))
        return make(urlErrorCode(for: code), underlying: underlying, url: url)
    }

    /// A transfer that Gannet stopped for its own reason (a limit, a protocol violation, a
    /// rejected server).
    static func urlError(gannet error: GannetError, url: URL?) -> URLError {
        make(urlErrorCode(for: error), underlying: error, url: url)
    }

    /// A transfer that a step of Gannet's own stopped by throwing `error` (a parser, a sink, a
    /// body stream): a `GannetError` as it is, anything else inside one of `code`.
    static func urlError(thrown error: any Error, as code: GannetError.Code, url: URL?) -> URLError {
        urlError(gannet: error as? GannetError ?? GannetError(code, "\(error)"), url: url)
    }

    static func make(_ code: URLError.Code, underlying: any Error, url: URL?) -> URLError {
        var userInfo: [String: Any] = [
            NSUnderlyingErrorKey: underlying,
            NSLocalizedDescriptionKey: CredentialRedaction.text(String(describing: underlying)),
        ]
        if let url = url.map(URL.removingCredentials) {
            userInfo[NSURLErrorFailingURLErrorKey] = url
            // NSURLErrorFailingURLStringErrorKey's value (the constant is deprecated), which
            // URLError.failureURLString reads; AFNetworking's trust errors set it.
            userInfo["NSErrorFailingURLStringKey"] = url.absoluteString
        }
        if let trust = (underlying as? GannetError)?.serverTrust {
            // AFNetworking's server-trust errors carry the peer trust under this key; Gannet's
            // stand-in for a SecTrust is the ServerTrust the evaluator was given.
            userInfo[NSURLErrorFailingURLPeerTrustErrorKey] = trust
        }
        return URLError(code, userInfo: userInfo)
    }

    static func urlErrorCode(for error: GannetError) -> URLError.Code {
        switch error.code {
        case .tooManyRedirects: return .httpTooManyRedirects
        case .unsupportedScheme: return .unsupportedURL
        case .insecureRedirect, .insecureTransport: return .appTransportSecurityRequiresSecureConnection
        case .headersTooLarge, .protocolViolation: return .badServerResponse
        case .bodyTooLarge, .decompressionBomb: return .dataLengthExceedsMaximum
        case .bodyStreamFailed: return .requestBodyStreamExhausted
        case .outputStreamFailed: return .cannotWriteToFile
        case .serverTrustRejected:
            return (error.underlyingError as? any URLErrorCodeProviding)?.urlErrorCode ?? .serverCertificateUntrusted
        case .timedOut: return .timedOut
        case .sessionInvalidated: return .cancelled
        case .invalidHeader, .invalidRequest: return .badURL
        default: return .unknown
        }
    }

    /// Gannet validates the scheme before libcurl sees a URL, so libcurl's "unsupported
    /// protocol" can only be a server reply it could not read as HTTP.
    static func gannetCode(for code: CURLcode) -> GannetError.Code {
        switch code {
        case CURLE_OPERATION_TIMEDOUT: return .timedOut
        case CURLE_WEIRD_SERVER_REPLY, CURLE_UNSUPPORTED_PROTOCOL: return .protocolViolation
        default: return .transport
        }
    }

    static func urlErrorCode(for code: CURLcode) -> URLError.Code {
        switch code {
        case CURLE_URL_MALFORMAT: return .badURL
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY: return .cannotFindHost
        case CURLE_COULDNT_CONNECT: return .cannotConnectToHost
        case CURLE_OPERATION_TIMEDOUT: return .timedOut
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_PINNEDPUBKEYNOTMATCH:
            return .serverCertificateUntrusted
        case CURLE_SSL_CONNECT_ERROR: return .secureConnectionFailed
        case CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER: return .clientCertificateRejected
        case CURLE_GOT_NOTHING, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_PARTIAL_FILE, CURLE_HTTP2_STREAM,
            // A reused connection died and the body sent on it cannot be sent again.
            CURLE_SEND_FAIL_REWIND:
            return .networkConnectionLost
        case CURLE_WEIRD_SERVER_REPLY, CURLE_HTTP2, CURLE_UNSUPPORTED_PROTOCOL: return .badServerResponse
        case CURLE_BAD_CONTENT_ENCODING: return .cannotDecodeContentData
        case CURLE_TOO_MANY_REDIRECTS: return .httpTooManyRedirects
        case CURLE_FILESIZE_EXCEEDED: return .dataLengthExceedsMaximum
        case CURLE_READ_ERROR: return .requestBodyStreamExhausted
        case CURLE_ABORTED_BY_CALLBACK: return .cancelled
        case CURLE_OUT_OF_MEMORY: return .cannotLoadFromNetwork
        default: return .unknown
        }
    }
}

/// Implemented by evaluator errors that know the precise `URLError` code for their failure
/// (an expired certificate is `.serverCertificateHasBadDate`, an unknown root
/// `.serverCertificateHasUnknownRoot`); the engine uses it when a handshake is rejected.
public protocol URLErrorCodeProviding: Error {
    /// The `URLError` code that describes this failure best.
    var urlErrorCode: URLError.Code { get }
}
