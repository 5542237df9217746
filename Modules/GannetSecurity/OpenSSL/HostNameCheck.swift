internal import COpenSSL
import Foundation

/// RFC 6125 host name and IP address matching through OpenSSL's own functions.
enum HostNameCheck {
    /// Throws ``ServerTrustError/Code/hostMismatch`` unless `leaf` is valid for `host`.
    ///
    /// IP literals (`127.0.0.1`, `::1`, `[::1]`) match only iPAddress subject alternative names
    /// (`X509_check_ip_asc`); names match DNS names, or the common name when the certificate has
    /// no DNS name, with wildcards only as a whole left-most label (`X509_check_host` with
    /// `X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS`).
    static func check(_ leaf: Certificate, host rawHost: String, chain: [Certificate]) throws(ServerTrustError) {
        let host = normalized(rawHost)
        // X509_check_host reads a leading dot as "any host in this domain"; a request's host
        // is one host, so such input (and empty labels) can only be an attack or a bug.
        guard !host.isEmpty, !host.utf8.contains(0), !host.hasPrefix("."), !host.contains("..") else {
            throw ServerTrustError(
                .hostMismatch,
                "Empty or malformed host name \"\(rawHost)\"",
                host: rawHost,
                presentedChain: chain
            )
        }
        let result: Int32
        if isIPAddress(host) {
            result = X509_check_ip_asc(leaf.x509.pointer, host, 0)
        } else {
            result = X509_check_host(
                leaf.x509.pointer,
                host,
                host.utf8.count,
                UInt32(X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS),
                nil
            )
        }
        switch result {
        case 1:
            return
        case 0:
            throw ServerTrustError(
                .hostMismatch,
                "Certificate \(leaf.subjectSummary) is not valid for \(rawHost)",
                host: rawHost,
                presentedChain: chain
            )
        default:
            let error = OpenSSLError.drain("X509_check_host")
            throw ServerTrustError(
                .hostMismatch,
                "Cannot match \(rawHost) against certificate \(leaf.subjectSummary)",
                host: rawHost,
                presentedChain: chain,
                openSSLError: error
            )
        }
    }

    /// Strips IPv6 brackets and one trailing dot of a fully qualified name.
    static func normalized(_ host: String) -> String {
        var host = host
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host.hasSuffix("."), host.count > 1 { host.removeLast() }
        return host
    }

    static func isIPAddress(_ host: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }
}
