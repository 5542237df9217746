/// Validates a response and parses its body into an ``XMLDocument``: AFNetworking's
/// `AFXMLDocumentResponseSerializer`, on Linux, on libxml2 with Gannet's hardened defaults.
///
/// Accepts status codes 200–299 and the XML media types: `application/xml`, `text/xml`, and
/// any `+xml` structured-syntax type (`application/atom+xml`, `application/rss+xml`,
/// `image/svg+xml` …), with any parameters.
///
/// A response without a body to a `HEAD` request or with status `204`, `205` or `304` gives
/// ``XMLDocument/empty`` (no root). Any other empty body is an error
/// (``XMLResponseSerializationError/Code/inputDataNilOrZeroLength``), and so is a body that is
/// not well-formed (``XMLResponseSerializationError/Code/xmlParsingFailed``, with the
/// ``XMLError`` as the underlying error).
///
/// ```swift
/// let document = try await manager.value(for: request, serializer: .xmlDocument)
/// let title = document.element(at: "slideshow/slide/title")?.text
/// ```
public struct XMLDocumentResponseSerializer: ResponseSerializing {
    /// Status codes that count as success; 200–299 by default.
    public var acceptableStatusCodes: IndexSet {
        get { validation.acceptableStatusCodes }
        set { validation.acceptableStatusCodes = newValue }
    }
    /// Media types the body may have, as `type/subtype` (lowercase, no parameters), `type/*`
    /// or a suffix pattern like `application/*+xml`; `nil` accepts any. Defaults to
    /// ``defaultAcceptableContentTypes``.
    public var acceptableContentTypes: Set<String>? {
        get { validation.acceptableContentTypes }
        set { validation.acceptableContentTypes = newValue }
    }
    /// Status codes whose empty body gives ``XMLDocument/empty``; 204, 205 and 304 by default.
    public var emptyResponseCodes: Set<Int> {
        get { validation.emptyResponseCodes }
        set { validation.emptyResponseCodes = newValue }
    }
    /// Request methods whose empty body gives ``XMLDocument/empty``; `HEAD` by default.
    public var emptyRequestMethods: Set<String> {
        get { validation.emptyRequestMethods }
        set { validation.emptyRequestMethods = newValue }
    }
    /// How the body is parsed: limits, entity policy.
    public var options: XMLParsingOptions

    private var validation: XMLResponseValidation

    /// `application/xml`, `text/xml`, and every `+xml` type.
    public static var defaultAcceptableContentTypes: Set<String> {
        ["application/xml", "text/xml", "application/*+xml", "text/*+xml", "image/*+xml"]
    }

    /// Creates a serializer with the default validation and the given parsing options.
    public init(options: XMLParsingOptions = XMLParsingOptions()) {
        self.options = options
        validation = XMLResponseValidation(
            acceptableStatusCodes: IndexSet(integersIn: 200..<300),
            acceptableContentTypes: Self.defaultAcceptableContentTypes,
            emptyResponseCodes: [204, 205, 304],
            emptyRequestMethods: ["HEAD"])
    }

    /// Rethrows a transport error, validates the response, and parses the body.
    public func serialize(request: URLRequest?, response: HTTPURLResponse?, data: Data?, error: (any Error)?) throws -> XMLDocument {
        guard let body = try validation.validatedBody(request: request, response: response, data: data, error: error) else {
            return .empty
        }
        do {
            return try XMLDocument.parse(data: body, options: options)
        } catch let error as XMLError {
            throw XMLResponseSerializationError(
                .xmlParsingFailed, BodyExcerpt.message("XML parsing failed: \(error)", body: body),
                response: response, data: body, underlyingError: error)
        }
    }
}

extension ResponseSerializing where Self == XMLDocumentResponseSerializer {
    /// Validates an XML response and parses it into an ``XMLDocument`` with the default options.
    public static var xmlDocument: XMLDocumentResponseSerializer { XMLDocumentResponseSerializer() }

    /// Validates an XML response and parses it into an ``XMLDocument`` with `options`.
    public static func xmlDocument(options: XMLParsingOptions) -> XMLDocumentResponseSerializer {
        XMLDocumentResponseSerializer(options: options)
    }
}
