/// What a ``ResponseSerializerRegistry`` accepts on top of its entries' and fallback's own
/// validation: its ``ResponseSerializerRegistry/acceptableStatusCodes`` and
/// ``ResponseSerializerRegistry/acceptableContentTypes``.
struct ResponseAcceptance: Sendable {
    /// Status codes accepted in addition to a serializer's own.
    var statusCodes: IndexSet
    /// Media types accepted in addition to a serializer's own; `nil` for any.
    var contentTypes: Set<MediaType>?

    /// `serializer` widened by this acceptance when it validates (``ResponseValidating``); a
    /// serializer that does not validate has nothing to widen and is returned as it is.
    func widening<S: ResponseSerializing>(_ serializer: S) -> S {
        guard var validating = serializer as? any ResponseValidating else { return serializer }
        validating.acceptableStatusCodes.formUnion(statusCodes)
        if let contentTypes {
            validating.acceptableContentTypes.formUnion(contentTypes)
        } else {
            validating.acceptableContentTypes = nil
        }
        return validating as? S ?? serializer
    }
}

extension AnyResponseSerializer {
    /// The wrapped serializer, when it is ``ResponseValidating``, also accepting what
    /// `acceptance` names; any other serializer unchanged.
    func accepting(_ acceptance: ResponseAcceptance) -> AnyResponseSerializer {
        AnyResponseSerializer(acceptance.widening(base))
    }
}
