// Whether this test program is built with AddressSanitizer (the sanitizer build of ./test.sh):
// GCC says so with __SANITIZE_ADDRESS__, clang with __has_feature(address_sanitizer).
#pragma once

#if defined(__SANITIZE_ADDRESS__)
#define REFEREE_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define REFEREE_TEST_ASAN 1
#endif
#endif
#ifndef REFEREE_TEST_ASAN
#define REFEREE_TEST_ASAN 0
#endif
