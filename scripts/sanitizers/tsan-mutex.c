// Makes ThreadSanitizer see every hand-off of Swift's `Synchronization.Mutex` on Linux.
//
// Why: a `Mutex` locks and unlocks with atomics inlined into the caller (instrumented, so
// ThreadSanitizer sees them) while there is no contention, but when there is, it calls
// `_MutexHandle._lockSlow`, `_tryLockSlow` and `_unlockSlow` in libswiftSynchronization.so,
// which is not instrumented: they spin on the lock word and hand the lock over with
// FUTEX_LOCK_PI / FUTEX_UNLOCK_PI in the kernel. ThreadSanitizer then sees no order between
// the two owners and reports every access made under a contended lock as a race, while it is
// not one (docs/reliability.md shows a ten-line program that reproduces it with Swift 6.3).
// Suppressing the reports would mean suppressing every function that takes a lock, hiding
// real races in them. Instead this library, preloaded into the test process by
// scripts/sanitize.sh, interposes the three slow paths and tells ThreadSanitizer what they
// did: a release of the lock word before unlocking, an acquire after locking. It calls the
// real functions for everything else, and in a process without ThreadSanitizer (the test
// servers inherit the environment) it only forwards.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdbool.h>
#include <stdint.h>

extern void __tsan_acquire(void *address) __attribute__((weak));
extern void __tsan_release(void *address) __attribute__((weak));

// Swift's calling convention: `self` (the address of the lock word: `_MutexHandle` is not
// copyable, so it is passed by address) travels in the swiftself register.
#define SWIFT_SELF __attribute__((swift_context))
#define LOCK_SLOW "$s15Synchronization12_MutexHandleV9_lockSlowyys6UInt32VF"
#define TRY_LOCK_SLOW "$s15Synchronization12_MutexHandleV12_tryLockSlowSbyF"
#define UNLOCK_SLOW "$s15Synchronization12_MutexHandleV11_unlockSlowyyF"

typedef __attribute__((swiftcall)) void (*lock_slow_function)(uint32_t, void *SWIFT_SELF);
typedef __attribute__((swiftcall)) bool (*try_lock_slow_function)(void *SWIFT_SELF);
typedef __attribute__((swiftcall)) void (*unlock_slow_function)(void *SWIFT_SELF);

__attribute__((swiftcall)) void gannet_lock_slow(uint32_t tid, void *SWIFT_SELF handle) __asm__(LOCK_SLOW);
__attribute__((swiftcall)) bool gannet_try_lock_slow(void *SWIFT_SELF handle) __asm__(TRY_LOCK_SLOW);
__attribute__((swiftcall)) void gannet_unlock_slow(void *SWIFT_SELF handle) __asm__(UNLOCK_SLOW);

__attribute__((swiftcall)) void gannet_lock_slow(uint32_t tid, void *SWIFT_SELF handle) {
    static lock_slow_function next;
    if (!next) next = (lock_slow_function)dlsym(RTLD_NEXT, LOCK_SLOW);
    next(tid, handle);
    if (__tsan_acquire) __tsan_acquire(handle);
}

__attribute__((swiftcall)) bool gannet_try_lock_slow(void *SWIFT_SELF handle) {
    static try_lock_slow_function next;
    if (!next) next = (try_lock_slow_function)dlsym(RTLD_NEXT, TRY_LOCK_SLOW);
    bool locked = next(handle);
    if (locked && __tsan_acquire) __tsan_acquire(handle);
    return locked;
}

__attribute__((swiftcall)) void gannet_unlock_slow(void *SWIFT_SELF handle) {
    static unlock_slow_function next;
    if (!next) next = (unlock_slow_function)dlsym(RTLD_NEXT, UNLOCK_SLOW);
    if (__tsan_release) __tsan_release(handle);
    next(handle);
}
