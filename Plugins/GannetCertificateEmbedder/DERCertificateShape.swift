/// Checks that bytes are one DER-encoded X.509 certificate, by shape alone (RFC 5280 §4.1):
///
///     Certificate ::= SEQUENCE { tbsCertificate, signatureAlgorithm SEQUENCE, signature BIT STRING }
///     TBSCertificate ::= SEQUENCE { [0] version OPTIONAL, serial INTEGER, signature SEQUENCE,
///                                   issuer SEQUENCE, validity SEQUENCE { Time, Time }, ... }
///
/// Reading that far is what tells a certificate from the other DER files found next to it: a
/// PKCS#8 or PKCS#1 private key, a bare public key, a certificate request or a CRL all start with
/// a SEQUENCE too, and embedding one of them by mistake would pin nothing (or ship a key).
enum DERCertificateShape {
    /// Returns nothing when `bytes` is exactly one certificate; otherwise throws a sentence
    /// saying what was found instead (the caller adds the file name).
    static func check(_ bytes: [UInt8]) throws(ShapeError) {
        var top = DERReader(bytes[...])
        let certificate = try top.read(expecting: 0x30, "the certificate SEQUENCE")
        guard top.isAtEnd else {
            throw ShapeError("\(top.remaining) byte(s) follow the certificate")
        }
        var fields = DERReader(certificate)
        let tbs = try fields.read(expecting: 0x30, "tbsCertificate (a SEQUENCE)")
        _ = try fields.read(expecting: 0x30, "signatureAlgorithm (a SEQUENCE)")
        _ = try fields.read(expecting: 0x03, "the signature (a BIT STRING)")
        guard fields.isAtEnd else {
            throw ShapeError("the certificate SEQUENCE has more than three fields")
        }
        var tbsFields = DERReader(tbs)
        if tbsFields.peekTag == 0xA0 {
            _ = try tbsFields.read(expecting: 0xA0, "the version")
        }
        _ = try tbsFields.read(expecting: 0x02, "the serial number (an INTEGER)")
        _ = try tbsFields.read(expecting: 0x30, "the signature algorithm (a SEQUENCE)")
        _ = try tbsFields.read(expecting: 0x30, "the issuer (a SEQUENCE)")
        var validity = DERReader(try tbsFields.read(expecting: 0x30, "the validity (a SEQUENCE)"))
        for bound in ["notBefore", "notAfter"] {
            guard let tag = validity.peekTag, tag == 0x17 || tag == 0x18 else {
                throw ShapeError("the validity's \(bound) is not a UTCTime or GeneralizedTime")
            }
            _ = try validity.read(expecting: tag, bound)
        }
    }

    /// What the shape check found wrong.
    struct ShapeError: Error, Equatable {
        var reason: String
        init(_ reason: String) { self.reason = reason }
    }
}

/// Reads DER tag-length-value elements from a byte slice, never past its end.
private struct DERReader {
    private var bytes: ArraySlice<UInt8>

    init(_ bytes: ArraySlice<UInt8>) { self.bytes = bytes }

    var isAtEnd: Bool { bytes.isEmpty }
    var remaining: Int { bytes.count }
    var peekTag: UInt8? { bytes.first }

    /// Reads one element with the given tag and returns its contents.
    mutating func read(expecting tag: UInt8, _ what: String) throws(DERCertificateShape.ShapeError) -> ArraySlice<UInt8>
    {
        guard let found = bytes.first else {
            throw .init("the data ends where \(what) should start")
        }
        guard found == tag else {
            throw .init("expected \(what), found tag 0x\(hex(found))")
        }
        var cursor = bytes.startIndex + 1
        guard cursor < bytes.endIndex else { throw .init("the data ends inside the length of \(what)") }
        let first = bytes[cursor]
        cursor += 1
        var length = 0
        if first < 0x80 {
            length = Int(first)
        } else {
            // DER: definite lengths only, in the fewest bytes; four length bytes already allow
            // 4 GiB, far beyond any certificate, so more is malformed rather than large.
            let count = Int(first & 0x7F)
            guard count >= 1, count <= 4 else {
                throw .init("\(what) has an invalid DER length (first length byte 0x\(hex(first)))")
            }
            guard bytes.endIndex - cursor >= count else { throw .init("the data ends inside the length of \(what)") }
            for byte in bytes[cursor..<cursor + count] { length = length << 8 | Int(byte) }
            cursor += count
        }
        guard length <= bytes.endIndex - cursor else {
            throw .init("\(what) claims \(length) byte(s) but only \(bytes.endIndex - cursor) remain (truncated?)")
        }
        let contents = bytes[cursor..<cursor + length]
        bytes = bytes[(cursor + length)...]
        return contents
    }

    private func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }
}
