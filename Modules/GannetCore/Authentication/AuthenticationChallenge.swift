#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// Where credentials apply (URLSession's `URLProtectionSpace`, as a value): the server or
/// proxy, its realm and the authentication scheme it asked for.
public struct ProtectionSpace: Sendable, Hashable {
    /// The server's (or proxy's) host.
    public let host: String
    /// Its port.
    public let port: Int
    /// `http` or `https` (the request's scheme; for a proxy, the proxy URL's).
    public let `protocol`: String
    /// The `realm` parameter of the challenge, if any.
    public let realm: String?
    /// The scheme, as the server spelled it: `Basic`, `Digest`, `NTLM`, `Negotiate`, `Bearer`…
    public let authenticationMethod: String
    /// The challenge came from a proxy (`407`, `Proxy-Authenticate`).
    public let isProxy: Bool
}

/// A `401` or `407` response's challenge, as an authentication challenge handler receives it
/// (AFNetworking 4's `authenticationChallengeHandler`, for HTTP authentication).
public struct AuthenticationChallenge: Sendable {
    /// The challenge of the response Gannet answers: the strongest scheme it computes among those
    /// offered (NTLM, then Digest, then Basic; those of ``SessionManager/credentialSchemes``
    /// first), else the first challenge.
    public let protectionSpace: ProtectionSpace
    /// Every challenge the response carried, in order, with its parameters.
    public let challenges: [AuthenticationChallengeHeader.Challenge]
    /// How many times a credential for this space was already refused in this task.
    public let previousFailureCount: Int
    /// The `401` or `407` response.
    public let failureResponse: HTTPURLResponse?
}

/// What a challenge handler answers (`NSURLSessionAuthChallengeDisposition`).
public enum AuthenticationDisposition: Sendable {
    /// Retry the request with this credential, in the scheme of the challenge's protection
    /// space (Basic, Digest and NTLM are computed by libcurl), whichever origin asked: the
    /// handler decides for this challenge.
    case useCredential(URLCredential)
    /// As if there were no handler: the task's or the manager's credential on the first
    /// attempt (to the caller's origin, in ``SessionManager/credentialSchemes`` only), a stored
    /// one for the space, else the response goes to the caller.
    case performDefaultHandling
    /// Fail the task with `URLError.userCancelledAuthentication`.
    case cancelAuthenticationChallenge
    /// Decline this space: the response goes to the caller.
    case rejectProtectionSpace
    /// Fail the task with this error (AFNetworking 4's handler returning an `NSError`).
    case fail(any Error)
}

/// `WWW-Authenticate` and `Proxy-Authenticate` (RFC 9110 §11.6.1), parsed. A value type with no
/// I/O, unit-tested on malformed input: it never traps, and what it cannot read it skips.
public enum AuthenticationChallengeHeader {
    /// One challenge: its scheme and its parameters (names lower-cased), or a token68.
    public struct Challenge: Sendable, Hashable {
        /// The scheme as sent (`Basic`, `Digest`…).
        public let scheme: String
        /// `realm`, `nonce`, `qop`… with quoted-string escapes resolved.
        public let parameters: [String: String]
        /// The token68 form (`Negotiate abc==`), if used instead of parameters.
        public let token68: String?
    }

    /// Every challenge in `values` (one per header field; a field may hold several).
    public static func parse(_ values: [String]) -> [Challenge] {
        values.flatMap { parse(Array($0.utf8)) }
    }

    static func parse(_ bytes: [UInt8]) -> [Challenge] {
        var index = 0
        var challenges: [Challenge] = []
        func skip(_ set: Set<UInt8>) { while index < bytes.count, set.contains(bytes[index]) { index += 1 } }
        func token() -> String? {
            let start = index
            while index < bytes.count, HTTPSyntax.isTokenByte(bytes[index]) { index += 1 }
            return index > start ? String(decoding: bytes[start..<index], as: UTF8.self) : nil
        }
        func quoted() -> String? {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
            var cursor = index + 1
            var value: [UInt8] = []
            while cursor < bytes.count {
                if bytes[cursor] == UInt8(ascii: "\"") {
                    index = cursor + 1
                    return String(decoding: value, as: UTF8.self)
                }
                if bytes[cursor] == UInt8(ascii: "\\"), cursor + 1 < bytes.count { cursor += 1 }
                value.append(bytes[cursor])
                cursor += 1
            }
            index = bytes.count
            return String(decoding: value, as: UTF8.self)
        }
        let space: Set<UInt8> = [0x20, 0x09]
        let separators: Set<UInt8> = [0x20, 0x09, UInt8(ascii: ",")]
        while index < bytes.count {
            skip(separators)
            guard let scheme = token() else {
                // Not a scheme: skip to the next comma.
                while index < bytes.count, bytes[index] != UInt8(ascii: ",") { index += 1 }
                continue
            }
            var parameters: [String: String] = [:]
            var token68: String?
            skip(space)
            // Parameters (or a token68) until the next token that is followed by a space and
            // not by `=`: that is the next challenge's scheme.
            while index < bytes.count {
                skip(separators)
                let mark = index
                guard let name = token() else {
                    if index < bytes.count { index += 1 }
                    continue
                }
                skip(space)
                if index < bytes.count, bytes[index] == UInt8(ascii: "=") {
                    // `name=value`, or a token68 ending in `=` padding.
                    index += 1
                    skip(space)
                    if let value = quoted() ?? token() {
                        if parameters[name.lowercased()] == nil { parameters[name.lowercased()] = value }
                    } else if parameters.isEmpty, token68 == nil {
                        while index < bytes.count, bytes[index] == UInt8(ascii: "=") { index += 1 }
                        token68 = String(decoding: bytes[mark..<index], as: UTF8.self)
                    }
                } else if parameters.isEmpty, token68 == nil,
                    index == bytes.count || bytes[index] == UInt8(ascii: ","), isToken68(name)
                {
                    token68 = name
                } else {
                    // The next challenge's scheme.
                    index = mark
                    break
                }
            }
            challenges.append(Challenge(scheme: scheme, parameters: parameters, token68: token68))
        }
        return challenges
    }

    private static func isToken68(_ text: String) -> Bool {
        text.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || "-._~+/".utf8.contains(byte)
        }
    }
}
