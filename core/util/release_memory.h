#pragma once
// Owns one thing: giving the heap's freed blocks back to the operating system (glibc's
// malloc_trim), so that what `top` shows drops when a large temporary is freed. Under
// AddressSanitizer or ThreadSanitizer the allocator is the sanitizer's, and glibc's malloc_trim
// would walk arenas that were never set up (a crash in mtrim, or a corrupted arena at thread
// exit): it is a no-op there.

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SKEW_SANITIZED_ALLOCATOR 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define SKEW_SANITIZED_ALLOCATOR 1
#endif
#endif

#if defined(__GLIBC__) || defined(__linux__)
#include <malloc.h>
#endif

namespace skew {

inline void releaseFreedMemory() {
#if !defined(SKEW_SANITIZED_ALLOCATOR) && defined(__GLIBC__)
    malloc_trim(0);
#endif
}

}  // namespace skew
