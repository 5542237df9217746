/// What a ``ResponseInput`` reads of a response: the status code and header fields, from the
/// parsed head when there is one. The `HTTPURLResponse` is built only when something needs
/// the object itself (an error that carries it, a serializer of the caller's): Foundation's
/// initializer costs about 67,000 instructions, more than a whole small exchange
/// (docs/performance.md).
package struct ResponseView {
    private enum Source {
        case built(HTTPURLResponse)
        case parsed(LazyResponse)
    }

    private let source: Source

    /// A view of a response that was already built.
    package init(_ response: HTTPURLResponse) {
        source = .built(response)
    }

    package init(_ lazy: LazyResponse) {
        source = .parsed(lazy)
    }

    /// The status code.
    package var statusCode: Int {
        switch source {
        case .built(let response): response.statusCode
        case .parsed(let lazy): lazy.statusCode
        }
    }

    /// A header's value, the name compared case-insensitively; repeated fields are joined with
    /// ", " as `HTTPURLResponse` joins them.
    package func value(forHTTPHeaderField name: String) -> String? {
        switch source {
        case .built(let response): response.value(forHTTPHeaderField: name)
        case .parsed(let lazy): lazy.headerValue(name)
        }
    }

    /// The media type of the `Content-Type` header; `nil` when it is missing or unparseable.
    package var contentType: MediaType? {
        switch source {
        case .built(let response): MediaType(contentTypeOf: response)
        case .parsed(let lazy): lazy.contentType
        }
    }

    /// The response as Foundation's object, built on first use.
    package var response: HTTPURLResponse? {
        switch source {
        case .built(let response): response
        case .parsed(let lazy): lazy.value
        }
    }
}
