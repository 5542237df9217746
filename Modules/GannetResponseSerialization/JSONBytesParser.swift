/// Parses a JSON body straight from its UTF-8 bytes into the sendable tree that
/// ``JSONResponseSerializer`` returns, in one pass: the same values, to the type and to every
/// `NSNumber`'s `objCType`, that `JSONTree.sendable(JSONSerialization.jsonObject(...))` gives.
///
/// Going through `JSONSerialization` builds the document three times (its own enum tree, then
/// Foundation objects, then ``JSONTree``'s sendable copy); this builds it once, from one byte
/// buffer and an index, making a `String` only for each finished key or value.
///
/// ## What it leaves to JSONSerialization
/// ``parse(_:options:removingNulls:)`` returns `nil`, and the caller parses with
/// `JSONSerialization`, for everything it does not reproduce exactly:
/// - any error, so that the error and its message stay `JSONSerialization`'s own: syntax,
///   invalid UTF-8, unpaired surrogate escapes, nesting deeper than 512, a fragment without
///   `.fragmentsAllowed`, a number out of `Double`'s range;
/// - reading options other than `.fragmentsAllowed`, `.mutableContainers` and `.mutableLeaves`;
/// - bodies that are not plain UTF-8: a byte-order mark, or the NUL bytes from which
///   `JSONSerialization` guesses UTF-16 or UTF-32 (both are syntax errors here);
/// - a trailing comma (`[1,]`), which `JSONSerialization` on Linux accepts beyond RFC 8259 and
///   ``JSONResponseSerializer`` then refuses (``JSONTrailingComma``);
/// - a raw U+FEFF opening a string or following an escape, where `String(bytes:encoding:)`
///   drops it;
/// - an exponent too long for an `Int` (see `JSONBytesParser+Numbers.swift`).
///
/// Package access: the tests and the differential fuzz target compare it with the fallback.
package struct JSONBytesParser {
    /// The fast path stops: not an error of the document, only a reason to fall back.
    struct Unsupported: Error {}

    /// The options whose results this parser reproduces; `.mutable…` ones have no effect on
    /// the sendable tree, which is made of Swift values either way.
    package static let supportedOptions: JSONSerialization.ReadingOptions = [
        .fragmentsAllowed, .mutableContainers, .mutableLeaves,
    ]

    /// `JSONSerialization` on Linux refuses a 513th nested array or object.
    package static let maximumDepth = 512

    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    private var depth = 0
    private let removingNulls: Bool
    /// Members of the objects being read, innermost last: an object is built at its `}` with
    /// room for exactly its members, instead of growing (and rehashing) member by member.
    /// Two arrays rather than one of pairs, whose elements Swift copies through the runtime's
    /// generic tuple witnesses.
    private var keys: [String] = []
    private var values: [any Sendable] = []
    /// The UTF-8 of a string with escapes, reused from one string to the next.
    var unescaped: [UInt8] = []

    private init(bytes: UnsafeBufferPointer<UInt8>, removingNulls: Bool) {
        self.bytes = bytes
        self.removingNulls = removingNulls
        keys.reserveCapacity(64)
        values.reserveCapacity(64)
    }

    /// The sendable tree of `data`, nulls dropped at every depth when `removingNulls` (a
    /// top-level `null` stays), or `nil` when `JSONSerialization` must parse it instead.
    package static func parse(
        _ data: Data,
        options: JSONSerialization.ReadingOptions = [],
        removingNulls: Bool = false
    ) -> (any Sendable)? {
        guard options.isSubset(of: supportedOptions) else { return nil }
        return data.withUnsafeBytes { raw -> (any Sendable)? in
            let bytes = raw.assumingMemoryBound(to: UInt8.self)
            guard isPlainUTF8(bytes) else { return nil }
            var parser = JSONBytesParser(bytes: bytes, removingNulls: removingNulls)
            return try? parser.document(allowingFragments: options.contains(.fragmentsAllowed))
        }
    }

    /// No byte-order mark and no NUL in the first four bytes. JSON text cannot start with either
    /// anyway, so this only says early, and plainly, why such a body falls back.
    private static func isPlainUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = bytes.first, first < 0x80 else { return false }
        return !bytes.prefix(4).contains(0)
    }

    // MARK: Structure

    private mutating func document(allowingFragments: Bool) throws(Unsupported) -> any Sendable {
        skipWhitespace()
        // Without `.fragmentsAllowed` JSONSerialization throws for any other top-level value.
        guard allowingFragments || peek == UInt8(ascii: "{") || peek == UInt8(ascii: "[") else {
            throw Unsupported()
        }
        let root = try value()
        skipWhitespace()
        guard index == bytes.count else { throw Unsupported() }
        return root
    }

    /// The value at `index`, which is past any whitespace.
    private mutating func value() throws(Unsupported) -> any Sendable {
        switch peek {
        case UInt8(ascii: "\""): return try string()
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "t"):
            try literal("true")
            return NSNumber(value: true)
        case UInt8(ascii: "f"):
            try literal("false")
            return NSNumber(value: false)
        case UInt8(ascii: "n"):
            try literal("null")
            return NSNull()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw Unsupported()
        }
    }

    private mutating func array() throws(Unsupported) -> [any Sendable] {
        try enterContainer()
        defer { depth -= 1 }
        var elements: [any Sendable] = []
        if try firstItemOrEnd(closing: UInt8(ascii: "]")) { return elements }
        while true {
            let isNull = peek == UInt8(ascii: "n")
            let element = try value()
            if !(removingNulls && isNull) { elements.append(element) }
            if try nextItemOrEnd(closing: UInt8(ascii: "]")) { return elements }
        }
    }

    private mutating func object() throws(Unsupported) -> [String: any Sendable] {
        try enterContainer()
        defer { depth -= 1 }
        if try firstItemOrEnd(closing: UInt8(ascii: "}")) { return [:] }
        let first = keys.count
        var hasNull = false
        while true {
            guard peek == UInt8(ascii: "\"") else { throw Unsupported() }
            let key = try string()
            skipWhitespace()
            guard peek == UInt8(ascii: ":") else { throw Unsupported() }
            index += 1
            skipWhitespace()
            hasNull = hasNull || peek == UInt8(ascii: "n")
            let value = try value()
            keys.append(key)
            values.append(value)
            if try nextItemOrEnd(closing: UInt8(ascii: "}")) { break }
        }
        return makeObject(from: first, droppingNulls: removingNulls && hasNull)
    }

    /// The members from `first` on, inserted in document order so that the last of duplicate
    /// keys wins as in JSONSerialization. Nulls go only after every member is in: dropping a
    /// `null` on the way would let an earlier value of the same key survive.
    private mutating func makeObject(from first: Int, droppingNulls: Bool) -> [String: any Sendable] {
        var object: [String: any Sendable] = .init(minimumCapacity: keys.count - first)
        for offset in first..<keys.count { object[keys[offset]] = values[offset] }
        keys.removeSubrange(first...)
        values.removeSubrange(first...)
        guard droppingNulls else { return object }
        return object.filter { !(type(of: $0.value) is NSNull.Type) }
    }

    private mutating func enterContainer() throws(Unsupported) {
        guard depth < Self.maximumDepth else { throw Unsupported() }
        depth += 1
        index += 1
        skipWhitespace()
    }

    /// After the opening bracket: `true` for an empty container, else at the first item.
    private mutating func firstItemOrEnd(closing: UInt8) throws(Unsupported) -> Bool {
        guard index < bytes.count else { throw Unsupported() }
        guard bytes[index] == closing else { return false }
        index += 1
        return true
    }

    /// After an item: `true` at the closing bracket, else past the comma at the next item. A
    /// trailing comma falls back, and the serializer refuses it after JSONSerialization's parse.
    private mutating func nextItemOrEnd(closing: UInt8) throws(Unsupported) -> Bool {
        skipWhitespace()
        if peek == closing {
            index += 1
            return true
        }
        guard peek == UInt8(ascii: ",") else { throw Unsupported() }
        index += 1
        skipWhitespace()
        guard index < bytes.count, bytes[index] != closing else { throw Unsupported() }
        return false
    }

    // MARK: Bytes

    /// The byte at `index`, or 0 (which no JSON token starts with) at the end.
    var peek: UInt8 { index < bytes.count ? bytes[index] : 0 }

    /// JSON's four whitespace bytes, the only ones JSONSerialization skips.
    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): index += 1
            default: return
            }
        }
    }

    /// `true`, `false` or `null`, whose first byte is known.
    private mutating func literal(_ word: StaticString) throws(Unsupported) {
        let count = word.utf8CodeUnitCount
        guard bytes.count - index >= count else { throw Unsupported() }
        for offset in 1..<count where bytes[index + offset] != word.utf8Start[offset] {
            throw Unsupported()
        }
        index += count
    }
}
