public import GannetCore
public import HTTPTypes
import HTTPTypesFoundation

#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

// Conversions between swift-http-types and the Foundation types Gannet speaks. Where
// swift-http-types' own HTTPTypesFoundation already converts (URLRequest, HTTPURLResponse) these
// use it, so both libraries agree on how repeated fields are joined; what they add is a typed
// error instead of `nil`, and a response from the head as received (a `DataResponse`'s reason
// phrase and fields in wire order), which keeps what `HTTPURLResponse` forgets
// (docs/integrations.md, "swift-http-types").

extension URLRequest {
    /// The `URLRequest` that sends `request`: its method, URL and header fields (repeated names
    /// joined by `, `, `Cookie` by `; `, as swift-http-types' HTTPTypesFoundation does).
    ///
    /// ```swift
    /// let urlRequest = try URLRequest(HTTPRequest(method: .get, url: url))
    /// ```
    /// - Throws: `GannetError(.invalidRequest)` when `request` has no URL (no scheme or no
    ///   authority).
    public init(_ request: HTTPRequest) throws {
        guard let converted = URLRequest(httpRequest: request) else {
            throw GannetError(
                .invalidRequest,
                "An HTTPRequest without a scheme and an authority has no URL to send it to (path \(request.path ?? "none"))"
            )
        }
        self = converted
    }
}

extension HTTPRequest {
    /// The `HTTPRequest` for `request`'s method, URL and header fields. The body is not part of
    /// an `HTTPRequest`: pass it beside it (``GannetCore/SessionManager/data(for:body:)``).
    ///
    /// - Throws: `GannetError(.invalidRequest)` for a request without a URL or with a method
    ///   that is not a token; `GannetError(.invalidHeader)` for a header name that is not one.
    public init(_ request: URLRequest) throws {
        guard let url = request.url else {
            throw GannetError(.invalidRequest, "The URLRequest has no URL")
        }
        let methodName = request.httpMethod ?? "GET"
        guard let method = HTTPRequest.Method(methodName) else {
            throw GannetError(.invalidRequest, "\"\(methodName)\" is not an HTTP method token", failingURL: url)
        }
        self.init(method: method, url: url)
        // Sorted, so that the same URLRequest always gives the same HTTPRequest: a dictionary's
        // order changes from run to run.
        for (name, value) in (request.allHTTPHeaderFields ?? [:]).sorted(by: { $0.key < $1.key }) {
            guard let fieldName = HTTPField.Name(name) else {
                throw GannetError(.invalidHeader, "\"\(name)\" is not an HTTP field name", failingURL: url)
            }
            headerFields.append(HTTPField(name: fieldName, value: value))
        }
    }
}

extension HTTPResponse {
    /// The response with `statusCode`, `reasonPhrase` and `fields` in the order given, repeated
    /// names (`Set-Cookie`) kept apart: a `DataResponse`'s head as received.
    ///
    /// - Throws: `GannetError(.protocolViolation)` for a status code outside 0...999 or a field
    ///   name that is not a token, which Gannet's own parser never lets through.
    init(statusCode: Int, reasonPhrase: String, fields: [(name: String, value: String)]) throws {
        guard (0...999).contains(statusCode) else {
            throw GannetError(.protocolViolation, "Status \(statusCode) is not a three-digit code")
        }
        self.init(status: Status(code: statusCode, reasonPhrase: reasonPhrase))
        headerFields.reserveCapacity(fields.count)
        for (name, value) in fields {
            guard let fieldName = HTTPField.Name(name) else {
                throw GannetError(.protocolViolation, "\"\(name)\" is not an HTTP field name")
            }
            headerFields.append(HTTPField(name: fieldName, value: value))
        }
    }

    /// The response `response` describes. `HTTPURLResponse` has merged repeated fields and lost
    /// the reason phrase and the order; prefer ``GannetCore/DataResponse/httpResponse`` where a
    /// `DataResponse` is at hand.
    ///
    /// - Throws: `GannetError(.protocolViolation)` for a status code outside 0...999.
    public init(_ response: HTTPURLResponse) throws {
        guard let converted = response.httpResponse else {
            throw GannetError(
                .protocolViolation,
                "Status \(response.statusCode) is not a three-digit code",
                failingURL: response.url
            )
        }
        self = converted
    }

    /// The head of `streamed` as received: the reason phrase, and the fields in wire order with
    /// repeated names (`Set-Cookie`) apart.
    ///
    /// ```swift
    /// let streamed = try await manager.streamedResponse(for: urlRequest)
    /// let head = try HTTPResponse(streamed)
    /// ```
    /// - Throws: `GannetError(.protocolViolation)` for a status code outside 0...999 or a field
    ///   name that is not a token.
    public init(_ streamed: StreamedResponse) throws {
        if let reasonPhrase = streamed.reasonPhrase {
            try self.init(statusCode: streamed.statusCode, reasonPhrase: reasonPhrase, fields: streamed.headerFields)
        } else if let response = streamed.response {
            try self.init(response)
        } else {
            throw GannetError(.protocolViolation, "No HTTP response")
        }
    }
}

extension HTTPURLResponse {
    /// The `HTTPURLResponse` for `response`, received from `url` (repeated names joined by `, `).
    ///
    /// - Throws: `GannetError(.protocolViolation)` when Foundation refuses to build it.
    public static func make(_ response: HTTPResponse, url: URL) throws -> HTTPURLResponse {
        guard let converted = HTTPURLResponse(httpResponse: response, url: url) else {
            throw GannetError(.protocolViolation, "Foundation refused the response \(response.status)", failingURL: url)
        }
        return converted
    }
}

extension DataResponse {
    /// The final response as an `HTTPResponse`: from its head as received when there is one (the
    /// reason phrase and repeated fields kept), otherwise from ``response``; `nil` when no
    /// response arrived.
    ///
    /// ```swift
    /// let whole = await manager.response(for: request, serializer: .passthrough)
    /// if let head = whole.httpResponse { print(head.headerFields[values: .setCookie]) }
    /// ```
    public var httpResponse: HTTPResponse? {
        if let statusCode, let reasonPhrase,
            let converted = try? HTTPResponse(statusCode: statusCode, reasonPhrase: reasonPhrase, fields: headerFields)
        {
            return converted
        }
        return response.flatMap { try? HTTPResponse($0) }
    }
}
