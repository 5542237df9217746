// The smallest client of the `GannetCore` product alone (scripts/check-linkage.sh).
import GannetCore

let manager = SessionManager()
print("CoreClient: \(manager.configuration.timeoutIntervalForRequest)")
