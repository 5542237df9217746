/// A failure of reachability monitoring: a target that cannot be monitored, a netlink socket the
/// system refused, or a netlink message that does not follow rtnetlink(7)'s layout.
///
/// Codes are static members of an open struct, so adding one is not a breaking change:
///
/// ```swift
/// do { try manager.startMonitoring() } catch where error.code == .socketFailed { … }
/// ```
public struct ReachabilityError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure this is.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// A short identifier, stable across releases.
        public let name: String
        init(_ name: String) { self.name = name }
        /// The identifier, as ``name``.
        public var description: String { name }

        /// A host name that is empty, too long or holds characters no host name has.
        public static let invalidHost = Code("invalidHost")
        /// An address string that is neither dotted IPv4 nor IPv6 text.
        public static let invalidAddress = Code("invalidAddress")
        /// Opening, binding or using the `NETLINK_ROUTE` socket failed; ``ReachabilityError/systemError`` holds `errno`.
        public static let socketFailed = Code("socketFailed")
        /// A netlink message is truncated or its lengths disagree; ``ReachabilityError/offset`` says where.
        public static let malformedMessage = Code("malformedMessage")
        /// The kernel dropped notifications because the socket's buffer was full (`ENOBUFS`).
        public static let overrun = Code("overrun")
    }

    /// What kind of failure this is.
    public let code: Code
    /// A one-line, human-readable reason.
    public let message: String
    /// The byte offset in the netlink buffer where a malformed message was found.
    public let offset: Int?
    /// The `errno` of a failed system call.
    public let systemError: Int32?

    /// Creates an error.
    public init(_ code: Code, _ message: String, offset: Int? = nil, systemError: Int32? = nil) {
        self.code = code
        self.message = message
        self.offset = offset
        self.systemError = systemError
    }

    /// The message.
    public var description: String { message }
}

extension ReachabilityError: LocalizedError {
    /// The message, for `localizedDescription`.
    public var errorDescription: String? { description }
}
