extension SessionTask {
    /// The `curl` command line for the request this task is sending now (its
    /// ``currentRequest``, after redirects), as its manager's configuration sends it: session
    /// headers, decompression, HTTP version, redirects, proxy and CA files included, and an upload
    /// task's body (`--data-binary @file` for a file). Credentials are written as `***`; see
    /// `URLRequest.cURLDescription()`.
    public func cURLDescription() -> String {
        let request = currentRequest ?? originalRequest ?? URLRequest(url: URL(string: "about:blank")!)
        let method = (request.httpMethod ?? "GET").uppercased()
        // The engine drops the body when a redirect turned the request into a GET or HEAD.
        let redirectedWithoutBody = request != originalRequest && (method == "GET" || method == "HEAD")
        let body = redirectedWithoutBody ? nil : (BodySource(of: request) ?? self.body)
        return CURLCommand.make(
            request,
            body: body,
            configuration: manager.configuration,
            callerURL: originalRequest?.url
        )
    }
}
