internal import CLibXML2

/// Turns the names libxml2 hands over into small integer ids, one per distinct name in a
/// document. libxml2 interns names in its parser dictionary, so a pointer seen before is
/// answered from a direct-mapped table without reading the name; only new pointers are
/// decoded and looked up by value.
final class NameInterner {
    private static let slotCount = NameCache.slotCount
    private let keys: UnsafeMutablePointer<UnsafeRawPointer?>
    private let ids: UnsafeMutablePointer<Int32>
    private(set) var names: [String] = []
    private var idsByName: [String: Int32] = [:]

    init() {
        keys = .allocate(capacity: Self.slotCount)
        keys.initialize(repeating: nil, count: Self.slotCount)
        ids = .allocate(capacity: Self.slotCount)
        ids.initialize(repeating: -1, count: Self.slotCount)
    }

    deinit {
        keys.deallocate()
        ids.deallocate()
    }

    /// The id of the NUL-terminated UTF-8 name at `pointer`, or -1 for `nil`.
    @inline(__always)
    func id(_ pointer: UnsafePointer<UInt8>?, dictionary: xmlDictPtr?) -> Int32 {
        guard let pointer else { return -1 }
        let key = UnsafeRawPointer(pointer)
        let slot = NameCache.slot(for: key)
        if keys[slot] == key { return ids[slot] }
        return slowID(pointer, slot: slot, dictionary: dictionary)
    }

    private func slowID(_ pointer: UnsafePointer<UInt8>, slot: Int, dictionary: xmlDictPtr?) -> Int32 {
        let name = String(decoding: UnsafeBufferPointer(start: pointer, count: strlen(pointer)), as: UTF8.self)
        let id: Int32
        if let known = idsByName[name] {
            id = known
        } else {
            id = Int32(names.count)
            names.append(name)
            idsByName[name] = id
        }
        // Only a pointer into libxml2's dictionary is stable enough to be a key.
        if let dictionary, LibXML2.functions.table.pointee.dictOwns(dictionary, pointer) == 1 {
            keys[slot] = UnsafeRawPointer(pointer)
            ids[slot] = id
        }
        return id
    }
}
