// A file that uses GannetHTTPTypes speaks in swift-http-types' types and calls Gannet's
// manager: both come with the one import.
@_exported public import GannetCore
@_exported public import HTTPTypes
