internal import Glibc

/// What a manager watches.
enum ReachabilityTarget: Hashable, Sendable {
    /// AFNetworking's zero address: any network, meaning a default route.
    case anyNetwork
    /// One address; deciding needs no traffic at all.
    case address(IPAddress)
    /// A host name, resolved with `getaddrinfo` (DNS is the only traffic reachability causes).
    case host(String)

    /// Checks a host name the way a resolver would accept it: 1 to 253 bytes of printable ASCII
    /// or UTF-8 with no spaces, control characters or slashes. An IP literal (IPv6 may be in
    /// brackets) becomes an address target.
    static func host(validating name: String) throws(ReachabilityError) -> ReachabilityTarget {
        let trimmed = name.hasPrefix("[") && name.hasSuffix("]") ? String(name.dropFirst().dropLast()) : name
        if let address = IPAddress(trimmed) { return address.isUnspecified ? .anyNetwork : .address(address) }
        guard !name.isEmpty, name.utf8.count <= 253 else {
            throw ReachabilityError(.invalidHost, "a host name must have 1 to 253 bytes, not \(name.utf8.count)")
        }
        guard name.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7f && $0 != "/" }) else {
            throw ReachabilityError(
                .invalidHost,
                "the host name \(name.debugDescription) holds a space, a slash or a control character"
            )
        }
        return .host(name)
    }

    /// The addresses `getaddrinfo` gives for `name`, in its order, duplicates removed; empty
    /// when resolution fails. Blocks for as long as the resolver takes.
    static func resolve(_ name: String) -> [IPAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(name, nil, &hints, &list) == 0, let first = list else { return [] }
        defer { freeaddrinfo(first) }
        var addresses: [IPAddress] = []
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let current = entry?.pointee {
            entry = current.ai_next
            guard let socketAddress = current.ai_addr else { continue }
            let bytes: [UInt8]?
            switch current.ai_family {
            case AF_INET:
                bytes = socketAddress.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { pointer in
                    withUnsafeBytes(of: pointer.pointee.sin_addr) { Array($0) }
                }
            case AF_INET6:
                bytes = socketAddress.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                    withUnsafeBytes(of: pointer.pointee.sin6_addr) { Array($0) }
                }
            default: bytes = nil
            }
            if let bytes, let address = IPAddress(bytes: bytes), !addresses.contains(address) {
                addresses.append(address)
            }
        }
        return addresses
    }
}
