import GannetCore

#if canImport(Glibc)
import Glibc
#endif

/// A blocking HTTP/1.1 GET (`Connection: close`) over one socket, for the test servers' own control routes.
///
/// Not Gannet and not URLSession on purpose: it must not depend on the code under test, and it
/// closes its only descriptor before returning, so descriptor-count checks stay exact.
enum LoopbackHTTP {
    static func get(_ url: URL) throws(TestServerError) -> String {
        guard let port = url.port, url.host == "127.0.0.1" else {
            throw TestServerError("LoopbackHTTP only reaches http://127.0.0.1:PORT/, not \(url)")
        }
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestServerError("socket() failed: errno \(errno)") }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw TestServerError("Could not connect to \(url): errno \(errno)") }
        let target = url.query.map { "\(url.path)?\($0)" } ?? url.path
        let request = Array("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
        guard send(fd, request, request.count, Int32(MSG_NOSIGNAL)) == request.count else {
            throw TestServerError("Could not send to \(url): errno \(errno)")
        }
        var response = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            response += buffer[..<count]
        }
        let text = String(decoding: response, as: UTF8.self)
        guard text.hasPrefix("HTTP/1.1 200"), let bodyStart = text.range(of: "\r\n\r\n") else {
            throw TestServerError("Unexpected answer from \(url): \(text.prefix(200).debugDescription)")
        }
        return String(text[bodyStart.upperBound...])
    }
}
