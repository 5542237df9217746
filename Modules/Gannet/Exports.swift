// The umbrella product: the core transport and both serialization modules, as one import.
@_exported public import GannetCore
@_exported public import GannetRequestSerialization
@_exported public import GannetResponseSerialization
