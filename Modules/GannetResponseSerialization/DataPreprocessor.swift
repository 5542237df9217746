/// Transforms a body before a serializer reads it, such as stripping an anti-XSSI prefix.
///
/// ```swift
/// var serializer = JSONResponseSerializer()
/// serializer.dataPreprocessor = .xssiPrefix
/// ```
public protocol DataPreprocessor: Sendable {
    /// Returns the bytes the serializer should read. A thrown error reaches the caller as is.
    func preprocess(_ data: Data) throws -> Data
}

/// Leaves the body unchanged (the default).
public struct PassthroughPreprocessor: DataPreprocessor {
    /// Creates the preprocessor.
    public init() {}

    /// Returns `data`.
    public func preprocess(_ data: Data) -> Data { data }
}

/// Removes the anti-XSSI prefix `)]}'` (optionally followed by `,`) and the newline after it,
/// which Google and Angular APIs put before JSON so that a hostile page cannot run the response
/// as a script. A body without the prefix is returned unchanged.
///
/// https://angular.dev/best-practices/security#xssi
public struct XSSIPrefixPreprocessor: DataPreprocessor {
    /// Creates the preprocessor.
    public init() {}

    /// `data` without a leading `)]}'` + optional `,` + `\n`.
    public func preprocess(_ data: Data) -> Data {
        let marker = Array(")]}'".utf8)
        guard data.starts(with: marker) else { return data }
        var index = data.startIndex + marker.count
        if index < data.endIndex, data[index] == UInt8(ascii: ",") { index += 1 }
        guard index < data.endIndex, data[index] == UInt8(ascii: "\n") else { return data }
        // A copy, not a slice: callers may index the result from zero.
        return Data(data[(index + 1)...])
    }
}

extension DataPreprocessor where Self == PassthroughPreprocessor {
    /// Leaves the body unchanged.
    public static var passthrough: PassthroughPreprocessor { PassthroughPreprocessor() }
}

extension DataPreprocessor where Self == XSSIPrefixPreprocessor {
    /// Strips the anti-XSSI prefix `)]}',\n`.
    public static var xssiPrefix: XSSIPrefixPreprocessor { XSSIPrefixPreprocessor() }
}
