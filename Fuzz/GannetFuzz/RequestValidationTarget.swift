import Foundation

@testable import GannetCore

extension FuzzTarget {
    /// Header names and values. Invariants: a name that passes is a non-empty RFC 9110 token;
    /// a value that passes holds no control character but HTAB; the problem, when there is one,
    /// never quotes the value (it may be a credential).
    static let headerValidation = FuzzTarget(name: "header-validation") { bytes in
        var input = FuzzInput(bytes)
        let name = input.string(limit: 256)
        let value = input.string()
        if RequestValidation.isValidHeaderName(name) {
            require(!name.isEmpty && name.utf8.allSatisfy(HTTPSyntax.isTokenByte), "name \(name.debugDescription)")
        }
        if RequestValidation.isValidHeaderValue(value) {
            require(
                !value.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\t") || $0.value == 0x7F },
                "value \(value.debugDescription)"
            )
        }
        if let problem = RequestValidation.problem(headerName: name, value: value) {
            require(problem.code == .invalidHeader, "code \(problem.code)")
            // The name is quoted: a value that is part of the name proves nothing. Bytes, not
            // Foundation's `contains`, which traps on a needle of NULs longer than the text
            // (swift-corelibs-foundation, Swift 6.3; docs/reliability.md).
            require(
                value.utf8.count < 4 || includes(name, value) || !includes(problem.message, value),
                "message quotes the value"
            )
        }
    }

    /// URLs as Foundation parses them, then the engine's check. Invariants: an http(s) URL that
    /// passes has a host free of controls and spaces, only printable ASCII in its text and a
    /// port in range; a failure is a `GannetError`.
    static let urlValidation = FuzzTarget(name: "url-validation") { bytes in
        let text = String(decoding: bytes, as: UTF8.self)
        guard let url = URL(string: text) else { return }
        let problem = RequestValidation.problem(url: url)
        do {
            try RequestValidation.validate(method: "GET", url: url, headers: [])
            require(problem == nil, "validate passed a URL with a problem")
            require(
                url.absoluteString.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F },
                "text \(url.absoluteString.debugDescription)"
            )
            let host = url.host ?? ""
            require(!host.isEmpty, "no host in \(url.absoluteString.debugDescription)")
            require(
                !host.unicodeScalars.contains { $0.value <= 0x20 || $0.value == 0x7F },
                "host \(host.debugDescription)"
            )
            require(url.port.map { (0...65535).contains($0) } ?? true, "port \(String(describing: url.port))")
        } catch {
            require(error is GannetError, "validate threw \(type(of: error))")
        }
        _ = RequestValidation.printable(text)
    }

    private static func includes(_ text: String, _ part: String) -> Bool {
        let text = Array(text.utf8)
        let part = Array(part.utf8)
        guard part.count <= text.count else { return false }
        return (0...(text.count - part.count)).contains { text[$0..<($0 + part.count)].elementsEqual(part) }
    }
}
