/// Trusts only chains that lead to one of the pinned certificates: they are the sole anchors,
/// and a pinned intermediate or leaf ends a chain as well as a pinned root does. Dates,
/// signatures, CA constraints and (by default) the host name are still checked.
///
/// Pinning a self-signed server certificate works as is. To also require a chain trusted by
/// the system, combine with ``DefaultTrustEvaluator`` in a ``CompositeTrustEvaluator``.
public struct PinnedCertificatesTrustEvaluator: ServerTrustEvaluating, Sendable {
    /// The pinned certificates.
    public let certificates: Set<Certificate>
    /// Whether the leaf must be valid for the requested host name or IP address.
    public var validatesHost: Bool

    private let material: PinnedMaterial

    /// Pins `certificates`.
    public init(certificates: some Sequence<Certificate>, validatesHost: Bool = true) {
        self.certificates = Set(certificates)
        self.validatesHost = validatesHost
        self.material = PinnedMaterial(self.certificates)
    }

    /// Always `true`: pins mean nothing over plain HTTP.
    public var requiresSecureTransport: Bool { true }

    /// Accepts `trust` when its chain verifies up to a pinned certificate and the host matches.
    public func evaluate(_ trust: ServerTrust) throws {
        let presented = try PresentedChain(trust)
        guard let anchors = material.anchors else {
            throw PinFailure.noPins(host: trust.host, chain: presented.certificates())
        }
        let chain = try PinFailure.verifyAgainstPins(
            presented,
            anchors: anchors,
            fallbackChain: { PinFailure.linkedChain(presented, trustStore: anchors) },
            pinned: certificates.map(\.description).sorted()
        )
        if validatesHost { try HostNameCheck.check(chain[0], host: trust.host, chain: chain) }
    }
}
