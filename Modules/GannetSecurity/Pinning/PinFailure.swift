import Foundation

/// The errors every pinning evaluator throws, worded the same way.
enum PinFailure {
    /// A pin failure that lists the presented pins (how users discover the pins to configure).
    static func mismatch(host: String, chain: [Certificate], pinned: [String]) -> ServerTrustError {
        let presented = chain.map(\.description).joined(separator: ", ")
        var message = "Certificate pinning failure for \(host): none of the pins matched."
        message += " Presented: \(presented.isEmpty ? "no certificate" : presented)."
        message += " Pinned: \(pinned.joined(separator: ", "))."
        return ServerTrustError(.pinMismatch, message, host: host, presentedChain: chain)
    }

    static func noPins(host: String, chain: [Certificate]) -> ServerTrustError {
        let presented = chain.map(\.description).joined(separator: ", ")
        return ServerTrustError(
            .noPins,
            "Certificate pinning failure for \(host): nothing is pinned. Presented: \(presented).",
            host: host,
            presentedChain: chain
        )
    }

    /// Verifies `presented` with the pinned certificates as the only anchors (a pinned
    /// intermediate or leaf ends the chain). An unknown issuer there means that no pinned
    /// certificate is in the chain: a pin failure listing `fallbackChain()`. Other failures
    /// (dates, signatures, CA constraints) are reported as themselves.
    static func verifyAgainstPins(
        _ presented: PresentedChain,
        anchors: TrustStore,
        fallbackChain: () -> [Certificate],
        pinned: [String]
    ) throws(ServerTrustError) -> [Certificate] {
        do {
            return try ChainVerifier(trustStore: anchors, allowsPartialChain: true).verify(presented)
        } catch {
            guard error.code == .untrustedRoot else { throw error }
            throw mismatch(host: presented.host, chain: fallbackChain(), pinned: pinned)
        }
    }

    /// The chain OpenSSL can build and link by signatures when validation itself failed, for
    /// an error message; falls back to the certificates as presented.
    static func linkedChain(_ presented: PresentedChain, trustStore: TrustStore) -> [Certificate] {
        (try? ChainVerifier(trustStore: trustStore, leniency: .allowsUntrustedAndDates).verify(presented))
            ?? presented.certificates()
    }
}
