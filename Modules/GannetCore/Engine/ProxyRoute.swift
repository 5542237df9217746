import Foundation

/// A session's proxy as libcurl's two options say it: the proxy for an `http://` hop and for an
/// `https://` hop (`CURLOPT_PROXY`, empty for none) and the hosts that go direct
/// (`CURLOPT_NOPROXY`, empty for none). A value with no I/O, made once when a manager is made.
///
/// Why: left unset, those options send libcurl 7.88 to the environment at every request, five
/// `getenv` calls for a plain `http://` URL (`no_proxy`, `NO_PROXY`, `http_proxy`,
/// `all_proxy`, `ALL_PROXY`), about 1,700 instructions a request (docs/performance.md). Set,
/// libcurl reads nothing. So ``SessionConfiguration/Proxy/environment`` is read here with
/// libcurl's own rules (`detect_proxy` and `create_conn_helper_init_proxy` in lib/url.c):
/// - `no_proxy`, else `NO_PROXY`, lists the hosts that go direct, for any proxy;
/// - an `http://` hop uses `http_proxy`, in lowercase only: a CGI program receives a request's
///   `Proxy:` header as `HTTP_PROXY` ("httpoxy", CVE-2016-5385);
/// - an `https://` hop uses `https_proxy`, else `HTTPS_PROXY`;
/// - either falls back to `all_proxy`, else `ALL_PROXY`;
/// - a variable set to the empty string counts as unset, as `curl_getenv` returns it.
///
/// The environment is read when the manager is made, not at each request: a variable set later
/// reaches managers made later (docs/core.md, `proxy`).
struct ProxyRoute: Sendable, Equatable {
    /// `CURLOPT_PROXY` for an `http://` hop; empty for none.
    let http: String
    /// `CURLOPT_PROXY` for an `https://` hop; empty for none.
    let https: String
    /// `CURLOPT_NOPROXY`: curl's list of hosts that go direct; empty for none.
    let bypass: String

    /// `proxy` resolved, reading variables through `variable` (the process environment unless a
    /// test gives its own).
    init(_ proxy: SessionConfiguration.Proxy, variable: (String) -> String? = ProxyRoute.processVariable) {
        func read(_ names: String...) -> String? {
            for name in names {
                if let value = variable(name), !value.isEmpty { return value }
            }
            return nil
        }
        switch proxy {
        case .environment:
            let fallback = read("all_proxy", "ALL_PROXY")
            http = read("http_proxy") ?? fallback ?? ""
            https = read("https_proxy", "HTTPS_PROXY") ?? fallback ?? ""
            bypass = read("no_proxy", "NO_PROXY") ?? ""
        case .none:
            (http, https, bypass) = ("", "", "")
        case .url(let url, let hosts):
            http = url.absoluteString
            https = http
            // libcurl applies the environment's list to a proxy it was given, unless told one.
            bypass = hosts ?? read("no_proxy", "NO_PROXY") ?? ""
        }
    }

    /// The proxy for a hop: ``https`` when it uses TLS, ``http`` otherwise.
    func proxy(usesTLS: Bool) -> String { usesTLS ? https : http }

    /// The two schemes have different proxies, so each hop sets its own; otherwise a handle is
    /// set once, when made (each `curl_easy_setopt` of a string copies it).
    var differsByScheme: Bool { http != https }

    /// The proxy strings libcurl may quote in a message, for redaction (``TransferErrorMapping``).
    var quoted: [String] { [http, https].filter { !$0.isEmpty } }

    /// A variable of this process's environment.
    static func processVariable(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
