import Foundation
import GannetCore
import GannetRequestSerialization

extension FuzzTarget {
    /// `MultipartFormData` with fuzzed boundaries, names, file names, types, headers and bodies.
    /// Invariants: a refused part is a `RequestSerializationError` or `GannetError(.invalidHeader)`; `contentLength` is the
    /// encoded size; reading in small packets gives the same bytes; the body starts with the
    /// first delimiter and ends with the close delimiter.
    static let multipart = FuzzTarget(name: "multipart") { bytes in
        var input = FuzzInput(bytes)
        var form: MultipartFormData
        do {
            form =
                input.byte() & 1 == 0 ? MultipartFormData() : try MultipartFormData(boundary: input.string(limit: 80))
        } catch {
            require(error is RequestSerializationError, "boundary threw \(type(of: error))")
            return
        }
        for _ in 0..<input.choice(5) where !input.isEmpty {
            do {
                switch input.choice(3) {
                case 0:
                    try form.appendPart(formData: Data(input.chunk()), name: input.string(limit: 128))
                case 1:
                    try form.appendPart(
                        data: Data(input.chunk()),
                        name: input.string(limit: 128),
                        fileName: input.string(limit: 128),
                        mimeType: input.string(limit: 128)
                    )
                default:
                    let headers = [input.string(limit: 64): input.string(limit: 128)]
                    try form.appendPart(headers: headers, body: Data(input.chunk()))
                }
            } catch let error as GannetError {
                // A header that cannot be sent: the engine's code, as documented on appendPart.
                require(error.code == .invalidHeader, "appendPart threw \(error)")
            } catch {
                require(error is RequestSerializationError, "appendPart threw \(type(of: error))")
            }
        }
        let encoded: Data
        do {
            encoded = try form.encoded()
        } catch {
            require(false, "an in-memory form failed to encode: \(error)")
            return
        }
        require(UInt64(encoded.count) == form.contentLength, "length \(encoded.count) != \(form.contentLength)")
        if form.isEmpty { return }
        require(encoded.starts(with: Data("--\(form.boundary)\r\n".utf8)), "first delimiter")
        require(
            encoded.suffix(form.boundary.utf8.count + 8) == Data("\r\n--\(form.boundary)--\r\n".utf8),
            "close delimiter"
        )

        form.throttleBandwidth(packetSize: 1 + input.choice(64), delay: 0)
        let reader = form.makeBodyReader()
        var packets = Data()
        var buffer = [UInt8](repeating: 0, count: 1 + input.choice(200))
        while true {
            let count = (try? buffer.withUnsafeMutableBytes { try reader.read(into: $0) }) ?? -1
            require(count >= 0, "the reader failed on in-memory parts")
            if count == 0 { break }
            packets.append(contentsOf: buffer[..<count])
        }
        require(packets == encoded, "packet reads differ from encoded()")
    }
}
