public import GannetCore
import Synchronization

/// Records the task notifications posted for the tasks a test picks (by a marker in the
/// request URL, say), so that the test can check their userInfo. Notifications are posted
/// after the completion handler returns, so wait for them with ``wait(for:count:)``.
///
/// ```swift
/// let recorder = TaskNotificationRecorder { $0.originalRequest?.url?.query?.contains(token) == true }
/// …
/// let completed = await recorder.wait(for: .gannetTaskDidComplete)
/// ```
public final class TaskNotificationRecorder: Sendable {
    /// One notification as posted.
    // @unchecked: the userInfo is the posted dictionary, copied when recorded and never mutated.
    public struct Record: @unchecked Sendable {
        /// The notification's name.
        public let name: Notification.Name
        /// The notification's object.
        public let task: SessionTask
        /// The notification's userInfo, `[:]` when it had none.
        public let userInfo: [AnyHashable: Any]
        /// Whether the notification came without a userInfo.
        public let hadUserInfo: Bool
    }

    /// Every name a session task or a download posts.
    public static let allNames: [Notification.Name] = [
        .gannetTaskDidResume, .gannetTaskDidSuspend, .gannetTaskDidComplete,
        .gannetDownloadTaskDidMoveFile, .gannetDownloadTaskDidFailToMoveFile,
    ]

    private final class Store: Sendable {
        let records = Mutex<[Record]>([])
    }
    private let store = Store()
    // @unchecked: the observer tokens are set once in init and only handed back in deinit.
    private struct Tokens: @unchecked Sendable { var values: [any NSObjectProtocol] }
    private let tokens = Mutex(Tokens(values: []))

    /// Starts recording `names` for the tasks `matching` accepts.
    public init(names: [Notification.Name] = allNames, matching: @escaping @Sendable (SessionTask) -> Bool) {
        let store = store
        let observers = names.map { name in
            NotificationCenter.default.addObserver(forName: name, object: nil, queue: nil) { note in
                guard let task = note.object as? SessionTask, matching(task) else { return }
                let record = Record(
                    name: note.name,
                    task: task,
                    userInfo: note.userInfo ?? [:],
                    hadUserInfo: note.userInfo != nil
                )
                store.records.withLock { $0.append(record) }
            }
        }
        tokens.withLock { $0.values = observers }
    }

    deinit {
        for token in tokens.withLock({ $0.values }) { NotificationCenter.default.removeObserver(token) }
    }

    /// The notifications named `name` recorded so far.
    public func records(_ name: Notification.Name) -> [Record] {
        store.records.withLock { $0.filter { $0.name == name } }
    }

    /// Every notification recorded so far, in the order posted.
    public var all: [Record] { store.records.withLock { $0 } }

    /// Waits until `count` notifications named `name` were recorded (or 30 s passed: a bound
    /// that tells "posted" from "never posted", not a timing), then returns those recorded.
    public func wait(for name: Notification.Name, count: Int = 1) async -> [Record] {
        let deadline = ContinuousClock.now + .seconds(30)
        while records(name).count < count, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(10))
        }
        return records(name)
    }
}
