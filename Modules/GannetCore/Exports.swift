// URLRequest, HTTPURLResponse and URLError live in FoundationNetworking on Linux; Gannet's
// public API speaks in them, so importing any Gannet module brings them along.
@_exported public import Foundation
// Media types, the response serializer protocols and their input, the parsed response head:
// the module without C that GannetResponseSerialization builds on (docs/core.md, "Modules").
@_exported public import GannetVocabulary

#if canImport(FoundationNetworking)
@_exported public import FoundationNetworking
#endif
