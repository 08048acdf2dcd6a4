// The libc calls for pseudo-terminals and pipes that Swift's Glibc module does not import
// (glibc declares them only with _XOPEN_SOURCE / _GNU_SOURCE, which the module is built
// without), as plain functions. Each returns what the libc function returns and leaves errno
// as it set it.
#ifndef DFUKIT_TERMINAL_H
#define DFUKIT_TERMINAL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// posix_openpt(3): a new pseudo-terminal controller, or -1.
int dfukit_posix_openpt(int flags);
/// grantpt(3): 0, or -1.
int dfukit_grantpt(int controller);
/// unlockpt(3): 0, or -1.
int dfukit_unlockpt(int controller);
/// ptsname_r(3): 0 with the subordinate's path in `buffer`, or an errno value.
int dfukit_ptsname_r(int controller, char *buffer, size_t length);
/// pipe2(2): 0 with the read end in ends[0] and the write end in ends[1], or -1.
int dfukit_pipe2(int ends[2], int flags);
/// major(3) of a device number.
uint32_t dfukit_device_major(uint64_t device);
/// minor(3) of a device number.
uint32_t dfukit_device_minor(uint64_t device);

#ifdef __cplusplus
}
#endif

#endif
