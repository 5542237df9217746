extension ResponseHead {
    /// A head's header fields in arrival order, names as sent, repeats kept: their bytes in one
    /// buffer, as they were on their lines, and where each name and value lies. The buffer
    /// begins with the status line's reason phrase, which ``ResponseHead/reasonPhrase`` reads: a
    /// `String` of its own made `ResponseHead` one word too large to be copied in registers, and
    /// its copies went through its value witnesses (docs/performance.md, "The head's fields as
    /// bytes").
    ///
    /// A field's `String`s are made only when it is read. Most fields of a response are never
    /// read (`Date`, `Server`, `ETag` of a plain GET), yet each cost two `String`s to make and
    /// free, and a tuple to destroy through the runtime's generic witness. The lookups the
    /// engine makes for every response (``firstValue(named:)``, ``values(named:)``,
    /// ``contains(named:)``) compare bytes and make a `String` only of what they return.
    package struct Fields: RandomAccessCollection, Equatable, Sendable {
        /// The reason phrase, then each field's line from its name to the end of its value
        /// (`Name: value`), back to back.
        private var bytes: [UInt8] = []
        /// Where each field's name and value lie in `bytes`.
        private var spans: [Span] = []

        private struct Span: Equatable, Sendable {
            var name: Range<Int>
            var value: Range<Int>
        }

        /// No fields, no reason phrase.
        package init() {}

        /// These fields, in this order, after `reasonPhrase`.
        package init(_ fields: [(name: String, value: String)], reasonPhrase: String = "") {
            bytes.append(contentsOf: reasonPhrase.utf8)
            for field in fields { append(name: field.name, value: field.value) }
        }

        /// No fields yet, after the reason phrase `reason`, with room for `fields` fields of
        /// `bytes` bytes in all.
        package init(reasonPhrase reason: UnsafeBufferPointer<UInt8>, reservingFields fields: Int, bytes count: Int) {
            spans.reserveCapacity(fields)
            bytes.reserveCapacity(count)
            bytes.append(contentsOf: reason)
        }

        /// The reason phrase the fields follow, decoded as UTF-8.
        package var reasonPhrase: String {
            bytes.withUnsafeBufferPointer { all in
                String(
                    decoding: UnsafeBufferPointer(rebasing: all[0..<(spans.first?.name.lowerBound ?? all.count)]),
                    as: UTF8.self
                )
            }
        }

        package var startIndex: Int { 0 }
        package var endIndex: Int { spans.count }

        /// The field at `position`, its name and value decoded as UTF-8 (an invalid sequence
        /// becomes U+FFFD, as `String(decoding:as:)` makes it).
        package subscript(position: Int) -> (name: String, value: String) {
            let span = spans[position]
            return bytes.withUnsafeBufferPointer { all in
                (
                    String(decoding: UnsafeBufferPointer(rebasing: all[span.name]), as: UTF8.self),
                    String(decoding: UnsafeBufferPointer(rebasing: all[span.value]), as: UTF8.self)
                )
            }
        }

        /// Appends the field of a header line whose name is `line[name]` and value `line[value]`
        /// (the value after the name): the line is copied from the name to the value's end in
        /// one piece.
        package mutating func append(line: UnsafeBufferPointer<UInt8>, name: Range<Int>, value: Range<Int>) {
            let offset = bytes.count - name.lowerBound
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: line[name.lowerBound..<value.upperBound]))
            spans.append(
                Span(
                    name: (name.lowerBound + offset)..<(name.upperBound + offset),
                    value: (value.lowerBound + offset)..<bytes.count
                )
            )
        }

        /// Appends a field.
        package mutating func append(name: String, value: String) {
            let start = bytes.count
            bytes.append(contentsOf: name.utf8)
            let valueStart = bytes.count
            bytes.append(contentsOf: value.utf8)
            spans.append(Span(name: start..<valueStart, value: valueStart..<bytes.count))
        }

        /// Joins `continuation` to the last field's value with one space, or makes it the value
        /// when the value is empty: an obs-fold line (RFC 9112 §5.2). The last field's value
        /// ends the buffer, so it grows in place. Requires a field.
        package mutating func extendLastValue(with continuation: UnsafeBufferPointer<UInt8>) {
            let last = spans.count - 1
            if !spans[last].value.isEmpty { bytes.append(0x20) }
            bytes.append(contentsOf: continuation)
            spans[last].value = spans[last].value.lowerBound..<bytes.count
        }

        /// Whether the name of the field at `position` is `name`, compared case-insensitively.
        package func name(at position: Int, is name: String) -> Bool {
            let span = spans[position]
            return bytes.withUnsafeBufferPointer { all in
                Self.equalsIgnoringCase(UnsafeBufferPointer(rebasing: all[span.name]), name)
            }
        }

        /// The value of the first field named `name` (compared case-insensitively), or `nil`.
        package func firstValue(named name: String) -> String? {
            bytes.withUnsafeBufferPointer { all in
                for span in spans
                where Self.equalsIgnoringCase(UnsafeBufferPointer(rebasing: all[span.name]), name) {
                    return String(decoding: UnsafeBufferPointer(rebasing: all[span.value]), as: UTF8.self)
                }
                return nil
            }
        }

        /// Whether there is a field named `name` (compared case-insensitively) and the bytes of
        /// the first one's value satisfy `predicate`: a question of a value that needs no `String`
        /// of it. Not generic: another module's call of a generic form ran unspecialized and
        /// looked up metadata at run time, which cost more than the `String`.
        package func firstValue(named name: String, satisfies predicate: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
            bytes.withUnsafeBufferPointer { all in
                for span in spans where Self.equalsIgnoringCase(UnsafeBufferPointer(rebasing: all[span.name]), name) {
                    return predicate(UnsafeBufferPointer(rebasing: all[span.value]))
                }
                return false
            }
        }

        /// The values of every field named `name` (compared case-insensitively), in order.
        package func values(named name: String) -> [String] {
            bytes.withUnsafeBufferPointer { all in
                var values: [String] = []
                for span in spans
                where Self.equalsIgnoringCase(UnsafeBufferPointer(rebasing: all[span.name]), name) {
                    values.append(
                        String(decoding: UnsafeBufferPointer(rebasing: all[span.value]), as: UTF8.self)
                    )
                }
                return values
            }
        }

        /// The values of every field named `name` (compared case-insensitively) joined by ", ",
        /// as `HTTPURLResponse` joins them, or `nil`. Nearly always one field: its value, with no
        /// array made on the way.
        package func joinedValue(named name: String) -> String? {
            bytes.withUnsafeBufferPointer { all in
                var joined: String?
                for span in spans where Self.equalsIgnoringCase(UnsafeBufferPointer(rebasing: all[span.name]), name) {
                    let value = String(decoding: UnsafeBufferPointer(rebasing: all[span.value]), as: UTF8.self)
                    joined = joined.map { $0 + ", " + value } ?? value
                }
                return joined
            }
        }

        /// The media type the `Content-Type` fields name, as `MediaTypeParser` reads their joined
        /// value (``joinedValue(named:)``); the one field of nearly every response is read from
        /// its bytes, with no `String` made of its value.
        package var contentType: MediaType? {
            bytes.withUnsafeBufferPointer { all in
                var found: Span?
                for span in spans
                where Self.equalsIgnoringCase(UnsafeBufferPointer(rebasing: all[span.name]), "Content-Type") {
                    // Repeated: the joined value, as `HTTPURLResponse` holds it.
                    if found != nil {
                        return joinedValue(named: "Content-Type").flatMap(MediaTypeParser.parseContentType)
                    }
                    found = span
                }
                return found.flatMap { MediaTypeParser.parseContentType(UnsafeBufferPointer(rebasing: all[$0.value])) }
            }
        }

        /// Whether a field is named `name` (compared case-insensitively).
        package func contains(named name: String) -> Bool {
            bytes.withUnsafeBufferPointer { all in
                spans.contains { Self.equalsIgnoringCase(UnsafeBufferPointer(rebasing: all[$0.name]), name) }
            }
        }

        /// Equal fields in the same order, compared as the `String`s they read as (the reason
        /// phrase is not compared): a value with bytes that are not UTF-8 equals the one written
        /// out from it and parsed again, as when fields were kept as `String`s (found by the
        /// response-head fuzz target, docs/reliability.md).
        package static func == (a: Fields, b: Fields) -> Bool {
            a.count == b.count && zip(a, b).allSatisfy { $0.name == $1.name && $0.value == $1.value }
        }

        private static func equalsIgnoringCase(_ bytes: UnsafeBufferPointer<UInt8>, _ name: String) -> Bool {
            // Most names compared differ in length: no need to reach the name's bytes.
            guard bytes.count == name.utf8.count else { return false }
            if let inPlace = name.utf8.withContiguousStorageIfAvailable({ ASCII.equalsIgnoringCase(bytes, $0) }) {
                return inPlace
            }
            return Array(name.utf8).withUnsafeBufferPointer { ASCII.equalsIgnoringCase(bytes, $0) }
        }
    }
}
