public import Foundation

/// A set of public-key pins for one host pattern, with an optional expiration after which they
/// are no longer enforced (Android's `pin-set expiration`), so an app that is not updated does
/// not lock itself out when the server's keys change.
///
/// Pin at least two keys — the current one and a backup whose private key is kept offline — so
/// that a key change does not lock clients out.
public struct PinSet: Sendable, Hashable {
    /// The pins; a server matches when any key of its verified chain is one of them.
    public let pins: Set<PublicKeyPin>
    /// The moment after which the pins are not enforced; `nil` means never.
    public let expiration: Date?

    /// Creates a set; an empty set is refused, since it could never match.
    public init(_ pins: some Sequence<PublicKeyPin>, expiration: Date? = nil) throws(PinError) {
        self.pins = Set(pins)
        self.expiration = expiration
        guard !self.pins.isEmpty else { throw PinError("A pin set needs at least one pin") }
    }

    /// Parses `sha256/BASE64` pins.
    public init(_ pins: [String], expiration: Date? = nil) throws(PinError) {
        var parsed: [PublicKeyPin] = []
        for pin in pins { parsed.append(try PublicKeyPin(pin)) }
        try self.init(parsed, expiration: expiration)
    }

    /// Whether the pins apply at `date`.
    public func isEnforced(at date: Date = Date()) -> Bool {
        expiration.map { date < $0 } ?? true
    }

    /// Whether any certificate of `chain` carries one of the pinned keys.
    public func matches(_ chain: [Certificate]) -> Bool {
        chain.contains { pins.contains($0.publicKeyPin) }
    }

    func check(_ chain: [Certificate], host: String, at date: Date) throws(ServerTrustError) {
        guard isEnforced(at: date), !matches(chain) else { return }
        throw PinFailure.mismatch(host: host, chain: chain, pinned: pins.map(\.description).sorted())
    }
}
