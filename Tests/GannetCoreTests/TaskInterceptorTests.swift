import Foundation
import Testing

@testable import GannetCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How a task's interceptor is made from the manager's and its own, and what is answered about
/// it once: pure, no server (the attempts themselves are InterceptorTests').
@Suite("TaskInterceptor: the manager's, then the task's")
struct TaskInterceptorTests {
    struct Tag: RequestAdapter {
        let name: String
        func adapt(_ request: URLRequest, for task: SessionTask) async throws -> URLRequest { request }
    }

    @Test func neitherIsNoneAndOneAloneIsItself() throws {
        #expect(TaskInterceptor.combining(nil, nil) == nil)
        let manager = TaskInterceptor(RetryPolicy())
        #expect(TaskInterceptor.combining(manager, nil) === manager, "the manager's, not a new wrapper")
        let own = try #require(TaskInterceptor.combining(nil, Interceptor(adapters: [Tag(name: "t")])))
        let adapters = try #require(own.base as? Interceptor).adapters
        #expect(adapters.map { ($0 as? Tag)?.name } == ["t"])
    }

    @Test func bothRunManagerFirst() throws {
        let manager = TaskInterceptor(Interceptor(adapters: [Tag(name: "m")]))
        let both = try #require(TaskInterceptor.combining(manager, Interceptor(adapters: [Tag(name: "t")])))
        let composite = try #require(both.base as? Interceptor)
        let names = composite.adapters.map { (($0 as? Interceptor)?.adapters.first as? Tag)?.name }
        #expect(names == ["m", "t"])
        #expect(composite.retriers.count == 2)
    }

    @Test func adaptingNothingIsAnsweredOnce() {
        #expect(TaskInterceptor(RetryPolicy()).adaptsNothing)
        #expect(TaskInterceptor(Interceptor(interceptors: [RetryPolicy(), RetryPolicy()])).adaptsNothing)
        #expect(!TaskInterceptor(Interceptor(adapters: [Tag(name: "a")])).adaptsNothing)
        let combined = TaskInterceptor.combining(
            TaskInterceptor(RetryPolicy()),
            Interceptor(adapters: [Tag(name: "a")])
        )
        #expect(combined?.adaptsNothing == false)
    }

    @Test func theManagersInterceptorReadsBackAsSet() throws {
        let manager = SessionManager()
        #expect(manager.interceptor == nil)
        manager.interceptor = Interceptor(adapters: [Tag(name: "m")])
        let read = try #require(manager.interceptor as? Interceptor)
        #expect((read.adapters.first as? Tag)?.name == "m")
        manager.interceptor = nil
        #expect(manager.interceptor == nil)
        manager.invalidateAndCancel()
    }
}
