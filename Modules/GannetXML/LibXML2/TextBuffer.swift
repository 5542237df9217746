/// Collects the pieces libxml2 delivers for one run of text (it splits text at line ends, at
/// 300-byte blocks and at chunk boundaries) so the handler gets one string per run.
struct TextBuffer: ~Copyable {
    enum Kind { case none, text, cdata }

    private(set) var kind = Kind.none
    private var storage: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private(set) var count = 0

    init() {
        capacity = 4096
        storage = .allocate(capacity: capacity)
    }

    deinit { storage.deallocate() }

    /// Appends bytes of `kind`; the caller flushes first when the kind changes.
    @inline(__always)
    mutating func append(_ bytes: UnsafePointer<UInt8>, count length: Int, kind: Kind) {
        self.kind = kind
        if count + length > capacity { grow(toFit: count + length) }
        (storage + count).update(from: bytes, count: length)
        count += length
    }

    private mutating func grow(toFit needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newStorage = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newStorage.update(from: storage, count: count)
        storage.deallocate()
        storage = newStorage
        capacity = newCapacity
    }

    /// Whether the collected bytes are only XML white space (space, tab, CR, LF).
    var isWhitespaceOnly: Bool {
        for index in 0..<count {
            switch storage[index] {
            case 0x20, 0x09, 0x0A, 0x0D: continue
            default: return false
            }
        }
        return true
    }

    /// The collected bytes, valid until the next mutation.
    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: storage, count: count) }

    /// Empties the buffer without making a string. A buffer grown by a large text node is
    /// shrunk back so one big node does not pin its memory for the rest of the document.
    mutating func discard() {
        count = 0
        kind = .none
        if capacity > 1 << 20 {
            storage.deallocate()
            capacity = 4096
            storage = .allocate(capacity: capacity)
        }
    }
}
