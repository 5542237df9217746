internal import Glibc

/// An IPv4 or IPv6 address, the destination of an address-based reachability manager.
public struct IPAddress: Hashable, Sendable, CustomStringConvertible {
    /// The address family.
    public enum Family: Hashable, Sendable {
        /// IPv4 (`AF_INET`), four bytes.
        case v4
        /// IPv6 (`AF_INET6`), sixteen bytes.
        case v6
    }

    /// The address in network byte order: 4 bytes for IPv4, 16 for IPv6.
    public let bytes: [UInt8]

    /// Parses dotted IPv4 (`192.0.2.1`) or IPv6 text (`2001:db8::1`), as `inet_pton` does.
    public init?(_ text: String) {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            bytes = withUnsafeBytes(of: &v4) { Array($0) }
            return
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 {
            bytes = withUnsafeBytes(of: &v6) { Array($0) }
            return
        }
        return nil
    }

    /// Wraps 4 (IPv4) or 16 (IPv6) bytes in network byte order; `nil` for any other count.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 4 || bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    /// IPv4 or IPv6, from the number of bytes.
    public var family: Family { bytes.count == 4 ? .v4 : .v6 }

    /// `127.0.0.0/8`, `::1`, or an IPv4-mapped `::ffff:127.x.y.z`.
    public var isLoopback: Bool {
        if family == .v4 { return bytes[0] == 127 }
        if bytes[0..<15].allSatisfy({ $0 == 0 }) && bytes[15] == 1 { return true }
        return isIPv4Mapped && bytes[12] == 127
    }

    /// `0.0.0.0` or `::`: AFNetworking's "zero address", which means "any network".
    public var isUnspecified: Bool { bytes.allSatisfy { $0 == 0 } }

    private var isIPv4Mapped: Bool {
        bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xff && bytes[11] == 0xff
    }

    /// The address as `inet_ntop` writes it.
    public var description: String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let family = family == .v4 ? AF_INET : AF_INET6
        let written = bytes.withUnsafeBytes { raw in inet_ntop(family, raw.baseAddress, &text, socklen_t(text.count)) }
        guard written != nil else { return bytes.map(String.init).joined(separator: ".") }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
