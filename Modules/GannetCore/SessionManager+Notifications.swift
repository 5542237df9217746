extension SessionManager {
    /// The ``SessionTask/taskDescription`` the manager stamps on every task it creates
    /// (AFNetworking's `taskDescriptionForSessionTasks`: the manager's address). The task
    /// notifications (`gannetTaskDidResume`, `gannetTaskDidSuspend`, `gannetTaskDidComplete` and
    /// the download move notifications) are posted only for tasks that still carry it, which is
    /// how the manager tells its own tasks apart, as AFNetworking does: a task whose
    /// `taskDescription` you replace posts none.
    public var taskDescriptionForSessionTasks: String {
        "0x" + String(UInt(bitPattern: ObjectIdentifier(self)), radix: 16)
    }

    /// Posts `name` for `task` when the configuration posts task notifications and the task is
    /// one of the manager's own (it still carries ``taskDescriptionForSessionTasks``).
    func postTaskNotification(_ name: Notification.Name, for task: SessionTask, userInfo: [AnyHashable: Any]? = nil) {
        guard configuration.postsTaskNotifications, task.taskDescription == taskDescriptionForSessionTasks else {
            return
        }
        NotificationCenter.default.post(name: name, object: task, userInfo: userInfo)
    }

    /// The userInfo of `gannetTaskDidComplete`, with AFNetworking's rules: the serializer the
    /// caller set (never a wrapper of Gannet's), the serialized value only when it is not `nil`,
    /// the file of a download instead of its data, the error on failure.
    static func completionUserInfo<Serializer: ResponseSerializing>(
        serializer: Serializer,
        result: Result<Serializer.Output, any Error>,
        data: Data?,
        metrics: TaskMetrics?
    ) -> [AnyHashable: Any] {
        let isDownload = serializer is DownloadSerializer
        var userInfo: [AnyHashable: Any] = [TaskNotificationKey.responseSerializer: callersSerializer(serializer)]
        switch result {
        case .success(let value):
            if let value = unwrappedOptional(value) {
                userInfo[TaskNotificationKey.serializedResponse] = value
                if isDownload, let file = value as? URL { userInfo[TaskNotificationKey.downloadedFileURL] = file }
            }
        case .failure(let error):
            userInfo[TaskNotificationKey.error] = error
        }
        if !isDownload, let data { userInfo[TaskNotificationKey.responseData] = data }
        if let metrics { userInfo[TaskNotificationKey.metrics] = metrics }
        return userInfo
    }

    /// The serializer behind Gannet's wrappers: the type-erased one's base, the validator a
    /// download ran.
    private static func callersSerializer(_ serializer: any ResponseSerializing) -> any ResponseSerializing {
        if let download = serializer as? DownloadSerializer { return callersSerializer(download.validator) }
        if let erased = serializer as? AnyResponseSerializer { return erased.base }
        return serializer
    }
}
