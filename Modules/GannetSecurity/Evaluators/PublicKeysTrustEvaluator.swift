import Foundation

/// Validates the chain like ``DefaultTrustEvaluator``, then requires one of the pinned public
/// keys somewhere in the **verified** chain (leaf, intermediate or anchor). Keys the server
/// sent but that are not part of the verified chain never match.
///
/// ```swift
/// let pins = try PinSet(["sha256/AAAA…=", "sha256/BBBB…="])   // current key and a backup
/// configuration.tls.serverTrustEvaluator = PublicKeysTrustEvaluator(pins: pins)
/// ```
public struct PublicKeysTrustEvaluator: ServerTrustEvaluating, Sendable {
    /// The pinned keys, with their optional expiration.
    public let pins: PinSet
    /// The anchors the chain must lead to before pins are looked at.
    public var trustStore: TrustStore
    /// Whether the leaf must be valid for the requested host name or IP address.
    public var validatesHost: Bool

    /// Pins the keys of `pins`.
    public init(pins: PinSet, trustStore: TrustStore = .system, validatesHost: Bool = true) {
        self.pins = pins
        self.trustStore = trustStore
        self.validatesHost = validatesHost
    }

    /// Pins the public keys of `certificates` (their other contents do not matter).
    public init(
        certificates: some Sequence<Certificate>,
        trustStore: TrustStore = .system,
        validatesHost: Bool = true
    ) throws(PinError) {
        self.init(
            pins: try PinSet(certificates.map(\.publicKeyPin)),
            trustStore: trustStore,
            validatesHost: validatesHost
        )
    }

    /// Always `true`: pins mean nothing over plain HTTP.
    public var requiresSecureTransport: Bool { true }

    /// Accepts `trust` when its chain verifies, its host matches and a pinned key is in the
    /// verified chain, or when the pins have expired.
    public func evaluate(_ trust: ServerTrust) throws {
        let chain = try DefaultTrustEvaluator(trustStore: trustStore, validatesHost: validatesHost).verifiedChain(
            for: trust
        )
        try pins.check(chain, host: trust.host, at: Date())
    }
}
