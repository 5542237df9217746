extension RequestSerializerConfiguration {
    /// How an array element's key is written: `tags[]=a` (``brackets``, AFNetworking's),
    /// `tags=a` (``noBrackets``) or `tags[0]=a` (``indexed``). A struct over a closure, so an app
    /// can add its own: `ArrayEncoding { key, index in "\(key).\(index)" }`.
    public struct ArrayEncoding: Sendable {
        /// Returns the key for the element at `index` of the array under `key`.
        public let key: @Sendable (_ key: String, _ index: Int) -> String

        /// Creates an encoding from a closure.
        public init(_ key: @escaping @Sendable (_ key: String, _ index: Int) -> String) {
            self.key = key
        }

        /// `key[]`, AFNetworking's encoding and the default; PHP, Rails and Rack read it as an array.
        public static let brackets = ArrayEncoding { key, _ in key + "[]" }
        /// `key` repeated, as HTML forms and most Java and Go servers expect.
        public static let noBrackets = ArrayEncoding { key, _ in key }
        /// `key[0]`, `key[1]`…, which keeps the order and the grouping of arrays of dictionaries
        /// unambiguous.
        public static let indexed = ArrayEncoding { key, index in "\(key)[\(index)]" }
    }

    /// How a `Bool` (or an `NSNumber` made from one) is written: `1`/`0` (``numeric``, the
    /// default, as AFNetworking's `NSNumber` description) or `true`/`false` (``literal``).
    public struct BoolEncoding: Sendable {
        /// Returns the text for `value`.
        public let encode: @Sendable (Bool) -> String

        /// Creates an encoding from a closure.
        public init(_ encode: @escaping @Sendable (Bool) -> String) {
            self.encode = encode
        }

        /// `1` and `0`, the default.
        public static let numeric = BoolEncoding { $0 ? "1" : "0" }
        /// `true` and `false`.
        public static let literal = BoolEncoding { $0 ? "true" : "false" }
    }

    /// How a space is written in a query string or form body: `%20` (``percentEscaped``, the
    /// default, RFC 3986) or `+` (``plus``, HTML's `application/x-www-form-urlencoded`). A `+`
    /// in the text is always written `%2B`, so neither choice is ambiguous.
    public struct SpaceEncoding: Sendable, Hashable {
        let usesPlus: Bool

        /// `%20`, the default.
        public static let percentEscaped = SpaceEncoding(usesPlus: false)
        /// `+`, as browsers submit forms.
        public static let plus = SpaceEncoding(usesPlus: true)
    }

    /// How a `Date` is written in a query string, a form body or a multipart form field.
    ///
    /// AFNetworking wrote `-[NSDate description]` (`2001-01-01 00:00:00 +0000`), which servers
    /// rarely parse; Gannet writes ISO 8601 by default.
    public struct DateEncoding: Sendable {
        /// Returns the text for `date`.
        public let encode: @Sendable (Date) -> String

        /// Creates an encoding from a closure.
        public init(_ encode: @escaping @Sendable (Date) -> String) {
            self.encode = encode
        }

        /// ISO 8601 in UTC with whole seconds, `2024-05-01T12:30:00Z`, the default.
        public static let iso8601 = DateEncoding { $0.formatted(.iso8601) }
        /// Seconds since 1970-01-01 UTC, as the shortest `Double` text: `1714566600` or `1714566600.5`.
        public static let secondsSince1970 = DateEncoding { shortest($0.timeIntervalSince1970) }
        /// Whole milliseconds since 1970-01-01 UTC: `1714566600500`.
        public static let millisecondsSince1970 = DateEncoding {
            String(Int64(($0.timeIntervalSince1970 * 1000).rounded()))
        }
    }

    /// How `Data` is written in a query string or a form body (a multipart form field holds
    /// the bytes themselves).
    ///
    /// AFNetworking wrote `-[NSData description]` (`<68656c6c 6f>`); Gannet writes Base64.
    public struct DataEncoding: Sendable {
        /// Returns the text for `data`.
        public let encode: @Sendable (Data) -> String

        /// Creates an encoding from a closure.
        public init(_ encode: @escaping @Sendable (Data) -> String) {
            self.encode = encode
        }

        /// Standard Base64 with padding (RFC 4648 §4), the default; `+`, `/` and `=` are then
        /// percent-escaped like any other text.
        public static let base64 = DataEncoding { $0.base64EncodedString() }
        /// Base64url without padding (RFC 4648 §5).
        public static let base64URL = DataEncoding {
            $0.base64EncodedString()
                .replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
        }
        /// Lowercase hexadecimal.
        public static let hex = DataEncoding { data in
            data.map { byte in
                let digits = String(byte, radix: 16)
                return byte < 16 ? "0" + digits : digits
            }.joined()
        }
    }

    /// Replaces the built-in query-string encoding (AFNetworking's
    /// `setQueryStringSerializationWithBlock:`). The closure receives the request and the
    /// parameters and returns the query string, already percent-escaped; what it throws
    /// reaches the caller as ``RequestSerializationError/Code/queryStringSerializationFailed``.
    ///
    /// ```swift
    /// serializer.configuration.queryStringSerialization = .init { request, parameters in
    ///     parameters.keys.sorted().map { "\($0)=\(parameters[$0]!)" }.joined(separator: ";")
    /// }
    /// ```
    public struct QueryStringSerialization: Sendable {
        /// Returns the percent-escaped query string for `parameters`.
        public let serialize: @Sendable (_ request: URLRequest, _ parameters: Parameters) throws -> String

        /// Creates a serialization from a closure.
        public init(_ serialize: @escaping @Sendable (_ request: URLRequest, _ parameters: Parameters) throws -> String)
        {
            self.serialize = serialize
        }
    }
}

/// `value` as the shortest text that reads back as the same `Double`, without a trailing `.0`.
func shortest(_ value: Double) -> String {
    if value.isFinite, value == value.rounded(), abs(value) < 1e15 {
        return String(Int64(value))
    }
    return "\(value)"
}
