extension Notification.Name {
    /// Posted when a task resumes; the object is the ``SessionTask``.
    public static let gannetTaskDidResume = Notification.Name("com.gannet.networking.task.resume")
    /// Posted when a task is suspended; the object is the ``SessionTask``.
    public static let gannetTaskDidSuspend = Notification.Name("com.gannet.networking.task.suspend")
    /// Posted after a task's completion handler ran; the object is the ``SessionTask`` and the
    /// userInfo holds the ``TaskNotificationKey`` entries that apply.
    public static let gannetTaskDidComplete = Notification.Name("com.gannet.networking.task.complete")
}

/// userInfo keys of `Notification.Name.gannetTaskDidComplete`, as AFNetworking
/// defined them for `AFNetworkingTaskDidCompleteNotification`.
public enum TaskNotificationKey {
    /// The body as received (`Data`), when there was one.
    public static let responseData = "com.gannet.networking.task.complete.responsedata"
    /// The serialized value, when serialization succeeded.
    public static let serializedResponse = "com.gannet.networking.task.complete.serializedresponse"
    /// The response serializer that ran.
    public static let responseSerializer = "com.gannet.networking.task.complete.responseserializer"
    /// The error, when the task failed.
    public static let error = "com.gannet.networking.task.complete.error"
    /// The ``TaskMetrics`` of the transfer.
    public static let metrics = "com.gannet.networking.complete.sessiontaskmetrics"
    /// The file a download task wrote, when there was one.
    public static let downloadedFileURL = "com.gannet.networking.task.complete.assetpath"
}
