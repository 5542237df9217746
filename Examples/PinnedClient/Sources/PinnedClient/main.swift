// PinnedClient URL [CA-FILE]: requests URL with the public keys of the certificates under
// Certificates/ pinned, and says whether the server was accepted. The chain is first validated
// against the system's CAs, or those of CA-FILE (so a test server's chain can validate and the
// pins alone decide). The certificates are compiled in by the
// GannetEmbedCertificates plugin as `EmbeddedCertificates` (docs/plugins.md): no resource
// bundle, so nothing depends on `Bundle.main`, which holds no certificate under SwiftPM on Linux.
//
// Exit status: 0 accepted, 3 refused in the TLS handshake (the pins did not match), 1 any other
// failure, 64 usage.
import Foundation
import Gannet
import GannetSecurity

let arguments = CommandLine.arguments.dropFirst()
guard (1...2).contains(arguments.count), let url = URL(string: arguments.first!), url.scheme == "https" else {
    FileHandle.standardError.write(Data("usage: PinnedClient https://HOST[:PORT]/PATH [CA-FILE]\n".utf8))
    exit(64)
}

do {
    for der in EmbeddedCertificates.all {
        print("pinned: \(try Certificate(derEncoded: der))")
    }
    var policy = SecurityPolicy(pinningMode: .publicKey, withPinnedCertificates: Set(EmbeddedCertificates.all))
    if arguments.count == 2 {
        policy.trustStore = try TrustStore.caFile(arguments.last!)
    }
    let manager = try HTTPSessionManager(baseURL: url, securityPolicy: policy)
    manager.responseSerializer = HTTPResponseSerializer()
    let response = try await manager.get(url.absoluteString)
    print("accepted: HTTP \(response.statusCode ?? 0) from \(url.host ?? "")")
} catch let error as URLError {
    if let detail = error.errorUserInfo[NSUnderlyingErrorKey] as? GannetError, detail.code == .serverTrustRejected {
        print("refused: \(detail.message)")
        exit(3)
    }
    print("failed: \(error)")
    exit(1)
} catch {
    print("failed: \(error)")
    exit(1)
}
