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
    /// Built at every completion, from ``CompletionUserInfoLayout``'s table for the keys present:
    /// `mapValues` keeps a table's buckets and hashes no key. Inserting the keys hashed each one
    /// (about 470 instructions for each 50-byte key), and a key that probed another's bucket
    /// paid `AnyHashable`'s `==`, 2,400 instructions (docs/performance.md). The values are
    /// gathered in the table's order first: optionals captured by the mapping closure were each
    /// copied and destroyed through `Optional`'s generic witnesses (about 800 instructions).
    static func completionUserInfo<Stage: ResultStage>(
        stage: Stage,
        result: Result<Stage.Output, any Error>,
        data: Data?,
        metrics: TaskMetrics?
    ) -> [AnyHashable: Any] {
        // In the order of `Slot`.
        var values: [Any] = []
        values.reserveCapacity(CompletionUserInfoLayout.Slot.allCases.count)
        values.append(stage.reportedSerializer)
        var present: CompletionUserInfoLayout.Keys = .serializer
        switch result {
        case .success(let output):
            // `Data`, the passthrough serializer's output, is never an `Optional` holding `nil`;
            // a type comparison, not a cast, which looks up conformances (2,000 instructions a
            // request, callgrind, docs/performance.md).
            if let value = Stage.Output.self == Data.self ? output : unwrappedOptional(output) {
                values.append(value)
                present.insert(.value)
            }
            if let file = stage.downloadedFile(in: output) {
                values.append(file)
                present.insert(.file)
            }
        case .failure(let failure):
            values.append(failure)
            present.insert(.error)
        }
        if Stage.self != DownloadSerializer.self, let data {
            values.append(data)
            present.insert(.data)
        }
        if let metrics {
            values.append(metrics)
            present.insert(.metrics)
        }
        return CompletionUserInfoLayout.tables[Int(present.rawValue)].mapValues { values[$0] }
    }
}

/// The keys of `gannetTaskDidComplete`'s userInfo, hashed into a table once for each set of keys
/// a completion can have; ``SessionManager/completionUserInfo(stage:result:data:metrics:)`` maps a
/// table's positions to its values.
enum CompletionUserInfoLayout {
    /// Which keys a userInfo has.
    struct Keys: OptionSet {
        let rawValue: UInt8
        static let serializer = Keys(rawValue: 1 << 0)
        static let value = Keys(rawValue: 1 << 1)
        static let file = Keys(rawValue: 1 << 2)
        static let error = Keys(rawValue: 1 << 3)
        static let data = Keys(rawValue: 1 << 4)
        static let metrics = Keys(rawValue: 1 << 5)
    }

    /// What one key holds.
    enum Slot: CaseIterable {
        case serializer, value, file, error, data, metrics

        var key: String {
            switch self {
            case .serializer: TaskNotificationKey.responseSerializer
            case .value: TaskNotificationKey.serializedResponse
            case .file: TaskNotificationKey.downloadedFileURL
            case .error: TaskNotificationKey.error
            case .data: TaskNotificationKey.responseData
            case .metrics: TaskNotificationKey.metrics
            }
        }

        var member: Keys {
            switch self {
            case .serializer: .serializer
            case .value: .value
            case .file: .file
            case .error: .error
            case .data: .data
            case .metrics: .metrics
            }
        }
    }

    /// The table of each set of keys, by the set's raw value: each key's position among the
    /// values present, in the order of `Slot`.
    // nonisolated(unsafe): `AnyHashable` is not `Sendable`, but this is a `let` the runtime
    // initializes once, never written after, and every key in it is a `String`.
    nonisolated(unsafe) static let tables: [[AnyHashable: Int]] = (0..<64).map { raw in
        let keys = Keys(rawValue: UInt8(raw))
        var table = [AnyHashable: Int](minimumCapacity: Slot.allCases.count)
        for slot in Slot.allCases where keys.contains(slot.member) { table[slot.key] = table.count }
        return table
    }
}
