import Foundation
import Testing

@testable import GannetCLI

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("gannet --download file names")
struct DownloadNamingTests {
    func response(disposition: String?) -> HTTPURLResponse {
        var headers: [String: String] = [:]
        if let disposition { headers["Content-Disposition"] = disposition }
        return HTTPURLResponse(
            url: URL(string: "http://x/")!,
            statusCode: 200,
            httpVersion: "HTTP/1.1",
            headerFields: headers
        )!
    }

    @Test(
        arguments: [
            (#"attachment; filename="report.pdf""#, "report.pdf"),
            ("attachment; filename=plain.txt", "plain.txt"),
            (#"attachment; FILENAME="upper.bin"; size=3"#, "upper.bin"),
            ("inline", nil),
            (#"attachment; filename="""#, nil),
        ] as [(String, String?)]
    )
    func dispositionFileName(_ header: String, _ expected: String?) {
        #expect(DownloadCommand.dispositionFileName(header) == expected)
    }

    @Test func namesNeverLeaveTheFolderOrOverwrite() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gannet-names-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = URL(string: "http://x/files/archive.tar.gz?x=1")
        #expect(
            DownloadCommand.availableName(for: response(disposition: nil), url: url, in: folder).lastPathComponent
                == "archive.tar.gz"
        )
        #expect(
            DownloadCommand.availableName(
                for: response(disposition: #"attachment; filename="../../etc/passwd""#),
                url: url,
                in: folder
            )
                == folder.appendingPathComponent("passwd")
        )
        #expect(
            DownloadCommand.availableName(
                for: response(disposition: #"attachment; filename=".bashrc""#),
                url: url,
                in: folder
            )
            .lastPathComponent == "bashrc"
        )
        #expect(
            DownloadCommand.availableName(for: response(disposition: nil), url: URL(string: "http://x/"), in: folder)
                .lastPathComponent == "index"
        )
        try Data().write(to: folder.appendingPathComponent("report.pdf"))
        try Data().write(to: folder.appendingPathComponent("report-1.pdf"))
        #expect(
            DownloadCommand.availableName(
                for: response(disposition: "attachment; filename=report.pdf"),
                url: url,
                in: folder
            )
            .lastPathComponent == "report-2.pdf"
        )
    }
}
