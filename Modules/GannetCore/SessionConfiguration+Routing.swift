#if canImport(Glibc)
internal import Glibc
#endif

extension SessionConfiguration {
    /// Where connections go when not where the URL's host says: curl's `--resolve`,
    /// `--connect-to` and `--unix-socket` (libcurl's `CURLOPT_RESOLVE`, `CURLOPT_CONNECT_TO`,
    /// `CURLOPT_UNIX_SOCKET_PATH`).
    ///
    /// The URL's host stays the request's host everywhere else: in the `Host` header, in TLS's
    /// server name (SNI), and for certificate verification and pins, which judge the URL's host,
    /// never the address connected to (docs/core.md, "Reaching a host another way"). A manager's
    /// routing applies to all its tasks; each manager has its own connection pool, so managers
    /// with different routing never share a connection.
    ///
    /// ```swift
    /// var configuration = SessionConfiguration.default
    /// configuration.routing.resolve = [try .init(parsing: "api.example.com:443:10.0.0.7")]
    /// configuration.routing.connectTo = [try .init(parsing: "api.example.com:443:staging.example.net:8443")]
    /// // or every request over a Unix domain socket, as Docker's API is reached:
    /// configuration.routing.unixSocketPath = "/var/run/docker.sock"
    /// ```
    public struct Routing: Sendable, Hashable {
        /// Addresses to use for a host and port instead of asking DNS (`--resolve`).
        public var resolve: [Resolve] = []
        /// Another host and port to connect to for a host and port (`--connect-to`), tried in
        /// order; the first that matches is used.
        public var connectTo: [ConnectTo] = []
        /// A Unix domain socket every request of the manager is sent over, whatever its URL's
        /// host and port (`--unix-socket`). At most 107 bytes (the size of `sun_path`); checked
        /// when a task starts, which fails with ``GannetError/Code/invalidConfiguration``
        /// before anything is sent.
        public var unixSocketPath: String? = nil

        /// No overrides: every host is resolved and connected to as its URL says.
        public init() {}

        /// Whether any override is set.
        public var isEmpty: Bool { resolve.isEmpty && connectTo.isEmpty && unixSocketPath == nil }

        /// Throws ``GannetError/Code/invalidConfiguration`` for a ``unixSocketPath`` that cannot
        /// be used: empty, holding NUL, or longer than `sun_path` holds. The other overrides are
        /// checked when they are made.
        public func validate() throws {
            guard let path = unixSocketPath else { return }
            guard !path.isEmpty, !path.utf8.contains(0) else {
                throw GannetError(.invalidConfiguration, "The Unix socket path is empty or holds NUL")
            }
            guard path.utf8.count <= Self.maximumSocketPathBytes else {
                throw GannetError(
                    .invalidConfiguration,
                    "The Unix socket path is \(path.utf8.count) bytes; at most \(Self.maximumSocketPathBytes) fit in sun_path"
                )
            }
        }

        /// `sizeof(sockaddr_un.sun_path)` on Linux, less its terminating NUL.
        static let maximumSocketPathBytes = 107
    }
}

extension SessionConfiguration.Routing {
    /// Addresses for one host and port instead of DNS's: curl's `--resolve HOST:PORT:ADDR[,ADDR]`.
    public struct Resolve: Sendable, Hashable, CustomStringConvertible {
        /// The host name as URLs write it (compared without case), or `*` for every host.
        public let host: String
        /// The URL's port this applies to (its scheme's default when the URL gives none).
        public let port: Int
        /// IPv4 or IPv6 addresses, IPv6 without brackets, tried in order.
        public let addresses: [String]

        /// Checks every part; throws ``GannetError/Code/invalidConfiguration`` naming the bad one.
        public init(host: String, port: Int, addresses: [String]) throws {
            guard host == "*" || HostSyntax.isHostName(host) else {
                throw GannetError(.invalidConfiguration, "resolve: \(host.debugDescription) is not a host name")
            }
            guard let port = HostSyntax.port(String(port)) else {
                throw GannetError(.invalidConfiguration, "resolve: the port \(port) is not 1-65535")
            }
            guard !addresses.isEmpty else {
                throw GannetError(.invalidConfiguration, "resolve: \(host) has no address")
            }
            for address in addresses where !HostSyntax.isIPAddress(address) {
                throw GannetError(.invalidConfiguration, "resolve: \(address.debugDescription) is not an IP address")
            }
            self.host = host.lowercased()
            self.port = port
            self.addresses = addresses
        }

        /// Parses curl's `HOST:PORT:ADDRESS[,ADDRESS]…`, IPv6 addresses in brackets
        /// (`localhost:8443:[::1],127.0.0.1`).
        public init(parsing text: String) throws {
            let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3, let port = HostSyntax.port(String(parts[1])) else {
                throw GannetError(
                    .invalidConfiguration,
                    "resolve takes HOST:PORT:ADDRESS[,ADDRESS], not \(text.debugDescription)"
                )
            }
            let addresses = parts[2].split(separator: ",", omittingEmptySubsequences: false).map { part in
                part.hasPrefix("[") && part.hasSuffix("]") ? String(part.dropFirst().dropLast()) : String(part)
            }
            try self.init(host: String(parts[0]), port: port, addresses: addresses)
        }

        /// libcurl's `CURLOPT_RESOLVE` entry.
        public var description: String {
            "\(host):\(port):" + addresses.map { $0.contains(":") ? "[\($0)]" : $0 }.joined(separator: ",")
        }
    }

    /// Another host and port to connect to instead of one the URL names, the URL's host kept
    /// for everything else: curl's `--connect-to HOST1:PORT1:HOST2:PORT2`.
    public struct ConnectTo: Sendable, Hashable, CustomStringConvertible {
        /// The URL's host this applies to; `nil` for every host.
        public let host: String?
        /// The URL's port this applies to; `nil` for every port.
        public let port: Int?
        /// The host (a name or an IP address, IPv6 without brackets) to connect to; `nil` keeps
        /// the URL's.
        public let targetHost: String?
        /// The port to connect to; `nil` keeps the URL's.
        public let targetPort: Int?

        /// Checks every part; throws ``GannetError/Code/invalidConfiguration`` naming the bad one.
        public init(host: String?, port: Int?, targetHost: String?, targetPort: Int?) throws {
            for (name, value) in [("host", host), ("target host", targetHost)] {
                if let value, !HostSyntax.isHostName(value) && !HostSyntax.isIPAddress(value) {
                    throw GannetError(
                        .invalidConfiguration,
                        "connect-to: the \(name) \(value.debugDescription) is not a host name or IP address"
                    )
                }
            }
            for (name, value) in [("port", port), ("target port", targetPort)] {
                if let value, HostSyntax.port(String(value)) == nil {
                    throw GannetError(.invalidConfiguration, "connect-to: the \(name) \(value) is not 1-65535")
                }
            }
            self.host = host?.lowercased()
            self.port = port
            self.targetHost = targetHost
            self.targetPort = targetPort
        }

        /// Parses curl's `HOST1:PORT1:HOST2:PORT2`; any part may be empty (every host, every
        /// port, the URL's host, the URL's port), IPv6 addresses in brackets
        /// (`example.com:443:[::1]:8443`).
        public init(parsing text: String) throws {
            let invalid = GannetError(
                .invalidConfiguration,
                "connect-to takes HOST1:PORT1:HOST2:PORT2 (any part may be empty), not \(text.debugDescription)"
            )
            var rest = Substring(text)
            var hosts: [String?] = []
            var ports: [Int?] = []
            for index in 0..<2 {
                let host: Substring
                if rest.hasPrefix("[") {
                    guard let close = rest.firstIndex(of: "]") else { throw invalid }
                    host = rest[rest.index(after: rest.startIndex)..<close]
                    rest = rest[rest.index(after: close)...]
                    guard HostSyntax.isIPAddress(String(host)), host.contains(":") else { throw invalid }
                } else {
                    host = rest.prefix { $0 != ":" }
                    rest = rest.dropFirst(host.count)
                    guard !host.contains("]") else { throw invalid }
                }
                guard rest.first == ":" else { throw invalid }
                rest = rest.dropFirst()
                let portText = index == 0 ? rest.prefix { $0 != ":" } : rest
                rest = rest.dropFirst(portText.count)
                if index == 0 {
                    guard rest.first == ":" else { throw invalid }
                    rest = rest.dropFirst()
                }
                if portText.isEmpty {
                    ports.append(nil)
                } else {
                    guard let port = HostSyntax.port(String(portText)) else { throw invalid }
                    ports.append(port)
                }
                hosts.append(host.isEmpty ? nil : String(host))
            }
            try self.init(host: hosts[0], port: ports[0], targetHost: hosts[1], targetPort: ports[1])
        }

        /// libcurl's `CURLOPT_CONNECT_TO` entry.
        public var description: String {
            func write(_ host: String?) -> String {
                guard let host else { return "" }
                return host.contains(":") ? "[\(host)]" : host
            }
            return [write(host), port.map(String.init) ?? "", write(targetHost), targetPort.map(String.init) ?? ""]
                .joined(separator: ":")
        }
    }
}

/// The checks the routing overrides share. libcurl parses these lists itself and skips an entry
/// it cannot read with only a verbose-log line, so a typo would silently route nowhere; they are
/// refused here instead, before anything is sent.
enum HostSyntax {
    /// A DNS name (letters, digits, `-`, `_`, dots, as URLs and libcurl accept), or an IPv4
    /// address, which is spelt the same way.
    static func isHostName(_ text: String) -> Bool {
        // A leading `-` would read as an option wherever the name is passed on.
        guard !text.isEmpty, text.utf8.count <= 253, !text.hasPrefix("."), !text.hasPrefix("-"), !text.contains("..")
        else {
            return false
        }
        return text.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
                return true
            default: return false
            }
        }
    }

    /// An IPv4 address in dotted-quad form or an IPv6 address (no brackets), as `inet_pton`
    /// reads them.
    static func isIPAddress(_ text: String) -> Bool {
        var buffer = (UInt64(0), UInt64(0))
        return withUnsafeMutableBytes(of: &buffer) { bytes in
            inet_pton(AF_INET, text, bytes.baseAddress) == 1 || inet_pton(AF_INET6, text, bytes.baseAddress) == 1
        }
    }

    /// A port written as 1 to 5 digits, 1...65535.
    static func port(_ text: String) -> Int? {
        guard (1...5).contains(text.utf8.count), text.utf8.allSatisfy({ (48...57).contains($0) }),
            let port = Int(text), (1...65535).contains(port)
        else { return nil }
        return port
    }
}
