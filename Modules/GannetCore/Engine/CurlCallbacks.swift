internal import CCurl

// libcurl's header, write and read callbacks for a Transfer (Transfer+Callbacks.swift).
// Nonisolated top-level functions, so libcurl never calls a closure formed in actor-isolated
// code: Swift 6 checks the isolation when such a closure runs, and traps on the engine thread.
// Each recovers its Transfer, unretained: the engine's `active` table keeps it alive while its
// handle is in the multi handle (docs/engine.md, "One thread runs many session managers").

func transferHeaderCallback(
    _ buffer: UnsafeMutablePointer<CChar>?,
    _ size: Int,
    _ count: Int,
    _ context: UnsafeMutableRawPointer?
) -> Int {
    guard let buffer, let context else { return 0 }
    let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
    return transfer.didReceiveHeaderLine(UnsafeRawBufferPointer(start: buffer, count: size * count))
}

func transferWriteCallback(
    _ buffer: UnsafeMutablePointer<CChar>?,
    _ size: Int,
    _ count: Int,
    _ context: UnsafeMutableRawPointer?
) -> Int {
    guard let buffer, let context else { return 0 }
    let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
    return transfer.didReceiveBody(UnsafeRawBufferPointer(start: buffer, count: size * count))
}

func transferReadCallback(
    _ buffer: UnsafeMutablePointer<CChar>?,
    _ size: Int,
    _ count: Int,
    _ context: UnsafeMutableRawPointer?
) -> Int {
    guard let buffer, let context else { return Int(CURL_READFUNC_ABORT) }
    let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
    return transfer.readBody(into: UnsafeMutableRawBufferPointer(start: buffer, count: size * count))
}
