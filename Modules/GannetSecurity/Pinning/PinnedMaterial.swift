import Foundation

/// What a set of pinned certificates turns into, computed once when the set changes: the parsed
/// certificates, their key pins, and a trust store holding only them.
struct PinnedMaterial: Sendable {
    let certificates: Set<Certificate>
    let keys: Set<PublicKeyPin>
    /// `nil` when nothing is pinned: an empty anchor set could never validate anything.
    let anchors: TrustStore?

    init(_ data: Set<Data>) {
        let certificates = Set(data.compactMap { try? Certificate(data: $0) })
        self.init(certificates)
    }

    init(_ certificates: Set<Certificate>) {
        self.certificates = certificates
        self.keys = Set(certificates.map(\.publicKeyPin))
        self.anchors = certificates.isEmpty ? nil : try? TrustStore.certificates(Array(certificates))
    }
}
