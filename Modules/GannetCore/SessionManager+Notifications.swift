extension SessionManager {
    /// Posts `name` for `task` when the configuration posts task notifications; resume and
    /// suspend only for the manager's own tasks (those that still carry
    /// ``taskDescriptionForSessionTasks``), as AFNetworking.
    func postTaskNotification(_ name: Notification.Name, for task: SessionTask, userInfo: [AnyHashable: Any]? = nil) {
        guard configuration.postsTaskNotifications else { return }
        // As AFNetworking: only resume and suspend are posted for the manager's own tasks alone
        // (its taskDidResume:/taskDidSuspend: compare taskDescription); the task delegate posts
        // DidComplete, and a download's file notifications, for every task (docs/core.md).
        if name == .gannetTaskDidResume || name == .gannetTaskDidSuspend,
            task.taskDescription != taskDescriptionForSessionTasks
        {
            return
        }
        NotificationCenter.default.post(name: name, object: task, userInfo: userInfo)
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
