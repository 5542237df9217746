@_exported public import GannetVocabulary
