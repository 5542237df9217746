internal import Glibc
internal import Synchronization

/// A `NETLINK_ROUTE` socket: either subscribed to link and route notifications, or used for
/// request/reply (dumps and route lookups). Owns its descriptor and closes it in `deinit`.
///
/// Sendable: the descriptor is immutable, the sequence counter sits in a `Mutex`, and the
/// kernel serializes concurrent `send`/`recv` on one socket; Gannet calls each socket from one
/// serial queue anyway.
final class NetlinkSocket: Sendable {
    let descriptor: Int32
    private let nextSequence = Mutex<UInt32>(1)
    /// Large enough for any one datagram the kernel sends on rtnetlink (dump parts are at most
    /// 32 KiB); a longer one is reported, never silently cut.
    private static let receiveBufferSize = 64 * 1024

    /// Opens and binds a socket. `groups` is the `nl_groups` mask (0 for a request socket);
    /// `receiveTimeout` bounds how long a request waits for the kernel's reply.
    init(groups: UInt32, nonBlocking: Bool, receiveTimeout: Int? = nil) throws(ReachabilityError) {
        var type = Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        if nonBlocking { type |= Int32(SOCK_NONBLOCK.rawValue) }
        let descriptor = socket(Netlink.family, type, Netlink.routeProtocol)
        guard descriptor >= 0 else { throw Self.failure("socket(AF_NETLINK, NETLINK_ROUTE)") }
        self.descriptor = descriptor
        if let receiveTimeout {
            var timeout = timeval(tv_sec: receiveTimeout, tv_usec: 0)
            guard setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size)) == 0
            else {
                throw Self.failure("setsockopt(SO_RCVTIMEO)")
            }
        }
        // struct sockaddr_nl { sa_family_t nl_family; u16 nl_pad; u32 nl_pid; u32 nl_groups; }
        // nl_pid 0: the kernel assigns the port.
        var address = sockaddr_storage()
        withUnsafeMutableBytes(of: &address) { raw in
            raw.storeBytes(of: UInt16(Netlink.family), toByteOffset: 0, as: UInt16.self)
            raw.storeBytes(of: groups, toByteOffset: 8, as: UInt32.self)
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, 12) }
        }
        guard bound == 0 else { throw Self.failure("bind(AF_NETLINK, groups \(groups))") }
    }

    deinit { close(descriptor) }

    /// What one `recv` brought.
    enum Received {
        /// The messages of one datagram from the kernel.
        case messages([NetlinkMessage])
        /// Nothing waiting (non-blocking socket) or the receive timeout passed.
        case nothing
        /// Notifications were lost (`ENOBUFS`) or a datagram did not fit: state must be re-read.
        case overrun
    }

    /// Receives one datagram. Datagrams from anyone but the kernel (port 0) are dropped, since a
    /// local process may send to this port.
    func receive() throws(ReachabilityError) -> Received {
        var buffer = [UInt8](repeating: 0, count: Self.receiveBufferSize)
        var source = sockaddr_storage()
        var sourceLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let count = buffer.withUnsafeMutableBytes { raw in
            withUnsafeMutablePointer(to: &source) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    recvfrom(descriptor, raw.baseAddress, raw.count, Int32(MSG_TRUNC), $0, &sourceLength)
                }
            }
        }
        if count < 0 {
            switch errno {
            case EAGAIN, EWOULDBLOCK: return .nothing
            case EINTR: return try receive()
            case ENOBUFS: return .overrun
            default: throw Self.failure("recvfrom(netlink)")
            }
        }
        guard count <= buffer.count else { return .overrun }
        let senderPort = withUnsafeBytes(of: &source) { $0.load(fromByteOffset: 4, as: UInt32.self) }
        guard senderPort == 0 else { return .messages([]) }
        return .messages(try NetlinkMessage.parse(Array(buffer[0..<count])))
    }

    /// The reply to a request: the messages, or the errno of an `NLMSG_ERROR`.
    enum Reply {
        case messages([NetlinkMessage])
        case failed(errno: Int32)
    }

    /// Sends the request `make` builds with this socket's next sequence number and collects the
    /// reply: every part up to `NLMSG_DONE` for a dump, the single answer otherwise.
    func transact(_ make: (UInt32) -> NetlinkRequest) throws(ReachabilityError) -> Reply {
        let request = make(
            nextSequence.withLock { sequence in
                defer { sequence = sequence &+ 1 == 0 ? 1 : sequence &+ 1 }
                return sequence
            }
        )
        let sent = request.bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, 0) }
        guard sent == request.bytes.count else { throw Self.failure("send(netlink request)") }
        var collected: [NetlinkMessage] = []
        while true {
            switch try receive() {
            case .nothing:
                throw ReachabilityError(
                    .socketFailed,
                    "the kernel did not answer a netlink request",
                    systemError: EAGAIN
                )
            case .overrun:
                throw ReachabilityError(
                    .overrun,
                    "a netlink reply did not fit the receive buffer",
                    systemError: ENOBUFS
                )
            case .messages(let messages):
                for message in messages where message.sequence == request.sequence {
                    switch message.payload {
                    case .error(let code) where code != 0: return .failed(errno: code)
                    case .error, .done: return .messages(collected)
                    default:
                        collected.append(message)
                        if !request.isDump && !message.isMultipart { return .messages(collected) }
                    }
                }
            }
        }
    }

    private static func failure(_ call: String) -> ReachabilityError {
        let code = errno
        return ReachabilityError(.socketFailed, "\(call) failed: \(String(cString: strerror(code)))", systemError: code)
    }
}
