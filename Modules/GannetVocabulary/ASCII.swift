/// ASCII helpers shared by the engine's head parser and the vocabulary's parsed head
/// (`ResponseHead`), without Foundation.
package enum ASCII {
    /// ASCII case-insensitive equality, without Foundation.
    package static func equalsIgnoringCase(_ a: String, _ b: String) -> Bool {
        // Most comparisons are of header names of other lengths: O(1) for native strings.
        guard a.utf8.count == b.utf8.count else { return false }
        // In place: `withUTF8` needs a `var`, and copying both strings into one cost a retain
        // and a release each, at every header name compared (docs/performance.md).
        let inPlace = a.utf8.withContiguousStorageIfAvailable { x in
            b.utf8.withContiguousStorageIfAvailable { y in equalsIgnoringCase(x, y) }
        }
        if let inPlace, let result = inPlace { return result }
        return equalsIgnoringCase(Array(a.utf8)[...], Array(b.utf8)[...])
    }

    /// ASCII case-insensitive equality of two byte buffers. Not generic: another module's call
    /// of the generic version below ran unspecialized, through the protocol's witnesses, and
    /// each element read allocated (callgrind, docs/performance.md).
    package static func equalsIgnoringCase(_ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>) -> Bool {
        guard x.count == y.count else { return false }
        for offset in 0..<x.count {
            let p = x[offset]
            let q = y[offset]
            if p == q { continue }
            let lower = p | 0x20
            guard lower == q | 0x20, lower >= 0x61, lower <= 0x7A else { return false }
        }
        return true
    }

    /// ASCII case-insensitive equality of two byte sequences.
    package static func equalsIgnoringCase<Bytes: RandomAccessCollection<UInt8>>(_ x: Bytes, _ y: Bytes) -> Bool
    where Bytes.Index == Int {
        guard x.count == y.count else { return false }
        for offset in 0..<x.count {
            let p = x[x.startIndex + offset]
            let q = y[y.startIndex + offset]
            if p == q { continue }
            let lower = p | 0x20
            guard lower == q | 0x20, lower >= 0x61, lower <= 0x7A else { return false }
        }
        return true
    }
}
