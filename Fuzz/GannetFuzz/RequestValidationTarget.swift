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
            // The message never depends on the value (it may be a credential): the same name
            // with any other value that fails the same way gives the same message.
            let other = RequestValidation.isValidHeaderName(name) ? "\u{0}" : "v"
            let reference = RequestValidation.problem(headerName: name, value: other)
            require(reference?.message == problem.message, "the message depends on the value")
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
}
