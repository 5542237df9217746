import Foundation

#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// Foundation's file-backed `HTTPCookieStorage`, for tests that prove Gannet judges cookies
/// whatever the storage. Each storage is named for a group container of its own, so no test
/// sees another's cookies; Foundation keeps its persistent cookies in `.cookies.NAME` under
/// `$XDG_DATA_HOME/<program>/`, which ``remove(_:)`` deletes when the test ends (a temporary
/// `XDG_DATA_HOME` would be cleaner, but the process's environment is shared by every test).
public enum FoundationCookieFile {
    /// A storage of its own, and the container name to give ``remove(_:)``.
    public static func make() -> (storage: HTTPCookieStorage, container: String) {
        let container = "gannet-tests-\(UUID().uuidString)"
        return (HTTPCookieStorage.sharedCookieStorage(forGroupContainerIdentifier: container), container)
    }

    /// Deletes the files Foundation wrote for `containers`.
    public static func remove(_ containers: [String]) {
        let names = Set(containers.map { ".cookies.\($0)" })
        guard !names.isEmpty else { return }
        let files = FileManager.default
        for base in files.urls(for: .applicationSupportDirectory, in: .userDomainMask) {
            for folder in (try? files.contentsOfDirectory(at: base, includingPropertiesForKeys: nil)) ?? [] {
                for name in names { try? files.removeItem(at: folder.appendingPathComponent(name)) }
            }
        }
    }
}
