// The umbrella product: the core transport, both serialization modules and reachability, as one
// import (AFNetworking shipped its reachability manager in the core library too).
@_exported public import GannetCore
@_exported public import GannetReachability
@_exported public import GannetRequestSerialization
@_exported public import GannetResponseSerialization
