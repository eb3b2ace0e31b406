#ifndef FEEDSIM_LIBC_SHIM_H
#define FEEDSIM_LIBC_SHIM_H

#if defined(__GLIBC__) || defined(__linux__)
#include <malloc.h>
#endif

/// glibc's mallopt(M_TRIM_THRESHOLD, bytes), which Swift's Glibc module does not export: how much
/// free memory a heap keeps at its top before free() hands it back to the kernel.
/// Returns 1 on success, 0 on error or where the C library has no mallopt.
static inline int feedsim_malloc_set_trim_threshold(int bytes) {
#if defined(__GLIBC__)
    return mallopt(M_TRIM_THRESHOLD, bytes);
#else
    (void)bytes;
    return 0;
#endif
}

#endif
