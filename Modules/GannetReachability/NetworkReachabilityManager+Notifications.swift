extension Notification.Name {
    /// Posted on the manager's ``NetworkReachabilityManager/queue`` when its status changes,
    /// as AFNetworking's `AFNetworkingReachabilityDidChangeNotification`. The object is the
    /// ``NetworkReachabilityManager``; userInfo holds ``ReachabilityNotificationKey/status``.
    public static let gannetReachabilityDidChange = Notification.Name("com.gannet.networking.reachability.change")
}

/// userInfo keys of `Notification.Name.gannetReachabilityDidChange`.
public enum ReachabilityNotificationKey {
    /// The new ``NetworkReachabilityStatus``, as AFNetworking's
    /// `AFNetworkingReachabilityNotificationStatusItem`.
    public static let status = "com.gannet.networking.reachability.status"
}
