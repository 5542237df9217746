// URLRequest, HTTPURLResponse and URLError live in FoundationNetworking on Linux; Gannet's
// public API speaks in them, so importing any Gannet module brings them along.
@_exported public import Foundation

#if canImport(FoundationNetworking)
@_exported public import FoundationNetworking
#endif
