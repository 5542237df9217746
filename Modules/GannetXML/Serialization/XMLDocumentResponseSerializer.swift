/// Validates a response and parses its body into an ``XMLDocument``: AFNetworking's
/// `AFXMLDocumentResponseSerializer`, on Linux, on libxml2 with Gannet's hardened defaults.
///
/// Validation and empty bodies follow every `ResponseBodySerializing` serializer: status
/// codes 200–299; the XML media types (`application/xml`, `text/xml` and the `+xml` types,
/// `MediaType.xmlTypes`), with any parameters; a response without a body to a `HEAD` request or
/// with status `204`, `205` or `304` gives ``XMLDocument/empty`` (no root), any other empty body
/// is `ResponseSerializationError.Code.inputDataNilOrZeroLength`. A body that is not XML
/// Gannet accepts is `ResponseSerializationError.Code.decodingFailed` whose underlying error
/// is the ``XMLError``, with its line and column.
///
/// ```swift
/// let document = try await manager.value(for: request, serializer: .xmlDocument)
/// let title = document.element(at: "slideshow/slide/title")?.text
/// ```
public struct XMLDocumentResponseSerializer: ResponseBodySerializing {
    /// Status codes that count as success; 200–299 by default.
    public var acceptableStatusCodes: IndexSet = Self.defaultAcceptableStatusCodes
    /// Media types the body may have; `MediaType.xmlTypes` by default, `nil` accepts any.
    public var acceptableContentTypes: Set<MediaType>? = Set(MediaType.xmlTypes)
    /// Runs on the body before parsing; passes it through by default.
    public var dataPreprocessor: any DataPreprocessor = PassthroughPreprocessor()
    /// Status codes whose empty body gives ``XMLDocument/empty``; 204, 205 and 304 by default.
    public var emptyResponseCodes: Set<Int> = Self.defaultEmptyResponseCodes
    /// Request methods whose empty body gives ``XMLDocument/empty``; `HEAD` by default.
    public var emptyRequestMethods: Set<String> = Self.defaultEmptyRequestMethods
    /// How the body is parsed: limits, entity policy.
    public var options: XMLParsingOptions

    /// Creates a serializer with the default validation and the given parsing options.
    public init(options: XMLParsingOptions = XMLParsingOptions()) {
        self.options = options
    }

    /// Rethrows a transport error, validates the response, and parses the body.
    public func serialize(_ input: ResponseInput) throws -> XMLDocument {
        guard let body = try validatedBody(input) else {
            return .empty
        }
        do {
            return try XMLDocument.parse(data: body, options: options)
        } catch let error as XMLError {
            throw ResponseSerializationError.decodingFailed(
                "XML parsing failed: \(error)",
                response: input.response,
                data: input.data,
                underlyingError: error
            )
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
