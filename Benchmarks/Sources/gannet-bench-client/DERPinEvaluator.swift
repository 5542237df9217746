import BenchKit
import GannetCore

/// A stand-in pinning policy until GannetSecurity lands on main: trusts a server only when the
/// SHA-256 of the leaf certificate it presented (DER) equals `BENCH_PIN_SHA256` (hex).
///
/// It does real per-handshake work (hashing the presented DER in Swift) but no chain
/// building, so it is cheaper than a full SecurityPolicy; the figures say so.
struct DERPinEvaluator: ServerTrustEvaluating {
    let pin: [UInt8]

    var requiresSecureTransport: Bool { true }

    static func fromEnvironment() -> DERPinEvaluator {
        guard let hex = ProcessInfo.processInfo.environment["BENCH_PIN_SHA256"], hex.count == 64 else {
            Report.fail("--pin needs BENCH_PIN_SHA256 (the hex SHA-256 of the server's leaf certificate, DER)")
        }
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            guard let byte = UInt8(hex[index..<next], radix: 16) else { Report.fail("BENCH_PIN_SHA256 is not hex") }
            bytes.append(byte)
            index = next
        }
        return DERPinEvaluator(pin: bytes)
    }

    func evaluate(_ trust: ServerTrust) throws {
        guard let leaf = trust.certificateChain.first, SHA256.hash(leaf) == pin else {
            throw GannetError(.serverTrustRejected, "The leaf certificate does not match the pin")
        }
    }
}
