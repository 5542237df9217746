/// A failure of an event stream (`EventSource`, `EventStreamParser`) or a line stream (the
/// JSON Lines serializer): a server that sent something other than a stream, or a stream over
/// its limits. Transport failures stay `URLError`s, as everywhere in Gannet.
///
/// ```swift
/// do {
///     for try await event in source.events { handle(event) }
/// } catch let error as StreamingError where error.code == .notEventStream {
///     print("not a stream:", error.contentType ?? "no Content-Type")
/// }
/// ```
public struct StreamingError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is.
    public struct Code: NamedErrorCode {
        /// A short identifier, stable across releases.
        public let name: String
        init(_ name: String) { self.name = name }

        /// A line did not end within the stream's byte limit (a server that never sends a line
        /// end cannot make the client hold more than the limit).
        public static let lineTooLong = Code("lineTooLong")
        /// The `data` of one event grew over the limit before the blank line that ends it.
        public static let eventTooLarge = Code("eventTooLarge")
        /// A 200 response whose `Content-Type` is not `text/event-stream`: an event source
        /// fails and does not reconnect (WHATWG HTML §9.2.3). ``StreamingError/contentType``
        /// holds what the server sent.
        public static let notEventStream = Code("notEventStream")
        /// A status other than 200 (and other than 204, which ends a stream cleanly): an event
        /// source fails and does not reconnect. ``StreamingError/statusCode`` holds it.
        public static let unexpectedStatus = Code("unexpectedStatus")
        /// One line of a JSON Lines stream did not decode; ``StreamingError/lineNumber`` says
        /// which (1-based) and ``StreamingError/underlyingError`` why.
        public static let invalidLine = Code("invalidLine")
        /// The event source gave up after its configured number of failed connections in a
        /// row; the last failure is the ``StreamingError/underlyingError``.
        public static let reconnectionLimitReached = Code("reconnectionLimitReached")
    }

    /// What kind of failure this is.
    public let code: Code
    /// A one-line reason; never more than a short excerpt of what the server sent.
    public let message: String
    /// For ``Code/unexpectedStatus`` (and ``Code/notEventStream``): the response's status.
    public let statusCode: Int?
    /// For ``Code/notEventStream``: the response's `Content-Type`, `nil` when it had none.
    public let contentType: String?
    /// For ``Code/invalidLine``: the line's number, from 1.
    public let lineNumber: Int?
    /// The error that caused this one, such as a `DecodingError`.
    public let underlyingError: (any Error)?

    /// Creates an error; the serializer modules built on this vocabulary create these too.
    public init(
        _ code: Code,
        _ message: String,
        statusCode: Int? = nil,
        contentType: String? = nil,
        lineNumber: Int? = nil,
        underlyingError: (any Error)? = nil
    ) {
        self.code = code
        self.message = message
        self.statusCode = statusCode
        self.contentType = contentType
        self.lineNumber = lineNumber
        self.underlyingError = underlyingError
    }

    /// The ``message``.
    public var description: String { message }
}

extension StreamingError: DescriptiveError {}
