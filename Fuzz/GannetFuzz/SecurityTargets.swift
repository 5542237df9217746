import Foundation

@testable import GannetSecurity

extension FuzzTarget {
    /// `Certificate(data:)` (DER, or PEM when it looks like PEM) and the PEM bundle reader.
    /// Invariants: failures are typed (`throws(CertificateError)`); a parsed certificate's DER
    /// parses again to an equal certificate with the same SPKI pin.
    static let certificate = FuzzTarget(name: "certificate") { bytes in
        let data = Data(bytes)
        _ = try? Certificate.certificates(pemEncoded: data)
        guard let certificate = try? Certificate(data: data) else { return }
        let again = try? Certificate(derEncoded: certificate.derEncoded)
        require(again == certificate, "DER round trip")
        require(again?.publicKeySHA256 == certificate.publicKeySHA256, "pin changed")
        _ = certificate.description
    }

    /// PKCS#12 loading with a password chosen by the first byte. Failures are typed
    /// (`throws(ClientIdentityError)`); a loaded identity has a certificate.
    static let pkcs12 = FuzzTarget(name: "pkcs12") { bytes in
        guard let first = bytes.first else { return }
        let password: String? = [nil, "", "password", "gannet"][Int(first) % 4]
        let loader = PKCS12Loader(path: "fuzz.p12", data: Data(bytes.dropFirst()), password: password)
        _ = try? loader.load(at: Date(timeIntervalSince1970: 1_800_000_000))
    }
}
