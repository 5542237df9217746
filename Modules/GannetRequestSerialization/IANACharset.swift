/// IANA charset names for `String.Encoding`, for `Content-Type` parameters. Foundation on
/// Linux has no public `CFStringConvertEncodingToIANACharSetName`.
enum IANACharset {
    /// The registered name of `encoding`, `nil` when it has none.
    static func name(of encoding: String.Encoding) -> String? {
        switch encoding {
        case .utf8: "utf-8"
        case .ascii: "us-ascii"
        case .isoLatin1: "iso-8859-1"
        case .isoLatin2: "iso-8859-2"
        case .windowsCP1250: "windows-1250"
        case .windowsCP1251: "windows-1251"
        case .windowsCP1252: "windows-1252"
        case .windowsCP1253: "windows-1253"
        case .windowsCP1254: "windows-1254"
        case .utf16: "utf-16"
        case .utf16BigEndian: "utf-16be"
        case .utf16LittleEndian: "utf-16le"
        case .utf32: "utf-32"
        case .utf32BigEndian: "utf-32be"
        case .utf32LittleEndian: "utf-32le"
        case .japaneseEUC: "euc-jp"
        case .shiftJIS: "shift_jis"
        case .iso2022JP: "iso-2022-jp"
        case .macOSRoman: "macintosh"
        default: nil
        }
    }
}
