// The serializers no longer bring the engine along (GannetResponseSerialization depends on
// GannetVocabulary only); these tests also run them through a SessionManager.
@_exported import GannetCore
