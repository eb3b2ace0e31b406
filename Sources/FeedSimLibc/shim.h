#ifndef FEEDSIM_LIBC_SHIM_H
#define FEEDSIM_LIBC_SHIM_H

#if defined(__GLIBC__) || defined(__linux__)
#include <malloc.h>
#endif

/// glibc's mallopt, which Swift's Glibc module does not export: sets M_TRIM_THRESHOLD (how much free
/// memory a heap keeps at its top before free() hands it back to the kernel) to `trim` bytes and
/// M_MMAP_THRESHOLD (the size from which an allocation gets its own mapping) to `mmap` bytes. Setting
/// either turns off glibc's dynamic thresholds, so both are set.
/// Returns 1 when both were taken, 0 on error or where the C library has no mallopt.
static inline int feedsim_malloc_set_thresholds(int trim, int mmap) {
#if defined(__GLIBC__)
    return mallopt(M_TRIM_THRESHOLD, trim) == 1 && mallopt(M_MMAP_THRESHOLD, mmap) == 1;
#else
    (void)trim;
    (void)mmap;
    return 0;
#endif
}

#endif
