// URLRequest, HTTPURLResponse and URLError live in FoundationNetworking on Linux; the
// vocabulary's public API speaks in them, so importing it brings them along.
@_exported public import Foundation

#if canImport(FoundationNetworking)
@_exported public import FoundationNetworking
#endif
