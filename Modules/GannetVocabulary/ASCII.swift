/// ASCII helpers shared by the engine's head parser and the vocabulary's parsed head
/// (`ResponseHead`), without Foundation.
package enum ASCII {
    /// ASCII case-insensitive equality, without Foundation.
    package static func equalsIgnoringCase(_ a: String, _ b: String) -> Bool {
        // Most comparisons are of header names of other lengths: O(1) for native strings.
        guard a.utf8.count == b.utf8.count else { return false }
        // Native strings lend their bytes without a copy; `withUTF8` would need `var` copies.
        let fast = a.utf8.withContiguousStorageIfAvailable { x in
            b.utf8.withContiguousStorageIfAvailable { y in equalsIgnoringCase(x, y) }
        }
        if let fast, let fast { return fast }
        return equalsIgnoringCase(Array(a.utf8)[...], Array(b.utf8)[...])
    }

    private static func equalsIgnoringCase(
        _ x: some RandomAccessCollection<UInt8>,
        _ y: some RandomAccessCollection<UInt8>
    ) -> Bool {
        guard x.count == y.count else { return false }
        for (p, q) in zip(x, y) where p != q {
            let lower = p | 0x20
            guard lower == q | 0x20, lower >= 0x61, lower <= 0x7A else { return false }
        }
        return true
    }
}
