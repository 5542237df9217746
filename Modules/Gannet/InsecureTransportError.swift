/// A security policy that requires HTTPS (it pins certificates or keys) met a URL that is not
/// `https`: AFNetworking's "Invalid Security Policy" exception, as a typed error.
///
/// Thrown by ``HTTPSessionManager/init(baseURL:securityPolicy:configuration:)``, and passed to
/// the failure handler (or thrown by the async methods) for a request to a plain-HTTP URL on a
/// manager with such a policy. Nothing is sent in either case.
public struct InsecureTransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Why the URL was refused.
    public struct Reason: Sendable, Hashable, CustomStringConvertible {
        let name: String
        /// The manager has no base URL, so nothing guarantees its requests use HTTPS.
        public static let noBaseURL = Reason(name: "noBaseURL")
        /// The base URL is not `https`.
        public static let insecureBaseURL = Reason(name: "insecureBaseURL")
        /// A request URL is not `https`.
        public static let insecureRequestURL = Reason(name: "insecureRequestURL")
        /// A short identifier, stable across releases.
        /// A one-line explanation naming the refused URL.
        public var description: String { name }
    }

    /// The URL that was refused, without credentials; `nil` for ``Reason/noBaseURL``.
    public let url: URL?
    /// Why the URL was refused.
    public let reason: Reason

    /// Creates the error.
    public init(url: URL?, reason: Reason) {
        self.url = url.map(URL.removingCredentials)
        self.reason = reason
    }

    /// A one-line explanation naming the refused URL.
    public var description: String {
        switch reason {
        case .noBaseURL:
            return "A security policy that pins requires an https base URL; the manager has none"
        case .insecureBaseURL:
            return "A security policy that pins requires an https base URL, not \(url?.absoluteString ?? "nil")"
        default:
            return "The security policy requires https; refusing to send \(url?.absoluteString ?? "nil")"
        }
    }
}

extension InsecureTransportError: DescriptiveError {}
