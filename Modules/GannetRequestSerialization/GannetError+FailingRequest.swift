extension GannetError {
    /// The request a serializer refused to build, for `.invalidHeader` and `.invalidRequest`
    /// errors thrown by `GannetRequestSerialization`; `nil` otherwise.
    public var failingRequest: URLRequest? {
        (underlyingError as? RequestSerializationError)?.failingRequest
    }
}
