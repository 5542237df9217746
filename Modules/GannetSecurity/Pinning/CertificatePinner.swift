public import Foundation

/// Per-host public-key pins in the style of OkHttp's `CertificatePinner`, on top of full chain
/// and host validation.
///
/// ```swift
/// let pinner = try CertificatePinner([
///     "api.example.com": ["sha256/AAAA…=", "sha256/BBBB…="],
///     "**.cdn.example.com": ["sha256/CCCC…="],
/// ])
/// configuration.tls.serverTrustEvaluator = pinner
/// ```
///
/// Every pattern that matches a host contributes its pins (OkHttp's rule); a host no pattern
/// matches is validated but not pinned. Pins are compared against the verified chain only.
public struct CertificatePinner: ServerTrustEvaluating, Sendable {
    /// One host pattern and its pins.
    public struct Entry: Sendable, Hashable {
        /// Which hosts the pins apply to.
        public let pattern: HostPattern
        /// The pins, with their optional expiration.
        public let pins: PinSet

        /// Creates an entry.
        public init(pattern: HostPattern, pins: PinSet) {
            self.pattern = pattern
            self.pins = pins
        }
    }

    /// The pinned host patterns.
    public let entries: [Entry]
    /// The anchors chains are validated against before pins are looked at.
    public var trustStore: TrustStore
    /// Whether the leaf must be valid for the requested host name or IP address.
    public var validatesHost: Bool

    /// Creates a pinner from entries.
    public init(entries: [Entry], trustStore: TrustStore = .system, validatesHost: Bool = true) {
        self.entries = entries
        self.trustStore = trustStore
        self.validatesHost = validatesHost
    }

    /// Creates a pinner from host patterns and pin sets.
    public init(
        _ pinSets: [String: PinSet],
        trustStore: TrustStore = .system,
        validatesHost: Bool = true
    ) throws(PinError) {
        var entries: [Entry] = []
        for (pattern, pins) in pinSets.sorted(by: { $0.key < $1.key }) {
            entries.append(Entry(pattern: try HostPattern(pattern), pins: pins))
        }
        self.init(entries: entries, trustStore: trustStore, validatesHost: validatesHost)
    }

    /// Creates a pinner from host patterns and `sha256/BASE64` pins, all expiring at
    /// `expiration` when one is given.
    public init(
        _ pins: [String: [String]],
        expiration: Date? = nil,
        trustStore: TrustStore = .system,
        validatesHost: Bool = true
    ) throws(PinError) {
        var sets: [String: PinSet] = [:]
        for (pattern, hostPins) in pins { sets[pattern] = try PinSet(hostPins, expiration: expiration) }
        try self.init(sets, trustStore: trustStore, validatesHost: validatesHost)
    }

    /// The pins enforced for `host` at `date`: the union of every matching, unexpired entry.
    public func pins(for host: String, at date: Date = Date()) -> Set<PublicKeyPin> {
        entries.filter { $0.pattern.matches(host) && $0.pins.isEnforced(at: date) }
            .reduce(into: []) { $0.formUnion($1.pins.pins) }
    }

    /// Always `true`: pins mean nothing over plain HTTP.
    public var requiresSecureTransport: Bool { true }

    /// Accepts `trust` when its chain verifies, its host matches and, if the host is pinned, a
    /// pinned key is in the verified chain.
    public func evaluate(_ trust: ServerTrust) throws {
        let chain = try DefaultTrustEvaluator(trustStore: trustStore, validatesHost: validatesHost).verifiedChain(
            for: trust
        )
        let pins = pins(for: trust.host)
        guard !pins.isEmpty else { return }
        guard chain.contains(where: { pins.contains($0.publicKeyPin) }) else {
            throw PinFailure.mismatch(host: trust.host, chain: chain, pinned: pins.map(\.description).sorted())
        }
    }
}
