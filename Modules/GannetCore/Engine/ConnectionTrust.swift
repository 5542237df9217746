internal import COpenSSL

/// What the engine knows about one TLS connection: which trust decision approved it and which
/// transfer is using it. Owned by the connection's `SSL_CTX` (libcurl makes one per connection)
/// through an ex_data slot, and released by OpenSSL when libcurl frees the context with the
/// connection, so the record can never outlive its connection or describe a recycled one
/// (docs/engine.md, "TLS: trust decided in the handshake").
///
/// It is also the argument of the handshake callbacks. A callback finds its transfer through
/// ``transferSerial`` in the engine's table of live transfers, never through a pointer a
/// finished transfer could have left behind.
final class ConnectionTrust {
    /// The engine whose multi handle owns the connection. Unowned: the connection, hence this
    /// record, is freed by that multi handle, and the callbacks that read this run inside the
    /// engine's own libcurl calls, on its thread.
    unowned(unsafe) let engine: CurlEngine
    /// ``Transfer/serial`` of the transfer that opened the connection or, once a request is
    /// sent on it, of the last one that did (set in `CURLOPT_PREREQFUNCTION`).
    var transferSerial: UInt64
    /// ``SessionHooks/trustGeneration`` of the decision that approved the connection; `nil`
    /// until one did.
    var approvedGeneration: UInt64?
    /// The transfer that opened the connection or last sent a request on it, for the info
    /// callback's close_notify. Weak: that callback may run while libcurl closes the
    /// connection, when neither the transfer nor the engine may exist any more.
    weak var lastTransfer: Transfer?

    private init(engine: CurlEngine, transferSerial: UInt64) {
        self.engine = engine
        self.transferSerial = transferSerial
    }

    /// The live transfer now using the connection; `nil` once it has finished.
    func currentTransfer() -> Transfer? {
        engine.activeTransfer(serial: transferSerial)
    }

    /// The ex_data slot, allocated once per process; its free function releases the record.
    private static let slot: Int32 = copenssl_SSL_CTX_get_ex_new_index(connectionTrustFree)

    /// Makes a record for the connection of `ctx` and hands its ownership to `ctx`.
    static func attach(to ctx: OpaquePointer, engine: CurlEngine, transfer serial: UInt64) -> ConnectionTrust {
        let record = ConnectionTrust(engine: engine, transferSerial: serial)
        SSL_CTX_set_ex_data(ctx, slot, Unmanaged.passRetained(record).toOpaque())
        return record
    }

    /// The pointer the handshake callbacks receive; valid as long as the context that owns
    /// the record, which is as long as OpenSSL can call them.
    var callbackArgument: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    /// The record of the connection of `ctx`, if Gannet made one.
    static func existing(on ctx: OpaquePointer) -> ConnectionTrust? {
        record(SSL_CTX_get_ex_data(ctx, slot))
    }

    /// The record behind a callback argument.
    static func record(_ pointer: UnsafeMutableRawPointer?) -> ConnectionTrust? {
        pointer.map { Unmanaged<ConnectionTrust>.fromOpaque($0).takeUnretainedValue() }
    }

}

/// OpenSSL's ex_data free function for the slot: runs when libcurl frees a connection's
/// `SSL_CTX` (on whichever thread frees it) and drops the context's reference to its record.
func connectionTrustFree(
    _ parent: UnsafeMutableRawPointer?,
    _ pointer: UnsafeMutableRawPointer?,
    _ data: UnsafeMutablePointer<CRYPTO_EX_DATA>?,
    _ index: Int32,
    _ argl: Int,
    _ argp: UnsafeMutableRawPointer?
) {
    guard let pointer else { return }
    Unmanaged<ConnectionTrust>.fromOpaque(pointer).release()
}
