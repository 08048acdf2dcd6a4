// libbluetooth (BlueZ) for Swift. The BlueZ headers are not self-contained: <sys/socket.h>
// must come first. Macros Swift cannot import (BDADDR_ANY, HCIGETDEVINFO, htobs) are given as
// static inline functions below.
#ifndef DFUKIT_CBLUETOOTH_SHIM_H
#define DFUKIT_CBLUETOOTH_SHIM_H

#include <sys/socket.h>
#include <sys/ioctl.h>
#include <bluetooth/bluetooth.h>
#include <bluetooth/hci.h>
#include <bluetooth/hci_lib.h>
#include <bluetooth/l2cap.h>

/// BDADDR_ANY (00:00:00:00:00:00).
static inline bdaddr_t cbluetooth_bdaddr_any(void) {
    bdaddr_t any = {{0, 0, 0, 0, 0, 0}};
    return any;
}

/// The HCIGETDEVINFO ioctl request number (_IOR('H', 211, int)).
static inline unsigned long cbluetooth_hcigetdevinfo(void) {
    return HCIGETDEVINFO;
}

/// ioctl(fd, HCIGETDEVINFO, info): `info->dev_id` names the adapter.
static inline int cbluetooth_get_device_info(int fd, struct hci_dev_info *info) {
    return ioctl(fd, HCIGETDEVINFO, (void *)info);
}

/// htobs(): host to Bluetooth (little-endian) 16-bit order.
static inline uint16_t cbluetooth_htobs(uint16_t value) {
    return htobs(value);
}

#endif
