/// `gannet --help`, generated from ``OptionTable`` so it cannot drift from the parser.
enum HelpText {
    static var text: String {
        var lines = [
            "gannet \(GannetVersion.current): an HTTP client on Gannet (libcurl, OpenSSL), with httpie's grammar",
            "",
            "Usage:",
            "  gannet [METHOD] URL [ITEM ...]",
            "  gannet pins FILE|https://host[:port]",
            "",
            "METHOD defaults to GET, or POST when there are data items or a body. URL may omit http://;",
            ":3000/path means http://localhost:3000/path.",
            "",
            "A pipe or a file on stdin is the request body, as is --raw TEXT or an @file item; only one",
            "of them, and never with data items (stdin is never ignored unless --ignore-stdin).",
            "",
            "Items:",
            "  Header:Value       request header (Header: removes a default header, Header; sends it empty)",
            "  name==value        query parameter",
            "  name=value         JSON string field (form field with --form)",
            "  name:=json         raw JSON field: n:=3  ok:=true  tags:='[\"a\",\"b\"]'",
            "  name=@file         string field read from a file; name:=@file: raw JSON from a file",
            "  name@file          file upload (--form or --multipart); name@file;type=text/csv sets its type",
            "  @file              the file is the whole body, streamed; Content-Type from its extension",
            "  A backslash escapes a separator: 'a\\:b:c' is the header a:b.",
            "",
        ]
        for group in OptionTable.groups {
            lines.append(group.title + ":")
            for option in group.options {
                let synopsis = "  " + option.synopsis
                lines.append(
                    synopsis.padding(toLength: max(synopsis.count + 2, 36), withPad: " ", startingAt: 0) + option.help
                )
            }
            lines.append("")
        }
        lines += [
            "Exit status (httpie's): 0 success; 1 error (connection, TLS, file, response serialization);",
            "2 timeout, or a usage error; 3, 4, 5 a 3xx, 4xx, 5xx response with --check-status;",
            "6 too many redirects.",
            "",
            "Examples:",
            "  gannet httpbin.org/get q==gannet",
            "  gannet POST :8080/post name=Gannet dives:=3",
            "  gannet --form POST :8080/post photo@gannet.jpg caption='A dive'",
            "  echo '{\"a\":1}' | gannet :8080/post",
            "  gannet PUT :8080/upload @disk.img",
            "  gannet -vv --proxy http://127.0.0.1:3128 https://example.com",
            "  gannet --download https://example.com/big.iso",
            "  gannet pins https://example.com",
            "  gannet --pin sha256/AbC...= https://example.com",
            "",
        ]
        return lines.joined(separator: "\n")
    }
}
