extension URLError {
    /// What the server presented when its trust was rejected in the handshake (the peer's
    /// certificate chain, leaf first, with the host and port), from the error's
    /// `NSURLErrorFailingURLPeerTrustErrorKey` as in AFNetworking's server-trust errors; `nil`
    /// for other failures. The failing URL is in `failingURL`, and its string under
    /// `NSURLErrorFailingURLStringErrorKey` ("NSErrorFailingURLStringKey").
    public var serverTrust: ServerTrust? {
        userInfo[NSURLErrorFailingURLPeerTrustErrorKey] as? ServerTrust
    }
}
