/* GNU libmicrohttpd (Debian: libmicrohttpd-dev, 0.9.75 on Debian 12). Swift cannot call a C
 * variadic function, and MHD_start_daemon and MHD_get_connection_info are variadic: the plain
 * functions below call them with the arguments DFUStation uses. */
#include <stdarg.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <microhttpd.h>

/// MHD_start_daemon on `listen_socket` (bound and listening already; MHD closes it when it
/// stops), calling `handler` for every request, `completed` when a request ends and `connection`
/// when a connection opens or closes (`context` given to all three); at most `connection_limit`
/// connections at once, an idle one closed after `connection_timeout` seconds. NULL when it
/// cannot start.
static inline struct MHD_Daemon *dfukit_mhd_start(unsigned int flags, int listen_socket, void *context,
                                                  MHD_AccessHandlerCallback handler,
                                                  MHD_RequestCompletedCallback completed,
                                                  MHD_NotifyConnectionCallback connection,
                                                  unsigned int connection_limit, unsigned int connection_timeout) {
    return MHD_start_daemon(flags, 0, NULL, NULL, handler, context,
                            MHD_OPTION_LISTEN_SOCKET, (MHD_socket) listen_socket,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, context,
                            MHD_OPTION_NOTIFY_CONNECTION, connection, context,
                            MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                            MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout,
                            MHD_OPTION_END);
}

/// The socket of a connection, or -1.
static inline int dfukit_mhd_connection_socket(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : (int) info->connect_fd;
}

/// MHD_SIZE_UNKNOWN, a macro with a cast that Swift does not import.
static inline uint64_t dfukit_mhd_size_unknown(void) { return MHD_SIZE_UNKNOWN; }

/// MHD_CONTENT_READER_END_OF_STREAM: the stream ended normally.
static inline ssize_t dfukit_mhd_end_of_stream(void) { return MHD_CONTENT_READER_END_OF_STREAM; }

/// MHD_CONTENT_READER_END_WITH_ERROR: close the connection at once.
static inline ssize_t dfukit_mhd_end_with_error(void) { return MHD_CONTENT_READER_END_WITH_ERROR; }

/// POLLRDHUP (the peer closed its end), which glibc declares only with _GNU_SOURCE.
static inline short dfukit_pollrdhup(void) {
#ifdef POLLRDHUP
    return POLLRDHUP;
#else
    return 0x2000;
#endif
}

/// TCP_USER_TIMEOUT: how long sent data may stay unacknowledged before the kernel drops the
/// connection (a client that vanished without closing it).
static inline int dfukit_tcp_user_timeout(void) {
#ifdef TCP_USER_TIMEOUT
    return TCP_USER_TIMEOUT;
#else
    return 18;
#endif
}
