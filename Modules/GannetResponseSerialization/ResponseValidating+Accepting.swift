extension ResponseValidating {
    /// A copy that also accepts `contentTypes`, AFNetworking's
    /// `acceptableContentTypes = [set setByAddingObject:…]` as one expression:
    ///
    /// ```swift
    /// let page = try await manager.get("legacy/users", serializer: .json.accepting(contentTypes: [.html]))
    /// ```
    ///
    /// A serializer that accepts any content type (`acceptableContentTypes == nil`) still does.
    public func accepting(contentTypes: Set<MediaType>) -> Self {
        var copy = self
        copy.acceptableContentTypes.formUnion(contentTypes)
        return copy
    }

    /// A copy that also accepts the status codes `statusCodes`, such as a `404` whose body is
    /// still worth reading.
    public func accepting(statusCodes: some Sequence<Int>) -> Self {
        var copy = self
        for code in statusCodes { copy.acceptableStatusCodes.insert(code) }
        return copy
    }
}

extension Optional where Wrapped == Set<MediaType> {
    /// Accepts `mediaType` too, so that AFNetworking's most common line reads the same:
    ///
    /// ```swift
    /// manager.responseSerializer.acceptableContentTypes.insert("text/html")
    /// ```
    ///
    /// `nil` stands for "any media type" in ``ResponseValidating/acceptableContentTypes``, which
    /// already accepts `mediaType`, so it stays `nil` rather than narrowing to one type.
    ///
    /// - Returns: whether `mediaType` was not accepted before.
    @discardableResult
    public mutating func insert(_ mediaType: MediaType) -> Bool {
        guard case .some(var set) = self else { return false }
        self = nil  // drop the reference so the set is mutated in place, not copied
        let inserted = set.insert(mediaType).inserted
        self = set
        return inserted
    }

    /// Accepts every type of `mediaTypes` too; `nil` (any type) stays `nil`.
    public mutating func formUnion(_ mediaTypes: some Sequence<MediaType>) {
        guard case .some(var set) = self else { return }
        self = nil
        set.formUnion(mediaTypes)
        self = set
    }
}
