internal import COpenSSL

/// Text forms of an `X509_NAME` (names are owned by their certificate; nothing to free here).
enum X509Name {
    /// RFC 2253 form, most specific attribute first: `CN=localhost,O=Gannet`.
    static func rfc2253(_ name: OpaquePointer?) -> String {
        guard let name, let bio = BIO_new(BIO_s_mem()) else { return "" }
        defer { BIO_free(bio) }
        guard X509_NAME_print_ex(bio, name, 0, rfc2253UTF8Flags) >= 0 else { return "" }
        var bytes: UnsafeMutablePointer<CChar>? = nil
        let length = copenssl_BIO_get_mem_data(bio, &bytes)
        guard length > 0, let bytes else { return "" }
        return bytes.withMemoryRebound(to: UInt8.self, capacity: length) {
            String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
        }
    }

    /// `XN_FLAG_RFC2253` without `ASN1_STRFLGS_ESC_MSB`, so non-ASCII text stays readable UTF-8
    /// (the composite macro does not import into Swift).
    private static let rfc2253UTF8Flags: UInt = {
        let strings =
            UInt(ASN1_STRFLGS_ESC_2253) | UInt(ASN1_STRFLGS_ESC_CTRL) | UInt(ASN1_STRFLGS_UTF8_CONVERT)
            | UInt(ASN1_STRFLGS_DUMP_UNKNOWN) | UInt(ASN1_STRFLGS_DUMP_DER)
        return strings | UInt(XN_FLAG_SEP_COMMA_PLUS) | UInt(XN_FLAG_DN_REV) | UInt(XN_FLAG_FN_SN)
            | UInt(XN_FLAG_DUMP_UNKNOWN_FIELDS)
    }()

    /// The last (most specific) common name, decoded to UTF-8.
    static func commonName(_ name: OpaquePointer?) -> String? {
        guard let name else { return nil }
        var index: Int32 = -1
        var last: Int32 = -1
        repeat {
            index = X509_NAME_get_index_by_NID(name, NID_commonName, index)
            if index >= 0 { last = index }
        } while index >= 0
        guard last >= 0,
            let entry = X509_NAME_get_entry(name, last),
            let data = X509_NAME_ENTRY_get_data(entry)
        else { return nil }
        var utf8: UnsafeMutablePointer<UInt8>? = nil
        let length = ASN1_STRING_to_UTF8(&utf8, data)
        guard length >= 0, let utf8 else { return nil }
        defer { copenssl_free(utf8) }
        return String(decoding: UnsafeBufferPointer(start: utf8, count: Int(length)), as: UTF8.self)
    }
}
