import Foundation

/// Turns the contents of one certificate file into DER certificates, by content rather than by
/// extension: `.crt` and `.cer` files are PEM as often as DER, and a `.pem` may hold DER.
enum CertificateDecoder {
    /// Labels RFC 7468 and older OpenSSL releases use for a plain X.509 certificate.
    /// (`TRUSTED CERTIFICATE` is OpenSSL's certificate plus trust settings, not a certificate.)
    static let certificateLabels: Set<String> = ["CERTIFICATE", "X509 CERTIFICATE"]

    /// The certificates of one file, and anything worth a warning.
    struct Decoded: Equatable {
        /// DER, in the order they appear in the file.
        var certificates: [Data]
        /// Non-fatal findings, already worded as `FILE: warning: ...`.
        var warnings: [String]
    }

    /// Decodes `contents` (read from `file`, which only names the file in messages).
    static func decode(_ contents: Data, file: String) throws(EmbedderError) -> Decoded {
        guard !contents.isEmpty else {
            throw EmbedderError(file: file, "the file is empty; expected a PEM or DER certificate")
        }
        let bytes = [UInt8](contents)
        var derFailure: DERCertificateShape.ShapeError?
        if bytes[0] == 0x30 {
            do {
                try DERCertificateShape.check(bytes)
                return Decoded(certificates: [contents], warnings: [])
            } catch {
                derFailure = error
            }
        }
        let text = String(decoding: bytes, as: UTF8.self)
        guard PEMDocument.looksLikePEM(text) else {
            if let derFailure {
                throw EmbedderError(file: file, "not a DER X.509 certificate: \(derFailure.reason)")
            }
            throw EmbedderError(
                file: file,
                "neither PEM (no -----BEGIN CERTIFICATE----- line) nor DER (does not start with an ASN.1 SEQUENCE, 0x30)"
            )
        }
        return try decodePEM(text, file: file)
    }

    private static func decodePEM(_ text: String, file: String) throws(EmbedderError) -> Decoded {
        let document: PEMDocument
        do {
            document = try PEMDocument(parsing: text)
        } catch {
            throw EmbedderError(file: file, "malformed PEM: \(error.reason)")
        }
        var certificates: [Data] = []
        var otherLabels: [String] = []
        for block in document.blocks {
            guard certificateLabels.contains(block.label) else {
                otherLabels.append(block.label)
                continue
            }
            do {
                try DERCertificateShape.check([UInt8](block.bytes))
            } catch {
                throw EmbedderError(
                    file: file,
                    "certificate \(certificates.count + 1) is not a DER X.509 certificate: \(error.reason)"
                )
            }
            certificates.append(block.bytes)
        }
        let others = otherLabels.map { "'\($0)'" }.joined(separator: ", ")
        guard !certificates.isEmpty else {
            throw EmbedderError(
                file: file,
                "no CERTIFICATE block in this PEM file" + (others.isEmpty ? "" : " (found \(others))")
            )
        }
        var warnings: [String] = []
        if otherLabels.contains(where: { $0.contains("PRIVATE KEY") }) {
            warnings.append(
                "\(file): warning: the file also holds a private key; only its certificates are embedded, "
                    + "but a private key does not belong in a source tree"
            )
        }
        return Decoded(certificates: certificates, warnings: warnings)
    }
}
