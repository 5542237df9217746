internal import CLibXML2

/// Swift strings for the names libxml2 hands over, keyed by pointer.
///
/// libxml2 interns element and attribute names, prefixes and namespace URIs in its parser
/// dictionary, so one pointer always means one name for the life of the context. A
/// direct-mapped table turns the common case (a name seen before) into one compare instead of
/// a UTF-8 decode; a pointer the dictionary does not own is decoded every time, never cached.
final class NameCache {
    static let slotCount = 1024

    /// A slot for a name's address. Dictionary strings sit back to back in pools, a few bytes
    /// apart, so the address is mixed (Fibonacci hashing) rather than merely shifted.
    @inline(__always)
    static func slot(for key: UnsafeRawPointer) -> Int {
        Int(truncatingIfNeeded: (UInt(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15) >> (UInt.bitWidth - 10))
    }
    private let keys: UnsafeMutablePointer<UnsafeRawPointer?>
    private let values: UnsafeMutablePointer<String>

    init() {
        keys = .allocate(capacity: Self.slotCount)
        keys.initialize(repeating: nil, count: Self.slotCount)
        values = .allocate(capacity: Self.slotCount)
        values.initialize(repeating: "", count: Self.slotCount)
    }

    deinit {
        keys.deallocate()
        values.deinitialize(count: Self.slotCount)
        values.deallocate()
    }

    /// The name at `pointer`, a NUL-terminated UTF-8 string from `dictionary` (or elsewhere).
    @inline(__always)
    func name(_ pointer: UnsafePointer<xmlChar>, dictionary: xmlDictPtr?) -> String {
        let key = UnsafeRawPointer(pointer)
        let slot = NameCache.slot(for: key)
        if keys[slot] == key { return values[slot] }
        let string = String(decoding: UnsafeBufferPointer(start: pointer, count: strlen(pointer)), as: UTF8.self)
        if let dictionary, LibXML2.functions.table.pointee.dictOwns(dictionary, pointer) == 1 {
            keys[slot] = key
            values[slot] = string
        }
        return string
    }

    /// Like ``name(_:dictionary:)``, with `nil` for a missing name.
    @inline(__always)
    func optionalName(_ pointer: UnsafePointer<xmlChar>?, dictionary: xmlDictPtr?) -> String? {
        guard let pointer else { return nil }
        return name(pointer, dictionary: dictionary)
    }
}
