// Compiled as C++ (g++ defines _GNU_SOURCE, which declares these calls) like the package's other
// shim, so that one language standard serves every C-family target.
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "dfukit_terminal.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/sysmacros.h>
#include <unistd.h>

int dfukit_posix_openpt(int flags) { return posix_openpt(flags); }

int dfukit_grantpt(int controller) { return grantpt(controller); }

int dfukit_unlockpt(int controller) { return unlockpt(controller); }

int dfukit_ptsname_r(int controller, char *buffer, size_t length) { return ptsname_r(controller, buffer, length); }

int dfukit_pipe2(int ends[2], int flags) { return pipe2(ends, flags); }

uint32_t dfukit_device_major(uint64_t device) { return major(device); }

uint32_t dfukit_device_minor(uint64_t device) { return minor(device); }
