import GannetCore

/// The one line of JSON the supervisor (Tests/Servers/testservers.py) prints once every server answers.
struct ServerManifest: Decodable {
    struct Certificates: Decodable {
        struct Client: Decodable {
            let pem: String
            let der: String
            let key: String
            let pkcs12: String
            let pkcs12Password: String
        }
        let rootCA: CertificateFiles
        let intermediateCA: CertificateFiles
        let untrustedRootCA: CertificateFiles
        let clientCA: CertificateFiles
        let pathLengthCA: CertificateFiles
        let leafSigner: CertificateFiles
        let leaves: [String: CertificateFiles]
        let client: Client
        let caBundle: String
    }
    struct Files: Decodable {
        let directory: String
        let oneMegabyte: String
        let tenMegabytes: String

        private enum CodingKeys: String, CodingKey {
            case directory
            case oneMegabyte = "1m.bin"
            case tenMegabytes = "10m.bin"
        }
    }
    struct Logs: Decodable {
        let nginxAccess: String
        let nginxError: String
        let httpbinAccess: String
        let httpbin: String
        let fault: String
        let proxy: String
    }

    let httpbin: URL
    let httpbinAlt: URL
    let nginx: URL
    let nginxTLS: URL
    let nginxH2C: URL
    let nginxUnixSocket: String
    let tls: [String: URL]
    let fault: URL
    let canary: URL
    let proxy: URL
    let authenticatingProxy: URL
    let proxyUser: String
    let proxyPassword: String
    let certificates: Certificates
    let tlsCertificates: [String: CertificateFiles]
    let files: Files
    let logs: Logs
    let directory: String
}

/// Only the `error` field, which the supervisor prints instead of the manifest when it cannot start.
struct ServerManifestError: Decodable {
    let error: String
}
