/// Why an XML document was not parsed: it is not well-formed, it broke one of the limits of
/// ``XMLParsingOptions``, or it asked for something Gannet refuses (entity declarations by
/// default).
///
/// Codes are static members of an open struct, so adding one is not a breaking change:
///
/// ```swift
/// do {
///     let document = try XMLDocument.parse(data: body)
/// } catch let error as XMLError where error.code == .entityDeclarationRefused {
///     // a DTD declared an entity; see XMLParsingOptions.allowsInternalEntities
/// }
/// ```
public struct XMLError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is.
    public struct Code: NamedErrorCode {
        /// A short identifier, stable across releases.
        public let name: String
        init(_ name: String) { self.name = name }

        /// The input is not well-formed XML 1.0 with namespaces (libxml2's reason is in
        /// ``XMLError/message`` and its code in ``XMLError/nativeCode``).
        public static let malformed = Code("malformed")
        /// The input holds no element at all.
        public static let emptyDocument = Code("emptyDocument")
        /// The document declares an encoding that libxml2 cannot convert.
        public static let unsupportedEncoding = Code("unsupportedEncoding")
        /// A reference to an entity that is neither predefined nor declared in the internal
        /// subset (such as `&nbsp;` from an external DTD, which Gannet never loads).
        public static let undeclaredEntity = Code("undeclaredEntity")
        /// The document type declaration declares an entity. Refused by default; internal
        /// entities are accepted with ``XMLParsingOptions/allowsInternalEntities``, external
        /// and parameter entities never.
        public static let entityDeclarationRefused = Code("entityDeclarationRefused")
        /// Entity references expanded more often, or to more bytes, than
        /// ``XMLParsingOptions/Limits`` allow (billion laughs, quadratic blow-up), or looped.
        public static let entityExpansionLimitExceeded = Code("entityExpansionLimitExceeded")
        /// Elements nested deeper than ``XMLParsingOptions/Limits/maximumDepth``.
        public static let depthLimitExceeded = Code("depthLimitExceeded")
        /// More input than ``XMLParsingOptions/Limits/maximumDocumentBytes``.
        public static let documentTooLarge = Code("documentTooLarge")
        /// A start tag with more attributes than ``XMLParsingOptions/Limits/maximumAttributes``.
        public static let tooManyAttributes = Code("tooManyAttributes")
        /// One text node, CDATA section or comment longer than
        /// ``XMLParsingOptions/Limits/maximumTextBytes``.
        public static let textTooLarge = Code("textTooLarge")
        /// Reading the input stream failed; ``XMLError/underlyingError`` holds the stream's error.
        public static let streamReadFailed = Code("streamReadFailed")
        /// The parser was used out of order: fed after `finish()`, or fed from inside one of its
        /// own callbacks.
        public static let invalidState = Code("invalidState")
        /// libxml2 (`libxml2.so.2`) could not be loaded when the first document was parsed: it
        /// is not installed, or lacks a function Gannet calls. ``XMLError/message`` says why.
        /// Gannet loads it on first use rather than at start-up (docs/performance.md, "Start-up").
        public static let libraryUnavailable = Code("libraryUnavailable")
    }

    /// What kind of failure this is.
    public let code: Code
    /// A one-line reason, such as libxml2's "Opening and ending tag mismatch: a line 1 and b".
    /// Never longer than 300 characters.
    public let message: String
    /// The 1-based line where the parser stopped; 0 when unknown.
    public let line: Int
    /// The 1-based column where the parser stopped; 0 when unknown.
    public let column: Int
    /// libxml2's `xmlParserErrors` value, when libxml2 detected the failure.
    public let nativeCode: Int?
    /// The error that caused this one, such as a stream's read error.
    public let underlyingError: (any Error)?

    /// Creates an error. The parser creates these; serializers and tests may too.
    public init(
        _ code: Code,
        _ message: String,
        line: Int = 0,
        column: Int = 0,
        nativeCode: Int? = nil,
        underlyingError: (any Error)? = nil
    ) {
        self.code = code
        self.message = XMLError.shortened(message)
        self.line = line
        self.column = column
        self.nativeCode = nativeCode
        self.underlyingError = underlyingError
    }

    /// The message, followed by the line and column when they are known.
    public var description: String {
        line > 0 ? "\(message) (line \(line), column \(column))" : message
    }

    /// Messages may quote the document (libxml2 quotes names and bytes); keep them short so a
    /// hostile document cannot make an error huge.
    private static func shortened(_ message: String) -> String {
        let trimmed = message.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.count > 300 else { return trimmed }
        return String(trimmed.prefix(299)) + "…"
    }
}

extension XMLError: DescriptiveError {}
