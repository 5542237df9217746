// The public API speaks in Foundation's `Notification.Name` and Dispatch's `DispatchQueue`, so
// importing GannetReachability brings Foundation along, as every Gannet module does.
@_exported public import Foundation
