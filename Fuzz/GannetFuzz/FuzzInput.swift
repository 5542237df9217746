/// Splits one fuzz input into the choices and strings a target needs, so that mutations of a
/// few bytes make small, meaningful changes (like LLVM's FuzzedDataProvider).
struct FuzzInput {
    private var bytes: ArraySlice<UInt8>

    init(_ bytes: [UInt8]) { self.bytes = bytes[...] }

    var isEmpty: Bool { bytes.isEmpty }

    /// The next byte, 0 when exhausted.
    mutating func byte() -> UInt8 {
        bytes.popFirst() ?? 0
    }

    /// A number in `0..<bound`.
    mutating func choice(_ bound: Int) -> Int {
        Int(byte()) % max(bound, 1)
    }

    /// Bytes up to the next 0xFF separator (or the end), at most `limit`.
    mutating func chunk(limit: Int = 4096) -> [UInt8] {
        var result: [UInt8] = []
        while let next = bytes.popFirst(), next != 0xFF, result.count < limit { result.append(next) }
        return result
    }

    /// `chunk()` decoded as UTF-8, invalid sequences repaired.
    mutating func string(limit: Int = 4096) -> String {
        String(decoding: chunk(limit: limit), as: UTF8.self)
    }

    /// Everything left.
    mutating func rest() -> [UInt8] {
        defer { bytes = [] }
        return Array(bytes)
    }
}
