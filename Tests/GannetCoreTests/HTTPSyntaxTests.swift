import GannetVocabulary
import Testing

/// RFC 9110's token bytes, checked byte by byte against the rule as the RFC writes it
/// (https://www.rfc-editor.org/rfc/rfc9110.html#name-tokens), since ``HTTPSyntax`` keeps
/// them as bit masks.
@Suite struct HTTPSyntaxTests {
    @Test func everyByteIsATokenByteExactlyWhenTheRuleSaysSo() {
        let punctuation = Set("!#$%&'*+-.^_`|~".utf8)
        for value in 0...255 {
            let byte = UInt8(value)
            let isDigit = (0x30...0x39).contains(byte)
            let isLetter = (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
            let expected = isDigit || isLetter || punctuation.contains(byte)
            #expect(HTTPSyntax.isTokenByte(byte) == expected, "byte \(value)")
        }
    }

    @Test func tokensAreNonEmptyRunsOfTokenBytes() {
        #expect(HTTPSyntax.isToken("Content-Length"))
        #expect(HTTPSyntax.isToken("x!#$%&'*+-.^_`|~9"))
        #expect(!HTTPSyntax.isToken(""))
        #expect(!HTTPSyntax.isToken("Bad Name"))
        #expect(!HTTPSyntax.isToken("name:"))
        #expect(!HTTPSyntax.isToken("caf\u{E9}"))
        Array("Content-Type".utf8).withUnsafeBufferPointer { #expect(HTTPSyntax.isToken($0)) }
        Array("a b".utf8).withUnsafeBufferPointer { #expect(!HTTPSyntax.isToken($0)) }
        [UInt8]().withUnsafeBufferPointer { #expect(!HTTPSyntax.isToken($0)) }
    }
}
