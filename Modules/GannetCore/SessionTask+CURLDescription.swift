extension SessionTask {
    /// The `curl` command line for the request this task is sending now (its
    /// ``currentRequest``, after redirects), as its manager's configuration sends it: session
    /// headers, decompression, HTTP version, redirects, proxy and CA files included, and an upload
    /// task's body (`--data-binary @file` for a file). Credentials, and the values of the
    /// headers `redaction` names, are written as `***`; see `URLRequest.cURLDescription(redacting:)`.
    public func cURLDescription() -> String {
        cURLDescription(redacting: .default)
    }

    /// The same, with the values of the headers `redaction` names written `***`
    /// (docs/monitors.md, "What is redacted").
    public func cURLDescription(redacting redaction: HeaderRedaction) -> String {
        let request = currentRequest ?? originalRequest ?? URLRequest(url: URL(string: "about:blank")!)
        let method = (request.httpMethod ?? "GET").uppercased()
        // The engine drops the body when a redirect turned the request into a GET or HEAD.
        let redirectedWithoutBody = request != originalRequest && (method == "GET" || method == "HEAD")
        let body = redirectedWithoutBody ? nil : (BodySource(of: request) ?? self.body)
        return CURLCommand.make(
            request,
            body: body,
            configuration: manager.configuration,
            callerURL: originalRequest?.url,
            redacting: redaction
        )
    }
}
