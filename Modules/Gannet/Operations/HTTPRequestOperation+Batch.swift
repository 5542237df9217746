internal import Synchronization

extension HTTPRequestOperation {
    /// AFNetworking 2's `batchOfRequestOperations:progressBlock:completionBlock:`: returns
    /// `operations` followed by one more operation that depends on all of them (for later work
    /// to depend on); add the whole array to a queue.
    ///
    /// ```swift
    /// let batch = HTTPRequestOperation.batch(of: operations, progress: { finished, total in
    ///     print("\(finished) of \(total)")
    /// }, completion: { operations in
    ///     print("all done")
    /// })
    /// queue.addOperations(batch, waitUntilFinished: false)
    /// ```
    ///
    /// `progress` runs once per operation, after that operation's own completion block, with
    /// the number finished so far; `completion` runs once, after every operation's completion
    /// block (a cancelled operation counts as finished), on a global queue, even when the queue
    /// is cancelled. Each operation's `completionBlock` is
    /// wrapped, so set it (or ``setCompletionBlock(success:failure:)``) before batching.
    public static func batch(
        of operations: [Operation],
        progress: (@Sendable (_ finished: Int, _ total: Int) -> Void)? = nil,
        completion: (@Sendable ([Operation]) -> Void)? = nil
    ) -> [Operation] {
        let group = DispatchGroup()
        let finished = Mutex(0)
        let total = operations.count
        for operation in operations {
            group.enter()
            let original = operation.completionBlock
            operation.completionBlock = {
                original?()
                let count = finished.withLock { count -> Int in
                    count += 1
                    return count
                }
                progress?(count, total)
                group.leave()
            }
        }
        let completionOperation = BlockOperation {}
        for operation in operations {
            completionOperation.addDependency(operation)
        }
        // Registered now rather than in the last operation, so that it still runs when the
        // queue is cancelled (cancelAllOperations cancels the last operation too) and after
        // every completion block, which Foundation runs only after its operation finished.
        // It also keeps the last operation alive until then: swift-corelibs-foundation's
        // operations point at their dependents unretained, and a cancelled dependent that
        // finished early and was freed would crash a dependency finishing later.
        group.notify(queue: .global()) {
            withExtendedLifetime(completionOperation) { completion?(operations) }
        }
        return operations + [completionOperation]
    }
}

extension HTTPSessionManager {
    /// An operation for `request` whose completion block calls `success` or `failure`
    /// (AFNetworking 2's `HTTPRequestOperationWithRequest:success:failure:`); not started.
    public func operation(
        for request: URLRequest,
        success: (@Sendable (HTTPRequestOperation, (any Sendable)?) -> Void)? = nil,
        failure: (@Sendable (HTTPRequestOperation, any Error) -> Void)? = nil
    ) -> HTTPRequestOperation {
        let operation = HTTPRequestOperation(request: request, manager: self)
        if success != nil || failure != nil {
            operation.setCompletionBlock(success: success, failure: failure)
        }
        return operation
    }
}
