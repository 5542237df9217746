@testable import GannetCore

extension FuzzTarget {
    /// `ResponseHeadParser` fed the input's lines as libcurl delivers them. Invariants: every
    /// failure is a `GannetError`; a complete head has a status code of three digits, token
    /// names and values without CR, LF or NUL; and writing a head back out and parsing it again
    /// gives the same head.
    static let responseHead = FuzzTarget(name: "response-head") { bytes in
        var limits = SessionConfiguration.Limits()
        limits.maximumHeaderBytes = 8192
        limits.maximumHeaderCount = 64
        limits.maximumInformationalResponses = 4
        var parser = ResponseHeadParser(limits: limits)
        for line in lines(bytes) {
            let event: ResponseHeadParser.Event
            do {
                event = try line.withUnsafeBytes { try parser.consume($0) }
            } catch {
                require(error is GannetError, "response-head threw \(type(of: error))")
                return
            }
            guard case .complete(let head) = event else { continue }
            check(head)
            var again = ResponseHeadParser(limits: SessionConfiguration.Limits())
            var reparsed: ResponseHead?
            do {
                for line in lines(serialized(head)) {
                    if case .complete(let other) = try line.withUnsafeBytes({ try again.consume($0) }) {
                        reparsed = other
                    }
                }
            } catch {
                require(false, "a parsed head does not parse again: \(error) \(head)")
            }
            require(reparsed == head, "round trip changed \(head) into \(String(describing: reparsed))")
        }
    }

    private static func check(_ head: ResponseHead) {
        require((100...999).contains(head.statusCode), "status code \(head.statusCode)")
        for field in head.fields {
            require(RequestValidation.isValidHeaderName(field.name), "field name \(field.name.debugDescription)")
            require(
                !field.value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 }),
                "field value \(field.value.debugDescription)"
            )
        }
    }

    /// The input cut after each LF, the LF kept, as curl's header callback sees it.
    private static func lines(_ bytes: [UInt8]) -> [[UInt8]] {
        var result: [[UInt8]] = []
        var current: [UInt8] = []
        for byte in bytes {
            current.append(byte)
            if byte == 0x0A {
                result.append(current)
                current = []
            }
        }
        if !current.isEmpty { result.append(current) }
        return result
    }

    private static func serialized(_ head: ResponseHead) -> [UInt8] {
        var text = "\(head.httpVersion) \(head.statusCode)"
        if !head.reasonPhrase.isEmpty { text += " \(head.reasonPhrase)" }
        text += "\r\n"
        for field in head.fields { text += "\(field.name): \(field.value)\r\n" }
        return Array((text + "\r\n").utf8)
    }
}
