extension Notification.Name {
    /// Posted when a task resumes; the object is the ``SessionTask``.
    public static let gannetTaskDidResume = Notification.Name("com.gannet.networking.task.resume")
    /// Posted when a task is suspended; the object is the ``SessionTask``.
    public static let gannetTaskDidSuspend = Notification.Name("com.gannet.networking.task.suspend")
    /// Posted after a task's completion handler ran; the object is the ``SessionTask`` and the
    /// userInfo holds the ``TaskNotificationKey`` entries that apply.
    public static let gannetTaskDidComplete = Notification.Name("com.gannet.networking.task.complete")
    /// Posted when a finished download was moved to its destination; the object is the
    /// ``SessionTask`` and there is no userInfo (AFNetworking's
    /// `AFURLSessionDownloadTaskDidMoveFileSuccessfullyNotification`).
    public static let gannetDownloadTaskDidMoveFile = Notification.Name(
        "com.gannet.networking.session.download.file-manager-succeed"
    )
    /// Posted when a finished download could not be moved to its destination; the object is the
    /// ``SessionTask`` and the userInfo holds the error under ``TaskNotificationKey/error``
    /// (AFNetworking's `AFURLSessionDownloadTaskDidFailToMoveFileNotification`). The task then
    /// fails with that error.
    public static let gannetDownloadTaskDidFailToMoveFile = Notification.Name(
        "com.gannet.networking.session.download.file-manager-error"
    )
}

/// userInfo keys of `Notification.Name.gannetTaskDidComplete`, as AFNetworking
/// defined them for `AFNetworkingTaskDidCompleteNotification`.
public enum TaskNotificationKey {
    /// The body as received (`Data`), for a task that is not a download and received one.
    public static let responseData = "com.gannet.networking.task.complete.responsedata"
    /// The serialized value (a download's file URL), when serialization succeeded with a value
    /// that is not `nil`; absent otherwise.
    public static let serializedResponse = "com.gannet.networking.task.complete.serializedresponse"
    /// The response serializer the caller set: the one given to the task, or the manager's
    /// ``SessionManager/responseSerializer`` for tasks created without one and for downloads
    /// (which it validated).
    public static let responseSerializer = "com.gannet.networking.task.complete.responseserializer"
    /// The error, when the task failed (also the error of
    /// `Notification.Name.gannetDownloadTaskDidFailToMoveFile`).
    public static let error = "com.gannet.networking.task.complete.error"
    /// The ``TaskMetrics`` of the transfer.
    public static let metrics = "com.gannet.networking.complete.sessiontaskmetrics"
    /// The file a download task saved (a file `URL`), when it succeeded.
    public static let downloadedFileURL = "com.gannet.networking.task.complete.assetpath"
}
