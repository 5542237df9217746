@_exported public import GannetCore
