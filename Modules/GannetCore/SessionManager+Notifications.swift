extension SessionManager {
    /// Posts `name` for `task` when the configuration posts task notifications: the task
    /// delegate's notifications (DidComplete, a download's file notifications), posted for every
    /// task, as AFNetworking (docs/core.md).
    func postTaskNotification(_ name: Notification.Name, for task: SessionTask, userInfo: [AnyHashable: Any]? = nil) {
        guard configuration.postsTaskNotifications else { return }
        NotificationCenter.default.post(name: name, object: task, userInfo: userInfo)
    }

    /// Posts `name` (DidResume or DidSuspend) for `task`, whose description was
    /// `taskDescription` when the change took effect: only for the manager's own tasks, those
    /// that still carry ``taskDescriptionForSessionTasks``, as AFNetworking's
    /// taskDidResume:/taskDidSuspend: compare it. The task reads its description under the lock
    /// it changes state under, so posting takes no lock of the task's: it used to read
    /// `taskDescription` here, just as the engine thread took the same lock to start sending,
    /// and in about half the requests one of them waited (docs/performance.md, "Where a plain
    /// GET's instructions go").
    func postTaskStateNotification(_ name: Notification.Name, for task: SessionTask, taskDescription: String?) {
        guard configuration.postsTaskNotifications, taskDescription == taskDescriptionForSessionTasks else { return }
        NotificationCenter.default.post(name: name, object: task)
    }

    /// The userInfo of `gannetTaskDidComplete`, with AFNetworking's rules: the serializer the
    /// caller set (never a wrapper of Gannet's), the serialized value only when it is not `nil`,
    /// the file of a download instead of its data, the error on failure.
    ///
    /// Built at every completion, so created at once with room to spare (docs/performance.md):
    /// growing from a literal rehashed every key at each step, 13,000 instructions a request,
    /// and in a table only just big enough a key often probes another's bucket, where
    /// `AnyHashable`'s `==` costs 2,400 instructions. At most five keys in 32 buckets rarely meet.
    static func completionUserInfo<Stage: ResultStage>(
        stage: Stage,
        result: Result<Stage.Output, any Error>,
        data: Data?,
        metrics: TaskMetrics?
    ) -> [AnyHashable: Any] {
        var userInfo = [AnyHashable: Any](minimumCapacity: 16)
        userInfo[TaskNotificationKey.responseSerializer] = stage.reportedSerializer
        let isDownload = Stage.self == DownloadSerializer.self
        switch result {
        case .success(let value):
            // `Data`, the passthrough serializer's output, is never an `Optional` holding `nil`;
            // a type comparison, not a cast, which looks up conformances (2,000 instructions a
            // request, callgrind, docs/performance.md).
            if let value = Stage.Output.self == Data.self ? value : unwrappedOptional(value) {
                userInfo[TaskNotificationKey.serializedResponse] = value
            }
            if let file = stage.downloadedFile(in: value) { userInfo[TaskNotificationKey.downloadedFileURL] = file }
        case .failure(let error):
            userInfo[TaskNotificationKey.error] = error
        }
        if !isDownload, let data { userInfo[TaskNotificationKey.responseData] = data }
        if let metrics { userInfo[TaskNotificationKey.metrics] = metrics }
        return userInfo
    }
}
