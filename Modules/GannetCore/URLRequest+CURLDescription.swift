extension URLRequest {
    /// The `curl` command line that sends this request as a ``SessionManager`` with the default
    /// configuration sends it: method, headers, body, decompression, redirects. Run with
    /// `/bin/sh -c`, it gets the same response, except that credentials are written as `***`:
    /// the values of the headers ``HeaderRedaction/default`` names (`Authorization`, `Cookie`,
    /// `X-API-Key`, any name with `token` or `secret` in it …) and the user part of a URL
    /// (`user:password@`, `token@`). A body that is not plain text is written with `printf`
    /// octal escapes and piped in; a streamed body cannot be shown, and a comment line says so.
    ///
    /// ```swift
    /// print(request.cURLDescription())
    /// // curl --header 'Accept: application/json' \
    /// //   --user-agent '' \
    /// //   --compressed \
    /// //   --location --max-redirs 16 \
    /// //   'https://api.example/users?page=2'
    /// ```
    ///
    /// ``SessionTask/cURLDescription()`` describes a task with its manager's configuration.
    public func cURLDescription() -> String {
        cURLDescription(redacting: .default)
    }

    /// The same, with the values of the headers `redaction` names written `***`
    /// (docs/monitors.md, "What is redacted").
    public func cURLDescription(redacting redaction: HeaderRedaction) -> String {
        CURLCommand.make(self, body: BodySource(of: self), configuration: .default, redacting: redaction)
    }
}
