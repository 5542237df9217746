/// The task's side of the response cache: what a finished transfer leaves for the session's
/// `URLCache` is stored here, off the engine thread and before the completion handler runs, so
/// a request started from a completion handler already finds it (docs/auth-cookies-cache.md).
extension SessionManager {
    /// Decides each response before it is stored in the session's cache (AFNetworking's
    /// `dataTaskWillCacheResponse`): return the proposed `CachedURLResponse`, another one (a
    /// changed body, headers, `userInfo` or storage policy), or `nil` to store nothing. Called
    /// for responses the caching rules allow (docs/auth-cookies-cache.md), on the session's
    /// processing queue, before the task's completion handler.
    ///
    /// ```swift
    /// manager.setDataTaskWillCacheResponse { _, task, proposed in
    ///     task.originalRequest?.url?.path.hasPrefix("/private") == true ? nil : proposed
    /// }
    /// ```
    public func setDataTaskWillCacheResponse(
        _ block: (@Sendable (SessionManager, SessionTask, CachedURLResponse) -> CachedURLResponse?)?
    ) {
        hooks.withLock { $0.dataTaskWillCacheResponse = block }
    }

    /// Carries out a finished transfer's ``CacheUpdate``: stores a response (through the hook),
    /// refreshes an entry a `304` confirmed, or drops what an unsafe request made stale.
    func updateCache(with outcome: TransferOutcome, of task: SessionTask, response: HTTPURLResponse?) {
        guard let update = outcome.cacheUpdate, outcome.error == nil, let cache = configuration.urlCache,
            let request = outcome.request, let url = request.url
        else { return }
        switch update {
        case .invalidate:
            cache.removeCachedResponse(for: URLRequest(url: url))
        case .refresh(let entry):
            if let refreshed = entry.cachedResponse() { cache.storeCachedResponse(refreshed, for: request) }
        case .store(var entry):
            guard let data = outcome.data, let response else { return }
            entry.data = data
            guard let proposed = entry.cachedResponse(response: response) else { return }
            let hook = hooks.withLock { $0.dataTaskWillCacheResponse }
            guard let chosen = hook.map({ $0(self, task, proposed) }) ?? proposed,
                chosen.storagePolicy != .notAllowed
            else { return }
            // A replacement the hook built itself lacks Gannet's keys: they are added, so the
            // entry is read back with its times and Vary values.
            var info = chosen.userInfo ?? [:]
            for (key, value) in entry.userInfo where info[key] == nil { info[key] = value }
            let stored = CachedURLResponse(
                response: chosen.response,
                data: chosen.data,
                userInfo: info,
                storagePolicy: chosen.storagePolicy
            )
            cache.storeCachedResponse(stored, for: request)
        }
    }
}
