/// ASCII helpers shared by the engine's head parser and the vocabulary's parsed head
/// (`ResponseHead`), without Foundation.
package enum ASCII {
    /// ASCII case-insensitive equality, without Foundation.
    package static func equalsIgnoringCase(_ a: String, _ b: String) -> Bool {
        // Most comparisons are of header names of other lengths: O(1) for native strings.
        guard a.utf8.count == b.utf8.count else { return false }
        var a = a
        var b = b
        return a.withUTF8 { x in
            b.withUTF8 { y in
                guard x.count == y.count else { return false }
                for index in 0..<x.count {
                    let p = x[index]
                    let q = y[index]
                    if p == q { continue }
                    let lower = p | 0x20
                    guard lower == q | 0x20, lower >= 0x61, lower <= 0x7A else { return false }
                }
                return true
            }
        }
    }
}
