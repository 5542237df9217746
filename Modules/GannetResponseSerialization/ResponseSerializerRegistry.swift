/// Picks a serializer by the response's `Content-Type`: AFNetworking's
/// `AFCompoundResponseSerializer`, organised like Retrofit's converter factories.
///
/// Entries are kept in order; each declares the media types (or ranges: `text/*`,
/// `application/*+json`) it handles. The first entry with a range matching the response's
/// media type serializes the response, and its result or error is final: there is no
/// second try with the next entry. Parameters such as `charset` never affect the choice.
///
/// ```swift
/// var registry = ResponseSerializerRegistry.standard
/// registry.register(MessagePackSerializer(), for: ["application/msgpack"])
/// manager.responseSerializer = registry
/// ```
///
/// When no entry matches (or there is no `Content-Type`), the ``fallback`` serializes the
/// response. Without a fallback, the registry validates the response the way
/// ``HTTPResponseSerializer`` would, accepting only its entries' media types, and returns `nil`
/// when that passes (an empty body, such as a 204's). The registry rethrows a transport error
/// before anything else.
///
/// Registering a ``ResponseValidating`` serializer sets its `acceptableContentTypes` to the
/// media types it is registered for: the registry has already decided that the serializer
/// handles them, so a `JSONResponseSerializer` registered for `application/vnd.acme` accepts
/// that type.
///
/// The registry is itself ``ResponseValidating``, so a manager's settings reach it whatever it
/// holds: ``acceptableStatusCodes`` are accepted by every validating entry and the fallback on
/// top of their own, and ``acceptableContentTypes`` names media types accepted, on top of the
/// entries', for responses no entry handles:
///
/// ```swift
/// manager.responseSerializer = ResponseSerializerRegistry.standard
/// manager.responseSerializer.acceptableStatusCodes.insert(404)   // every entry reads a 404 body
/// ```
public struct ResponseSerializerRegistry: ResponseValidating {
    /// The value of whichever serializer handled the response.
    public typealias Output = (any Sendable)?

    /// One serializer and the media types it handles.
    public struct Entry: Sendable {
        /// Media types or ranges this entry handles.
        public let mediaTypes: [MediaType]
        /// The serializer.
        public let serializer: AnyResponseSerializer

        /// An entry for `serializer` handling `mediaTypes`. A ``ResponseValidating`` serializer
        /// will accept exactly `mediaTypes`.
        public init<S: ResponseSerializing>(_ serializer: S, for mediaTypes: [MediaType]) {
            self.mediaTypes = mediaTypes
            self.serializer = AnyResponseSerializer(Self.accepting(serializer, mediaTypes))
        }

        /// An entry for a serializer with an optional output, whose `nil` stays `nil`.
        public init<S: ResponseSerializing, Wrapped: Sendable>(_ serializer: S, for mediaTypes: [MediaType])
        where S.Output == Wrapped? {
            self.mediaTypes = mediaTypes
            self.serializer = AnyResponseSerializer(Self.accepting(serializer, mediaTypes))
        }

        /// The registry has already matched the content type when it picks an entry, so a
        /// validating serializer must accept what it was registered for, not only its defaults.
        private static func accepting<S: ResponseSerializing>(_ serializer: S, _ mediaTypes: [MediaType]) -> S {
            guard var validating = serializer as? any ResponseValidating else { return serializer }
            validating.acceptableContentTypes = Set(mediaTypes)
            return validating as? S ?? serializer
        }

        /// Whether this entry handles `mediaType`.
        public func handles(_ mediaType: MediaType) -> Bool {
            mediaTypes.contains { $0.matches(mediaType) }
        }
    }

    /// Where `register(_:for:placement:)` puts a new entry.
    public enum Placement: Sendable, Hashable {
        /// Before every existing entry, so it wins over them.
        case first
        /// After every existing entry (the default).
        case last
    }

    /// The entries, in the order they are tried.
    public var entries: [Entry]
    /// Serializes responses that no entry handles; `nil` for none.
    public var fallback: AnyResponseSerializer?
    /// Status codes that count as success: 200–299 by default. Every ``ResponseValidating``
    /// entry and fallback accepts these on top of its own codes (so inserting `404` here lets
    /// each of them read a 404's body); a response no entry handles without a fallback is
    /// validated against exactly these.
    public var acceptableStatusCodes: IndexSet
    /// Media types accepted, on top of the entries' own, for a response that no entry handles:
    /// the fallback (when ``ResponseValidating``) accepts them too, and without a fallback such
    /// a response passes validation and its body is returned as `Data`. Empty by default;
    /// `nil` accepts any media type. A response an entry handles is always of an accepted type.
    public var acceptableContentTypes: Set<MediaType>?

    /// Creates a registry.
    public init(
        entries: [Entry] = [],
        fallback: AnyResponseSerializer? = nil,
        acceptableStatusCodes: IndexSet = HTTPResponseSerializer.defaultAcceptableStatusCodes,
        acceptableContentTypes: Set<MediaType>? = []
    ) {
        self.entries = entries
        self.fallback = fallback
        self.acceptableStatusCodes = acceptableStatusCodes
        self.acceptableContentTypes = acceptableContentTypes
    }

    /// JSON for `application/json`, `text/json`, `text/javascript` and `application/*+json`;
    /// text for `text/*`; validated `Data` from ``HTTPResponseSerializer`` for everything else.
    public static var standard: ResponseSerializerRegistry {
        ResponseSerializerRegistry(
            entries: [
                Entry(JSONResponseSerializer(), for: [.json, "text/json", "text/javascript", .anyJSONSuffix]),
                Entry(StringResponseSerializer(), for: [.anyText]),
            ],
            fallback: AnyResponseSerializer(HTTPResponseSerializer())
        )
    }

    /// Adds `serializer` for `mediaTypes`, last (tried after the others) unless `placement`
    /// says `.first`. A ``ResponseValidating`` serializer will accept exactly `mediaTypes`.
    public mutating func register<S: ResponseSerializing>(
        _ serializer: S,
        for mediaTypes: [MediaType],
        placement: Placement = .last
    ) {
        insert(Entry(serializer, for: mediaTypes), placement)
    }

    /// Adds a serializer with an optional output; its `nil` stays `nil`.
    public mutating func register<S: ResponseSerializing, Wrapped: Sendable>(
        _ serializer: S,
        for mediaTypes: [MediaType],
        placement: Placement = .last
    ) where S.Output == Wrapped? {
        insert(Entry(serializer, for: mediaTypes), placement)
    }

    private mutating func insert(_ entry: Entry, _ placement: Placement) {
        switch placement {
        case .first: entries.insert(entry, at: 0)
        case .last: entries.append(entry)
        }
    }

    /// The entry that handles `response`, or `nil` when the fallback (or plain validation)
    /// applies.
    public func entry(for response: HTTPURLResponse?) -> Entry? {
        guard let mediaType = response.flatMap(MediaType.init(contentTypeOf:)) else { return nil }
        return entries.first { $0.handles(mediaType) }
    }

    /// Serializes with the first entry that handles the response's media type, else the
    /// fallback, else validates and returns `nil`.
    public func serialize(_ input: ResponseInput) throws -> (any Sendable)? {
        if let error = input.error { throw error }
        if let entry = entry(for: input.response) {
            let serializer = entry.serializer.accepting(
                ResponseAcceptance(statusCodes: acceptableStatusCodes, contentTypes: [])
            )
            return try serializer.serialize(input)
        }
        if let fallback {
            let serializer = fallback.accepting(
                ResponseAcceptance(statusCodes: acceptableStatusCodes, contentTypes: acceptableContentTypes)
            )
            return try serializer.serialize(input)
        }
        var acceptable = acceptableContentTypes
        acceptable.formUnion(entries.flatMap(\.mediaTypes))
        let validation = HTTPResponseSerializer(
            acceptableStatusCodes: acceptableStatusCodes,
            acceptableContentTypes: acceptable
        )
        try validation.validate(input)
        // Only a type the registry was told to accept gets this far with a body.
        guard let data = input.data, !data.isEmpty else { return nil }
        return data
    }
}
