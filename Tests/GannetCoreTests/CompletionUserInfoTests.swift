import Foundation
import Testing

@testable import GannetCore

/// `gannetTaskDidComplete`'s userInfo is mapped from a prebuilt table per set of keys: each table
/// must hold exactly its keys, and each value must arrive as itself (not wrapped in an
/// `Optional`). HookCoverageTests checks the same keys on posted notifications, downloads
/// included.
@Suite("The completion notification's userInfo")
struct CompletionUserInfoTests {
    struct MaybeInt: ResponseSerializing {
        let value: Int?
        func serialize(_ input: ResponseInput) throws -> Int? { value }
    }

    func keys(_ userInfo: [AnyHashable: Any]) -> Set<String> {
        Set(userInfo.keys.compactMap { $0.base as? String })
    }

    @Test func everyTableHoldsExactlyItsKeys() {
        #expect(CompletionUserInfoLayout.tables.count == 64)
        for (raw, table) in CompletionUserInfoLayout.tables.enumerated() {
            let present = CompletionUserInfoLayout.Keys(rawValue: UInt8(raw))
            let expected = CompletionUserInfoLayout.Slot.allCases.filter { present.contains($0.member) }
            #expect(keys(table) == Set(expected.map(\.key)), "table \(raw)")
            for (position, slot) in expected.enumerated() { #expect(table[slot.key] == position, "table \(raw)") }
        }
    }

    @Test func aSucceededDataTaskHasItsSerializerValueAndBody() throws {
        let body = Data("ok".utf8)
        let userInfo = SessionManager.completionUserInfo(
            stage: SerializerStage(PassthroughResponseSerializer()),
            result: .success(body),
            data: body,
            metrics: nil
        )
        #expect(
            keys(userInfo)
                == [
                    TaskNotificationKey.responseSerializer, TaskNotificationKey.serializedResponse,
                    TaskNotificationKey.responseData,
                ]
        )
        let value = try #require(userInfo[TaskNotificationKey.serializedResponse])
        #expect(type(of: value) == Data.self, "the value itself, not an Optional holding it")
        #expect(value as? Data == body)
        #expect(userInfo[TaskNotificationKey.responseSerializer] is PassthroughResponseSerializer)
    }

    @Test func aNilValueIsAbsentAndAPresentOneIsUnwrapped() throws {
        let none = SessionManager.completionUserInfo(
            stage: SerializerStage(MaybeInt(value: nil)),
            result: .success(nil),
            data: nil,
            metrics: nil
        )
        #expect(keys(none) == [TaskNotificationKey.responseSerializer])
        let some = SessionManager.completionUserInfo(
            stage: SerializerStage(MaybeInt(value: 7)),
            result: .success(7),
            data: Data("7".utf8),
            metrics: nil
        )
        let value = try #require(some[TaskNotificationKey.serializedResponse])
        #expect(type(of: value) == Int.self)
        #expect(value as? Int == 7)
    }

    @Test func aFailureHasItsErrorAndNoValue() throws {
        let userInfo = SessionManager.completionUserInfo(
            stage: SerializerStage(PassthroughResponseSerializer()),
            result: .failure(URLError(.timedOut)),
            data: nil,
            metrics: nil
        )
        #expect(keys(userInfo) == [TaskNotificationKey.responseSerializer, TaskNotificationKey.error])
        let error = try #require(userInfo[TaskNotificationKey.error] as? URLError)
        #expect(error.code == .timedOut)
    }

    /// Values are placed by their position among those present: with a key missing between
    /// them, each still lands under its own key.
    @Test func eachValueLandsUnderItsKeyWhateverIsMissing() throws {
        var metrics = TaskMetrics()
        metrics.redirectCount = 3
        let body = Data("body".utf8)
        let failed = SessionManager.completionUserInfo(
            stage: SerializerStage(MaybeInt(value: nil)),
            result: .failure(URLError(.badServerResponse)),
            data: body,
            metrics: metrics
        )
        #expect(
            keys(failed)
                == [
                    TaskNotificationKey.responseSerializer, TaskNotificationKey.error, TaskNotificationKey.responseData,
                    TaskNotificationKey.metrics,
                ]
        )
        #expect((failed[TaskNotificationKey.error] as? URLError)?.code == .badServerResponse)
        #expect(failed[TaskNotificationKey.responseData] as? Data == body)
        #expect((failed[TaskNotificationKey.metrics] as? TaskMetrics)?.redirectCount == 3)
        #expect(failed[TaskNotificationKey.responseSerializer] is MaybeInt)
        let succeeded = SessionManager.completionUserInfo(
            stage: SerializerStage(MaybeInt(value: 5)),
            result: .success(5),
            data: nil,
            metrics: metrics
        )
        #expect(succeeded[TaskNotificationKey.serializedResponse] as? Int == 5)
        #expect((succeeded[TaskNotificationKey.metrics] as? TaskMetrics)?.redirectCount == 3)
        #expect(succeeded[TaskNotificationKey.responseData] == nil)
    }
}
