import GannetResponseSerialization
import Testing

/// The direct parser against the path it replaces, `JSONTree.sendable(JSONSerialization...)`:
/// the same tree for every document it parses, and `nil` (the fallback) for the rest.
@Suite("JSONBytesParser")
struct JSONBytesParserTests {
    /// Numbers in every shape `NSNumber.fromJSONNumber` tells apart (see
    /// JSONBytesParser+Numbers.swift): small and 64-bit integers, both signs of zero, the
    /// 17-character line between `Double` and `NSDecimalNumber`, `e` against `E`, extremes.
    static let numbers = [
        "0", "1", "-1", "-0", "-0.0", "0.0", "1.0", "1e2", "1E2", "1e-2", "1E-2", "1e+2", "1E+2", "0.1", "0.5",
        "-0.5", "127", "128", "255", "256", "32767", "32768", "2147483647", "2147483648", "-2147483648",
        "-2147483649", "4294967295", "4294967296", "9007199254740993", "12345678901234567", "123456789012345678",
        "9223372036854775807", "9223372036854775808", "18446744073709551615", "18446744073709551616",
        "99999999999999999999", "100000000000000000000", "-922337203685477580", "-999999999999999999",
        "-1000000000000000000", "-9223372036854775807", "-9223372036854775808", "-9223372036854775809",
        "123456789012345678901234567890", "1.2345678901234567", "1.23456789012345678", "962.2950358343828",
        "962.29503583438281", "-962.2950358343828", "3.141592653589793", "0.1234567890123456789e5",
        "12345678901234567890E5", "1.23456789012345678E+5", "123456789012345678.5e200", "123456789012345678.5e127",
        "123456789012345678.5e-128", "123456789012345678.5e-129", "1.0e-300", "1e-400", "-1e-400", "1e308",
        "1.7976931348623157e308", "5e-324", "4.9e-324", "2.2250738585072014e-308", "2.2250738585072011e-308",
        "1.000000000000000000000000000001", "100000000000000000000000000000e-10", "0e0", "0E0", "-0e-0", "0.0e+0",
        "1e0000000000000000000000001", "1.5e-99999999999999999", "-1.5e-7", "1E5", "100", "1e22", "1e23",
        "9007199254740992.0", "0." + String(repeating: "3", count: 40), "1" + String(repeating: "0", count: 100),
        "8.98846567431158e307", "0.30000000000000004", "2.5", "-2.5", "1.5", "1e-7", "123.456e-2",
    ]

    static let strings = [
        #""""#, #""abc""#, #""\"\\\/\b\f\n\r\t""#, #""\u0041\u00e9\u20AC\uFFFF\uFEFF""#, #""\uD83D\uDE00""#,
        #""\ud83d\ude00 and \uDBFF\uDFFF""#, #""\u0000""#, #""a\u0000b""#, #""\n""#, #""\\""#, #""abc\n""#,
        #""\nabc""#, "\"é € 😀 日本語 e\u{301} \u{7F} \u{FFFE}\"", "\"a\u{FEFF}b\"", #""\u00e9\n\u00E9""#,
        "\"\\n\u{E9}\\t\u{1F600}\"", #""/ \/ \\\/""#, #""\uFEFF""#, #""\uFEFFa\u00e9""#, "\"\\uFEFFa\u{FEFF}é\"",
    ]

    static let containers = [
        "[]", "{}", "[[]]", "[{}]", #"{"a":{}}"#, #"{"a":[]}"#, "[true,false,null]", #"{"t":true,"f":false,"n":null}"#,
        #"{"a":1,"a":2}"#, #"{"a":1,"b":2,"a":3}"#, #"{"\u00e9":1,"e\u0301":2}"#, #"{"e\u0301":1,"\u00e9":2}"#,
        #"{"a\nb":"c","\u0000":0,"😀":"\uD83D\uDE00"}"#, " \t\n\r[ \t\n\r1 \t\n\r, \t\n\r2 \t\n\r] \t\n\r",
        "{ \"a\" : 1 , \"b\" :[ ] ,\"c\"\n:\r{\t}}", #"[1,"two",{"three":[3.0,null,true]}]"#,
        #"{"users":[{"id":1,"name":"Ann","score":962.2950358343828,"tags":["a","b"],"zip":null}]}"#,
        #"{"a":null,"b":[null,{"c":null,"d":[null,null]},null],"e":{"f":{"g":null}}}"#, #"[null]"#, #"[[null],null]"#,
        #"{"a":1,"a":null}"#, #"{"a":null,"a":1}"#, #"{"e\u0301":null,"\u00e9":1}"#, #"{"e\u0301":1,"\u00e9":null}"#,
    ]

    static let fragments = ["1", "-1.5", #""s""#, "null", "true", "false", " 1 ", "\t\"x\"\n", "12345678901234567890"]

    static let optionSets: [JSONSerialization.ReadingOptions] = [
        [], .fragmentsAllowed, .mutableContainers, .mutableLeaves,
        [.fragmentsAllowed, .mutableContainers, .mutableLeaves],
    ]

    @Test("Numbers give the NSNumber JSONSerialization gives: type, objCType, text and casts")
    func numbers() {
        for number in Self.numbers {
            expectSameAsJSONSerialization("[\(number)]")
            expectSameAsJSONSerialization(number, options: .fragmentsAllowed)
            expectSameAsJSONSerialization(#"{"n":\#(number)}"#)
        }
    }

    @Test("Strings: escapes, surrogate pairs, \\u0000, UTF-8 of 1 to 4 bytes, as values and as keys")
    func strings() {
        for string in Self.strings {
            expectSameAsJSONSerialization("[\(string)]")
            expectSameAsJSONSerialization("{\(string):\(string)}")
            expectSameAsJSONSerialization(string, options: .fragmentsAllowed)
        }
    }

    @Test("Containers, literals, whitespace and duplicate keys, with and without null removal and each option")
    func containers() {
        for text in Self.containers {
            for options in Self.optionSets {
                expectSameAsJSONSerialization(text, options: options)
                expectSameAsJSONSerialization(text, options: options, removingNulls: true)
            }
        }
    }

    @Test("Fragments need .fragmentsAllowed: without it the fast path leaves the error to JSONSerialization")
    func fragments() {
        for text in Self.fragments {
            expectSameAsJSONSerialization(text, options: .fragmentsAllowed)
            expectSameAsJSONSerialization(text, options: .fragmentsAllowed, removingNulls: true)
            #expect(JSONBytesParser.parse(Data(text.utf8)) == nil, "\(text)")
        }
    }

    @Test("Nesting: 512 levels parse, 513 fall back to JSONSerialization's error")
    func depth() throws {
        let limit = JSONBytesParser.maximumDepth
        #expect(limit == 512)
        for depth in [1, 2, limit - 1, limit] {
            expectSameAsJSONSerialization(String(repeating: "[", count: depth) + String(repeating: "]", count: depth))
            expectSameAsJSONSerialization(
                String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)
            )
        }
        let tooDeep = String(repeating: "[", count: limit + 1) + String(repeating: "]", count: limit + 1)
        #expect(JSONBytesParser.parse(Data(tooDeep.utf8)) == nil)
        #expect(throws: (any Error).self) { try JSONSerialization.jsonObject(with: Data(tooDeep.utf8)) }
    }

    /// Inputs the fast path leaves to JSONSerialization, which either throws or parses them.
    static let fallbacks: [(String, Data)] =
        [
            ("byte-order mark", Data([0xEF, 0xBB, 0xBF]) + Data("[1]".utf8)),
            ("UTF-16LE", Data([0x5B, 0x00, 0x31, 0x00, 0x5D, 0x00])),
            ("UTF-16BE", Data([0x00, 0x5B, 0x00, 0x31, 0x00, 0x5D])),
            ("UTF-16LE with mark", Data([0xFF, 0xFE, 0x5B, 0x00, 0x31, 0x00, 0x5D, 0x00])),
            ("UTF-32LE", Data([0x5B, 0, 0, 0, 0x31, 0, 0, 0, 0x5D, 0, 0, 0])),
            ("UTF-32BE", Data([0, 0, 0, 0x5B, 0, 0, 0, 0x31, 0, 0, 0, 0x5D])),
            ("trailing comma in an array", Data("[1,]".utf8)),
            ("trailing comma in an object", Data(#"{"a":1,}"#.utf8)),
            ("trailing comma and spaces", Data("[1 , ]".utf8)),
            ("string opening with U+FEFF", Data([0x5B, 0x22, 0xEF, 0xBB, 0xBF, 0x61, 0x22, 0x5D])),
            ("U+FEFF after an escape", Data([0x5B, 0x22, 0x5C, 0x6E, 0xEF, 0xBB, 0xBF, 0x61, 0x22, 0x5D])),
            ("exponent beyond Int", Data("[1.5e-99999999999999999999]".utf8)),
            ("empty", Data()),
            ("two spaces", Data("  ".utf8)),
            ("513 levels", Data((String(repeating: "[", count: 513) + String(repeating: "]", count: 513)).utf8)),
        ] + malformed.map { ($0, Data($0.utf8)) } + [
            ("invalid UTF-8", Data([0x5B, 0x22, 0xFF, 0x22, 0x5D])),
            ("overlong NUL", Data([0x5B, 0x22, 0xC0, 0x80, 0x22, 0x5D])),
            ("UTF-8 surrogate", Data([0x5B, 0x22, 0xED, 0xA0, 0x80, 0x22, 0x5D])),
            ("beyond U+10FFFF", Data([0x5B, 0x22, 0xF4, 0x90, 0x80, 0x80, 0x22, 0x5D])),
            ("truncated UTF-8", Data([0x5B, 0x22, 0xE2, 0x82, 0x22, 0x5D])),
        ]

    /// Bodies JSONSerialization refuses.
    static let malformed = [
        "{", "[", "[1", #"{"a":1"#, #"{"a""#, #"{"a":"#, #"["abc"#, "[1]x", "[1]]", "{}{}", "01", "-01", "[01]", "-",
        "[-]", "1.", "[1.]", ".5", "[.5]", "+1", "[+1]", "[1e]", "[1e+]", "[1.e5]", "[1e5.5]", "[-.5]", "[1.5.3]",
        "[0x10]", "[NaN]", "[Infinity]", "[-Infinity]", "NaN", "Infinity", "[1e400]", "[-1e400]", "[1E400]",
        "[" + String(repeating: "9", count: 400) + "]", "[\"a\tb\"]", "[\"a\nb\"]", "[\"\u{1F}\"]", #"["\x"]"#,
        #"["\u00G0"]"#, #"["\u12"]"#, #"["\uDE00"]"#, #"["\uD83D"]"#, #"["\uD83Dx"]"#, #"["\uD83D\u0041"]"#,
        #"["\uD83D\n"]"#, "[1,,]", "[,]", "[,1]", "{,}", #"{"a":1,,}"#, "{1:2}", #"{"a" 1}"#, #"{"a":}"#, "[1 2]",
        "[1:]", #"[1"a"]"#, "[true1]", "[truex]", "[tru]", "[nulll]", "[nul]", "[fals]", "truefalse", "true false",
        "[\u{0C}]", "[\u{0B}1]", "\u{A0}[]", "[1]\u{0C}", "'a'", "['a']", "[undefined]", "{a:1}", "[\"a\"\"b\"]",
    ]

    @Test("Every fallback case returns nil from the fast path, and JSONSerialization decides")
    func fallbacksReturnNil() {
        for (name, data) in Self.fallbacks {
            #expect(JSONBytesParser.parse(data, options: .fragmentsAllowed) == nil, "\(name)")
            #expect(JSONBytesParser.parse(data, options: .fragmentsAllowed, removingNulls: true) == nil, "\(name)")
        }
        // Options JSONSerialization on Linux does not define are left to it too.
        #expect(JSONBytesParser.parse(Data("[1]".utf8), options: .init(rawValue: 1 << 3)) == nil)
        #expect(JSONBytesParser.parse(Data("[1]".utf8), options: .init(rawValue: 1 << 4)) == nil)
    }

    @Test("Malformed bodies throw JSONSerialization's own error through JSONResponseSerializer, as before")
    func malformedThrowTheSameError() throws {
        let serializer = JSONResponseSerializer(readingOptions: .fragmentsAllowed)
        let response = Fixture.response(200, contentType: "application/json")
        for text in Self.malformed {
            let body = Data(text.utf8)
            let expected = try #require(parseError(body), "\(text) parses")
            let error = try #require(serializationError { try serializer.serialize(response, body) }, "\(text)")
            #expect(error.code == .jsonDecodingFailed, "\(text)")
            let underlying = try #require(error.underlyingError as? NSError, "\(text)")
            #expect(underlying.code == expected.code, "\(text)")
            #expect(underlying.userInfo[NSDebugDescriptionErrorKey] as? String == expected.debugDescription, "\(text)")
        }
    }

    /// Documents with a trailing comma, which RFC 8259 and Apple's Foundation refuse and
    /// Foundation on Linux accepts; each otherwise valid.
    static let trailingCommas: [(String, Data)] =
        [
            "[1,]", #"{"a":1,}"#, "[1 , ]", "[1,\n\t]", "[[1,],2]", #"{"a":[1,2,],"b":3}"#, #"[{"a":1,}]"#,
            #"["a,]",]"#, #"["\"",]"#, #"["\\",]"#, #"{"k,}":"v",}"#, "[true,false,null,]", "[1.5e3,]",
        ].map { ($0, Data($0.utf8)) } + [
            // Bodies the fast path leaves for another reason: a raw U+FEFF opening a string, a
            // byte-order mark, UTF-16 and UTF-32.
            ("U+FEFF string", Data([0x5B, 0x22, 0xEF, 0xBB, 0xBF, 0x61, 0x22, 0x2C, 0x5D])),
            ("byte-order mark", Data([0xEF, 0xBB, 0xBF]) + Data("[1,]".utf8)),
            ("UTF-16LE", Data([0x5B, 0x00, 0x31, 0x00, 0x2C, 0x00, 0x5D, 0x00])),
            ("UTF-16BE", Data([0x00, 0x5B, 0x00, 0x31, 0x00, 0x2C, 0x00, 0x5D])),
            ("UTF-16LE with mark", Data([0xFF, 0xFE, 0x5B, 0x00, 0x31, 0x00, 0x2C, 0x00, 0x5D, 0x00])),
            ("UTF-32LE", Data([0x5B, 0, 0, 0, 0x31, 0, 0, 0, 0x2C, 0, 0, 0, 0x5D, 0, 0, 0])),
            ("UTF-32BE", Data([0, 0, 0, 0x5B, 0, 0, 0, 0x31, 0, 0, 0, 0x2C, 0, 0, 0, 0x5D])),
        ]

    /// Commas and brackets inside strings, and commas between items: not trailing commas.
    static let commasThatAreNotTrailing = [
        #"["a,]"]"#, #"{"a":",}"}"#, #"["\",]"]"#, #"["\\",1]"#, #"[1, 2]"#, #"{"a":1 , "b":[ 1 ,2 ]}"#, #"[",",","]"#,
    ]

    @Test(
        "A trailing comma is refused, as RFC 8259 and Apple's Foundation refuse it, on every path and with every option"
    )
    func trailingCommasAreRefused() throws {
        let response = Fixture.response(200, contentType: "application/json")
        for (name, body) in Self.trailingCommas {
            // What this guards against: Foundation on Linux parses every one of them.
            #expect(parseError(body) == nil, "\(name): JSONSerialization on Linux refuses it now")
            #expect(JSONBytesParser.parse(body, options: .fragmentsAllowed) == nil, "\(name)")
            for options in Self.optionSets + [.init(rawValue: 1 << 3)] {
                for removingNulls in [false, true] {
                    let serializer = JSONResponseSerializer(
                        readingOptions: options,
                        removesKeysWithNullValues: removingNulls
                    )
                    let error = serializationError { try serializer.serialize(response, body) }
                    #expect(error?.code == .jsonDecodingFailed, "\(name) parsed with \(options.rawValue)")
                    let underlying = error?.underlyingError as? NSError
                    #expect(underlying?.domain == NSCocoaErrorDomain && underlying?.code == 3840, "\(name)")
                }
            }
            let decodable = DecodableResponseSerializer<AnyJSON>()
            #expect(serializationError { try decodable.serialize(response, body) }?.code == .decodingFailed, "\(name)")
        }
        let error = try #require(
            serializationError { try JSONResponseSerializer().serialize(response, Fixture.data("[1,]")) }
        )
        #expect(error.localizedDescription.contains("Trailing comma at offset 2"), "\(error.localizedDescription)")
    }

    @Test("The serializer returns the fast tree, and the fallback's for what the fast path leaves")
    func serializerUsesBothPaths() throws {
        let response = Fixture.response(200, contentType: "application/json")
        let removing = JSONResponseSerializer(removesKeysWithNullValues: true)
        let object = try #require(
            try removing.serialize(response, Fixture.data(#"{"a":null,"b":[null,{"c":null,"d":1}]}"#))
                as? [String: any Sendable]
        )
        #expect(object.keys.sorted() == ["b"])
        let utf16 = Data([0xFF, 0xFE, 0x7B, 0x00, 0x7D, 0x00])
        #expect((try JSONResponseSerializer().serialize(response, utf16) as? [String: any Sendable])?.isEmpty == true)
    }

    @Test("Under .mutableContainers booleans are boolean NSNumbers on both paths, not the strings \"true\"/\"false\"")
    func mutableContainersBooleans() throws {
        // NSMutableArray hands them back as Swift Bool, which JSONTree used to describe as text.
        let serializer = JSONResponseSerializer(readingOptions: .mutableContainers)
        let response = Fixture.response(200, contentType: "application/json")
        // The second falls back (a raw U+FEFF opening a string).
        for body in [#"[true,{"f":false}]"#, "[\"\u{FEFF}a\",true,{\"f\":false}]"] {
            let array = try #require(try serializer.serialize(response, Fixture.data(body)) as? [any Sendable])
            let object = try #require(array.last as? [String: any Sendable])
            for value in [array[array.count - 2], object["f"]!] {
                #expect(type(of: value) == type(of: NSNumber(value: true)), "\(body)")
                #expect((value as? NSNumber).map { String(cString: $0.objCType) } == "c", "\(body)")
            }
            #expect(array[array.count - 2] as? Bool == true && object["f"] as? Bool == false)
        }
    }

    @Test("A generated 1 MB document of mixed content gives the same tree")
    func megabyteDocument() throws {
        let text = MixedDocument.make(bytes: 1 << 20)
        #expect(text.utf8.count >= 1 << 20)
        expectSameAsJSONSerialization(text)
        expectSameAsJSONSerialization(text, removingNulls: true)
    }

    @Test("Regressions found by fuzzing json-parse")
    func fuzzRegressions() {
        for data in Self.fuzzRegressions {
            #expect(JSONBytesParser.parse(data, options: .fragmentsAllowed) == nil, "\(Array(data))")
            #expect(throws: (any Error).self) {
                try JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)
            }
        }
    }

    /// Invalid UTF-8 before the first escape of a string was taken for ASCII and repaired.
    static let fuzzRegressions: [Data] = [
        Data([0x5B, 0x22, 0x6E, 0x66, 0xA8, 0x5C, 0x6E, 0x5C, 0x72, 0x22, 0x5D]),
        Data([0x5B, 0x22, 0xC3, 0x5C, 0x6E, 0xA9, 0x22, 0x5D]),
        Data([0x5B, 0x22, 0xC3, 0xA9, 0x5C, 0x6E, 0xC3, 0x22, 0x5D]),
    ]
}

/// Any JSON value, for decoding documents of every shape with `JSONDecoder`.
private enum AnyJSON: Decodable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([AnyJSON])
    case object([String: AnyJSON])

    init(from decoder: any Decoder) throws {
        if var array = try? decoder.unkeyedContainer() {
            var elements: [AnyJSON] = []
            while !array.isAtEnd { elements.append(try array.decode(AnyJSON.self)) }
            self = .array(elements)
        } else if let object = try? decoder.container(keyedBy: AnyKey.self) {
            var members: [String: AnyJSON] = [:]
            for key in object.allKeys { members[key.stringValue] = try object.decode(AnyJSON.self, forKey: key) }
            self = .object(members)
        } else {
            let value = try decoder.singleValueContainer()
            if value.decodeNil() {
                self = .null
            } else if let bool = try? value.decode(Bool.self) {
                self = .bool(bool)
            } else if let number = try? value.decode(Double.self) {
                self = .number(number)
            } else {
                self = .string(try value.decode(String.self))
            }
        }
    }

    private struct AnyKey: CodingKey {
        let stringValue: String
        init(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }
}

// MARK: - The differential harness

/// Parses `text` both ways and expects the same tree, compared by ``JSONTreeDifference``; by
/// default also that the fast path took it (did not return `nil`).
func expectSameAsJSONSerialization(
    _ text: String,
    options: JSONSerialization.ReadingOptions = [],
    removingNulls: Bool = false,
    requiringFastPath: Bool = true,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let data = Data(text.utf8)
    let label = text.count > 80 ? String(text.prefix(80)) + "…" : text
    let fast = JSONBytesParser.parse(data, options: options, removingNulls: removingNulls)
    let fallback = Result { () throws -> any Sendable in
        JSONTree.sendable(try JSONSerialization.jsonObject(with: data, options: options), removingNulls: removingNulls)
    }
    guard let fast else {
        if requiringFastPath { Issue.record("fast path fell back on \(label)", sourceLocation: sourceLocation) }
        return
    }
    guard case .success(let expected) = fallback else {
        Issue.record("fast path parsed \(label), JSONSerialization throws", sourceLocation: sourceLocation)
        return
    }
    if let difference = JSONTreeDifference.between(fast, expected) {
        Issue.record("\(label): \(difference)", sourceLocation: sourceLocation)
    }
}

/// The first difference between two sendable JSON trees, or `nil`: exact Swift types, strings
/// and keys by their scalars (not canonical equivalence), arrays in order, and for an
/// `NSNumber` its `objCType`, `stringValue`, `description`, `Double` bits and casts.
enum JSONTreeDifference {
    static func between(_ actual: Any, _ expected: Any, at path: String = "$") -> String? {
        guard type(of: actual) == type(of: expected) else {
            return "\(path): \(type(of: actual)) instead of \(type(of: expected))"
        }
        if let actual = actual as? [String: any Sendable], let expected = expected as? [String: any Sendable] {
            return between(actual, expected, at: path)
        }
        if let actual = actual as? [any Sendable], let expected = expected as? [any Sendable] {
            guard actual.count == expected.count else {
                return "\(path): \(actual.count) elements, not \(expected.count)"
            }
            for (offset, pair) in zip(actual, expected).enumerated() {
                if let difference = between(pair.0, pair.1, at: "\(path)[\(offset)]") { return difference }
            }
            return nil
        }
        if let actual = actual as? String, let expected = expected as? String {
            return Array(actual.unicodeScalars) == Array(expected.unicodeScalars)
                ? nil : "\(path): \(actual.debugDescription) instead of \(expected.debugDescription)"
        }
        if let actual = actual as? NSNumber, let expected = expected as? NSNumber {
            let (mine, theirs) = (numberTraits(actual), numberTraits(expected))
            return mine == theirs ? nil : "\(path): \(mine) instead of \(theirs)"
        }
        return actual is NSNull ? nil : "\(path): unexpected \(type(of: actual))"
    }

    private static func between(
        _ actual: [String: any Sendable],
        _ expected: [String: any Sendable],
        at path: String
    )
        -> String?
    {
        let mine = Dictionary(uniqueKeysWithValues: actual.map { (Array($0.key.unicodeScalars), $0.value) })
        let theirs = Dictionary(uniqueKeysWithValues: expected.map { (Array($0.key.unicodeScalars), $0.value) })
        guard Set(mine.keys) == Set(theirs.keys) else {
            return "\(path): keys \(actual.keys.sorted()) instead of \(expected.keys.sorted())"
        }
        for (key, value) in mine {
            let name = String(String.UnicodeScalarView(key))
            if let difference = between(value, theirs[key]!, at: "\(path).\(name)") { return difference }
        }
        return nil
    }

    /// What an app can observe of a number.
    static func numberTraits(_ number: NSNumber) -> String {
        let value: Any = number
        return [
            String(cString: number.objCType), number.stringValue, number.description,
            String(number.doubleValue.bitPattern), String(describing: value as? Int),
            String(describing: value as? Double),
            String(describing: (value as? Double)?.bitPattern), String(describing: value as? Bool),
            String(describing: value as? Decimal), String(describing: value as? UInt64),
            String(describing: value as? Int64),
        ].joined(separator: " ")
    }
}

/// The error JSONSerialization throws for `body` (fragments allowed), or `nil` if it parses.
private func parseError(_ body: Data) -> (code: Int, debugDescription: String?)? {
    do {
        _ = try JSONSerialization.jsonObject(with: body, options: .fragmentsAllowed)
        return nil
    } catch let error as NSError {
        return (error.code, error.userInfo[NSDebugDescriptionErrorKey] as? String)
    }
}

// MARK: - A generated document

/// A JSON document of records mixing every kind of value, the same for every run.
enum MixedDocument {
    static func make(bytes: Int) -> String {
        var random = SplitMix64(seed: 2024)
        var records: [String] = []
        var size = 0
        while size < bytes {
            let record = self.record(records.count, &random)
            size += record.utf8.count + 1
            records.append(record)
        }
        return #"{"records":["# + records.joined(separator: ",") + "]}"
    }

    private static func record(_ id: Int, _ random: inout SplitMix64) -> String {
        let name = ["Ann", "Bö", "Zoë \\\"Z\\\"", "李雷", "😀 smile", "tab\\there", "\\u00e9\\u0301", "\\uD83D\\uDE00"]
        let tags = (0..<random.next(below: 5)).map { _ in #""t\#(random.next(below: 100))""# }
        let fields = [
            #""id":\#(id)"#,
            #""name":"\#(name[random.next(below: name.count)])""#,
            #""score":\#(double(&random))"#,
            #""big":\#(integer(&random))"#,
            #""active":\#(random.next(below: 2) == 0)"#,
            #""note":\#(random.next(below: 3) == 0 ? "null" : #""n\#(random.next(below: 1000))""#)"#,
            #""tags":[\#(tags.joined(separator: ","))]"#,
            #""address":{"city":"City \#(random.next(below: 1000))","zip":null,"geo":[\#(double(&random)),\#(double(&random))]}"#,
        ]
        return "{" + fields.joined(separator: random.next(below: 4) == 0 ? " , " : ",") + "}"
    }

    /// Doubles as Swift prints them, and digit strings of 1 to 25 digits with exponents.
    private static func double(_ random: inout SplitMix64) -> String {
        switch random.next(below: 4) {
        case 0: return "\(Double(bitPattern: random.next() & 0x7FEF_FFFF_FFFF_FFFF))"
        case 1: return "\(Double(random.next(below: 1_000_000)) / 1000)"
        case 2: return "-\(random.next(below: 1000)).\(random.next())"
        default:
            let digits = String(random.next()) + String(random.next())
            let count = 1 + random.next(below: 25)
            let exponent = random.next(below: 580) - 300
            return
                "\(digits.prefix(count)).\(random.next(below: 1000))\(random.next(below: 2) == 0 ? "e" : "E")\(exponent)"
        }
    }

    private static func integer(_ random: inout SplitMix64) -> String {
        switch random.next(below: 4) {
        case 0: return String(random.next())
        case 1: return String(Int64(bitPattern: random.next()))
        case 2: return String(random.next(below: 1000))
        default: return String(random.next()) + String(random.next(below: 1000))
        }
    }
}

/// A small seeded generator, so that the document is the same in every run.
struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func next(below bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
