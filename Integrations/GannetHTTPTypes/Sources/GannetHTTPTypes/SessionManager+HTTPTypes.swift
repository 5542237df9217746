public import GannetCore
public import HTTPTypes

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The calls swift-http-types' HTTPTypesFoundation adds to URLSession, on Gannet's
// SessionManager: each converts the request, sends it through the manager (so its
// configuration, trust evaluator, interceptor and event monitors apply) and converts the
// response (docs/integrations.md, "swift-http-types").
extension SessionManager {
    /// Sends `request` with `body` and returns the response body and the response, as
    /// `URLSession.data(for:)` of swift-http-types does. A status of 400 or more is a
    /// response, not an error. Cancelling the calling Swift task cancels the transfer.
    ///
    /// ```swift
    /// var request = HTTPRequest(method: .post, url: url)
    /// request.headerFields[.contentType] = "application/json"
    /// let (data, response) = try await manager.data(for: request, body: Data(#"{"a":1}"#.utf8))
    /// print(response.status, data.count)
    /// ```
    /// - Throws: `GannetError(.invalidRequest)` for a request without a URL; otherwise what
    ///   ``GannetCore/SessionManager/data(for:)`` throws.
    public func data(for request: HTTPRequest, body: Data? = nil) async throws -> (Data, HTTPResponse) {
        var urlRequest = try URLRequest(request)
        urlRequest.httpBody = body
        return try await send(urlRequest)
    }

    /// Uploads `bodyData` as the body of `request` and returns the response body and the
    /// response.
    public func upload(for request: HTTPRequest, from bodyData: Data) async throws -> (Data, HTTPResponse) {
        try await data(for: request, body: bodyData)
    }

    /// Uploads the file at `fileURL` as the body of `request`, streamed from disk, and returns
    /// the response body and the response.
    public func upload(for request: HTTPRequest, fromFile fileURL: URL) async throws -> (Data, HTTPResponse) {
        let urlRequest = try URLRequest(request)
        return try received(await response(for: urlRequest, fromFile: fileURL, serializer: .passthrough), urlRequest)
    }

    /// Sends `request` with `body` and returns once the response head arrived, with the body as
    /// an asynchronous sequence of chunks, backpressured as ``GannetCore/SessionManager/bytes(for:)``'s.
    ///
    /// - Parameter body: the request body: `Data`, or an `InputStream` read as it is sent
    ///   (chunked unless `request` has a `Content-Length`).
    public func bytes(
        for request: HTTPRequest,
        body: RequestBody = .none
    ) async throws -> (HTTPResponse, AsyncThrowingStream<Data, any Error>) {
        var urlRequest = try URLRequest(request)
        body.apply(to: &urlRequest)
        let streamed = try await streamedResponse(for: urlRequest)
        return (try HTTPResponse(streamed), streamed.body)
    }

    private func send(_ request: URLRequest) async throws -> (Data, HTTPResponse) {
        try received(await response(for: request, serializer: .passthrough), request)
    }

    /// The body and the head as received (reason phrase, repeated fields apart) of a finished
    /// task, or its error.
    private func received(_ whole: DataResponse<Data>, _ request: URLRequest) throws -> (Data, HTTPResponse) {
        let data = try whole.result.get()
        guard let response = whole.httpResponse else {
            throw GannetError(.protocolViolation, "No HTTP response", failingURL: request.url)
        }
        return (data, response)
    }
}
