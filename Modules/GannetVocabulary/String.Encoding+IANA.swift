/// The package's one IANA charset table
/// (https://www.iana.org/assignments/character-sets/character-sets.xhtml), read both ways:
/// request serializers name their encoding in `Content-Type`, response serializers decode by the
/// charset a response declares. CoreFoundation's `CFStringConvertEncodingToIANACharSetName`
/// and `CFStringConvertIANACharSetNameToEncoding` are not available on Linux.
extension String.Encoding {
    /// The encoding for an IANA charset name or alias, case-insensitive; `nil` for a charset
    /// Foundation on Linux cannot decode (EUC-JP, for one).
    package init?(ianaCharsetName name: String) {
        let key = name.trimmingCharacters(in: .whitespaces).lowercased()
        guard let encoding = Self.encodingsByIANAName[key] else { return nil }
        self = encoding
    }

    /// The registered (preferred) IANA name of this encoding, `nil` when it has none.
    package var ianaCharsetName: String? {
        Self.ianaCharsets.first { $0.encoding == self }?.names.first
    }

    /// Each encoding with its names, the registered one first. `decodable` is false where
    /// Foundation on Linux can name the encoding but not decode it.
    private static let ianaCharsets: [(encoding: String.Encoding, names: [String], decodable: Bool)] = [
        (.utf8, ["utf-8", "utf8", "unicode-1-1-utf-8"], true),
        (
            .ascii,
            ["us-ascii", "ascii", "ansi_x3.4-1968", "iso-ir-6", "iso646-us", "us", "cp367", "ibm367", "csascii"], true
        ),
        (
            .isoLatin1,
            ["iso-8859-1", "iso_8859-1", "iso8859-1", "latin1", "l1", "iso-ir-100", "cp819", "ibm819", "csisolatin1"],
            true
        ),
        (.isoLatin2, ["iso-8859-2", "iso_8859-2", "iso8859-2", "latin2", "l2", "iso-ir-101", "csisolatin2"], true),
        (.windowsCP1250, ["windows-1250", "cp1250"], true),
        (.windowsCP1251, ["windows-1251", "cp1251"], true),
        (.windowsCP1252, ["windows-1252", "cp1252"], true),
        (.windowsCP1253, ["windows-1253", "cp1253"], true),
        (.windowsCP1254, ["windows-1254", "cp1254"], true),
        (.utf16, ["utf-16", "utf16"], true),
        (.utf16BigEndian, ["utf-16be"], true),
        (.utf16LittleEndian, ["utf-16le"], true),
        (.utf32, ["utf-32", "utf32"], true),
        (.utf32BigEndian, ["utf-32be"], true),
        (.utf32LittleEndian, ["utf-32le"], true),
        (.japaneseEUC, ["euc-jp"], false),
        (.shiftJIS, ["shift_jis", "shift-jis", "sjis", "x-sjis", "ms_kanji", "csshiftjis"], true),
        (.iso2022JP, ["iso-2022-jp", "csiso2022jp"], true),
        (.macOSRoman, ["macintosh", "mac", "x-mac-roman", "csmacintosh"], true),
    ]

    private static let encodingsByIANAName: [String: String.Encoding] = {
        var names: [String: String.Encoding] = [:]
        for charset in ianaCharsets where charset.decodable {
            for name in charset.names { names[name] = charset.encoding }
        }
        return names
    }()
}
