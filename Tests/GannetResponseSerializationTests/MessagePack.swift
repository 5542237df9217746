import GannetResponseSerialization

/// A value of the MessagePack subset this test decoder reads: maps, strings, integers, and
/// nil/bool/arrays for structure. https://github.com/msgpack/msgpack/blob/master/spec.md
enum MessagePackValue: Sendable, Hashable {
    case `nil`
    case bool(Bool)
    case int(Int64)
    case uint(UInt64)
    case string(String)
    case array([MessagePackValue])
    case map([MessagePackValue: MessagePackValue])

    subscript(key: String) -> MessagePackValue? {
        guard case .map(let map) = self else { return nil }
        return map[.string(key)]
    }
}

/// A real (small) MessagePack decoder: what an app would bring to Gannet's registry.
struct MessagePackReader {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static let maximumDepth = 64

    private let bytes: [UInt8]
    private var index = 0

    /// Decodes exactly one value that spans all of `data`.
    static func decode(_ data: Data) throws -> MessagePackValue {
        var reader = MessagePackReader(bytes: Array(data))
        let value = try reader.value(depth: 0)
        guard reader.index == reader.bytes.count else {
            throw Failure(description: "\(reader.bytes.count - reader.index) trailing bytes after the value")
        }
        return value
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private mutating func value(depth: Int) throws -> MessagePackValue {
        guard depth < Self.maximumDepth else { throw Failure(description: "nested deeper than \(Self.maximumDepth)") }
        let type = try byte()
        switch type {
        case 0x00...0x7F: return .int(Int64(type))
        case 0xE0...0xFF: return .int(Int64(Int8(bitPattern: type)))
        case 0x80...0x8F: return try map(count: Int(type & 0x0F), depth: depth)
        case 0x90...0x9F: return try array(count: Int(type & 0x0F), depth: depth)
        case 0xA0...0xBF: return try string(count: Int(type & 0x1F))
        case 0xC0: return .nil
        case 0xC2: return .bool(false)
        case 0xC3: return .bool(true)
        case 0xCC: return .uint(try unsigned(1))
        case 0xCD: return .uint(try unsigned(2))
        case 0xCE: return .uint(try unsigned(4))
        case 0xCF: return .uint(try unsigned(8))
        case 0xD0: return .int(Int64(Int8(truncatingIfNeeded: try unsigned(1))))
        case 0xD1: return .int(Int64(Int16(truncatingIfNeeded: try unsigned(2))))
        case 0xD2: return .int(Int64(Int32(truncatingIfNeeded: try unsigned(4))))
        case 0xD3: return .int(Int64(bitPattern: try unsigned(8)))
        case 0xD9: return try string(count: Int(try unsigned(1)))
        case 0xDA: return try string(count: Int(try unsigned(2)))
        case 0xDB: return try string(count: Int(try unsigned(4)))
        case 0xDC: return try array(count: Int(try unsigned(2)), depth: depth)
        case 0xDD: return try array(count: Int(try unsigned(4)), depth: depth)
        case 0xDE: return try map(count: Int(try unsigned(2)), depth: depth)
        case 0xDF: return try map(count: Int(try unsigned(4)), depth: depth)
        default: throw Failure(description: "unsupported type byte 0x\(String(type, radix: 16)) at \(index - 1)")
        }
    }

    private mutating func byte() throws -> UInt8 {
        guard index < bytes.count else { throw Failure(description: "truncated at byte \(index)") }
        defer { index += 1 }
        return bytes[index]
    }

    private mutating func unsigned(_ width: Int) throws -> UInt64 {
        var result: UInt64 = 0
        for _ in 0..<width { result = result << 8 | UInt64(try byte()) }
        return result
    }

    private mutating func string(count: Int) throws -> MessagePackValue {
        guard count <= bytes.count - index else {
            throw Failure(description: "string of \(count) bytes truncated at byte \(index)")
        }
        let slice = bytes[index..<(index + count)]
        index += count
        guard let text = String(validating: slice, as: UTF8.self) else {
            throw Failure(description: "string is not UTF-8")
        }
        return .string(text)
    }

    private mutating func array(count: Int, depth: Int) throws -> MessagePackValue {
        // Every element takes at least one byte: a hostile count cannot make us reserve memory.
        guard count <= bytes.count - index else { throw Failure(description: "array of \(count) elements truncated") }
        var elements: [MessagePackValue] = []
        elements.reserveCapacity(count)
        for _ in 0..<count { elements.append(try value(depth: depth + 1)) }
        return .array(elements)
    }

    private mutating func map(count: Int, depth: Int) throws -> MessagePackValue {
        guard count <= (bytes.count - index) / 2 else { throw Failure(description: "map of \(count) pairs truncated") }
        var pairs: [MessagePackValue: MessagePackValue] = [:]
        for _ in 0..<count {
            let key = try value(depth: depth + 1)
            pairs[key] = try value(depth: depth + 1)
        }
        return .map(pairs)
    }
}

/// The serializer an app would write: validation, empty-body rules and preprocessing come from
/// `ResponseBodySerializing`; only the decoding is its own.
struct MessagePackSerializer: ResponseBodySerializing {
    var acceptableStatusCodes = Self.defaultAcceptableStatusCodes
    var acceptableContentTypes: Set<MediaType>? = ["application/msgpack", "application/x-msgpack"]
    var dataPreprocessor: any DataPreprocessor = PassthroughPreprocessor()
    var emptyResponseCodes = Self.defaultEmptyResponseCodes
    var emptyRequestMethods = Self.defaultEmptyRequestMethods

    func serialize(_ input: ResponseInput) throws -> MessagePackValue {
        guard let body = try validatedBody(input) else {
            return .nil
        }
        do {
            return try MessagePackReader.decode(body)
        } catch {
            throw ResponseSerializationError.decodingFailed(
                "MessagePack: \(error)",
                response: input.response,
                data: input.data,
                underlyingError: error
            )
        }
    }
}
