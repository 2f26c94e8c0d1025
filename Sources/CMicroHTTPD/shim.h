// Non-variadic wrappers around libmicrohttpd's variadic calls (MHD_start_daemon,
// MHD_get_daemon_info), which Swift cannot import.
#ifndef AGG_CMICROHTTPD_SHIM_H
#define AGG_CMICROHTTPD_SHIM_H

#include <stdint.h>
#include <sys/types.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <microhttpd.h>

/// Starts a daemon bound to `address` (port 0 picks a free one) with bounded connections,
/// an idle timeout, a bounded per-connection memory pool (request line and headers) and a
/// completion callback that gets the same closure argument as the handler. Parsing is strict
/// (HTTP/1.1 without Host, or a header line without a colon, is 400).
static inline struct MHD_Daemon *agg_mhd_start(
    unsigned int flags, const struct sockaddr *address, MHD_AccessHandlerCallback handler,
    void *context, MHD_RequestCompletedCallback completed, unsigned int connection_limit,
    unsigned int timeout_seconds, size_t memory_limit, size_t thread_stack_size) {
    return MHD_start_daemon(
        flags, 0, NULL, NULL, handler, context,
        MHD_OPTION_SOCK_ADDR, address,
        MHD_OPTION_CONNECTION_LIMIT, connection_limit,
        MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
        MHD_OPTION_THREAD_STACK_SIZE, thread_stack_size,
        MHD_OPTION_NOTIFY_COMPLETED, completed, context,
        MHD_OPTION_STRICT_FOR_CLIENT, (int) 1,
        MHD_OPTION_END);
}

/// The port the daemon listens on (the one the kernel chose for port 0); 0 when unknown.
static inline uint16_t agg_mhd_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

#endif
