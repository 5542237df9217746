extension URL {
    /// The URL without `user:password@`, for errors and logs; shared by Gannet's modules.
    package static func removingCredentials(_ url: URL) -> URL {
        guard url.user != nil || url.password != nil,
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        else { return url }
        components.user = nil
        components.password = nil
        return components.url ?? url
    }
}
