extension String.Encoding {
    /// The encoding for an IANA charset name or alias, case-insensitive
    /// (https://www.iana.org/assignments/character-sets/character-sets.xhtml).
    ///
    /// CoreFoundation's `CFStringConvertIANACharSetNameToEncoding` is not available on Linux, so
    /// this lists the charsets that Foundation on Linux can decode; EUC-JP, for one, it cannot.
    init?(ianaCharsetName name: String) {
        let key = name.trimmingCharacters(in: .whitespaces).lowercased()
        guard let encoding = Self.ianaNames[key] else { return nil }
        self = encoding
    }

    private static let ianaNames: [String: String.Encoding] = {
        let groups: [(String.Encoding, [String])] = [
            (.utf8, ["utf-8", "utf8", "unicode-1-1-utf-8"]),
            (.ascii, ["us-ascii", "ascii", "ansi_x3.4-1968", "iso-ir-6", "iso646-us", "us", "cp367", "ibm367", "csascii"]),
            (.isoLatin1, ["iso-8859-1", "iso_8859-1", "iso8859-1", "latin1", "l1", "iso-ir-100", "cp819", "ibm819", "csisolatin1"]),
            (.isoLatin2, ["iso-8859-2", "iso_8859-2", "iso8859-2", "latin2", "l2", "iso-ir-101", "csisolatin2"]),
            (.windowsCP1250, ["windows-1250", "cp1250"]),
            (.windowsCP1251, ["windows-1251", "cp1251"]),
            (.windowsCP1252, ["windows-1252", "cp1252"]),
            (.windowsCP1253, ["windows-1253", "cp1253"]),
            (.windowsCP1254, ["windows-1254", "cp1254"]),
            (.utf16, ["utf-16", "utf16"]),
            (.utf16BigEndian, ["utf-16be"]),
            (.utf16LittleEndian, ["utf-16le"]),
            (.utf32, ["utf-32", "utf32"]),
            (.utf32BigEndian, ["utf-32be"]),
            (.utf32LittleEndian, ["utf-32le"]),
            (.shiftJIS, ["shift_jis", "shift-jis", "sjis", "x-sjis", "ms_kanji", "csshiftjis"]),
            (.iso2022JP, ["iso-2022-jp", "csiso2022jp"]),
            (.macOSRoman, ["macintosh", "mac", "x-mac-roman", "csmacintosh"]),
        ]
        var names: [String: String.Encoding] = [:]
        for (encoding, aliases) in groups {
            for alias in aliases { names[alias] = encoding }
        }
        return names
    }()
}
