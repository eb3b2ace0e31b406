#ifndef FEEDSIM_HTTPD_SHIM_H
#define FEEDSIM_HTTPD_SHIM_H

#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/select.h>
#include <microhttpd.h>

/// How `feedsim serve` starts GNU libmicrohttpd. MHD_start_daemon is variadic (option, value pairs
/// ended by MHD_OPTION_END), which Swift cannot call; this wrapper passes a fixed set.
struct feedsim_mhd_settings {
    unsigned int flags;
    /// The address to bind (IPv4 or IPv6), its port included.
    const struct sockaddr *address;
    unsigned int thread_pool_size;
    /// Seconds a connection may stay idle (a slowloris client's partial headers) before MHD closes it.
    unsigned int connection_timeout_seconds;
    unsigned int connection_limit;
    unsigned int per_ip_connection_limit;
    /// Bytes per connection for the request line, headers and the read buffer: a longer request
    /// (a huge query string) is answered 414 / 431 by MHD itself.
    size_t connection_memory_limit;
    /// The pending connection queue of listen(2).
    unsigned int listen_backlog;
};

static inline struct MHD_Daemon *feedsim_mhd_start(const struct feedsim_mhd_settings *settings,
                                                   MHD_AccessHandlerCallback handler,
                                                   MHD_RequestCompletedCallback completed,
                                                   void *context) {
    return MHD_start_daemon(settings->flags, 0, NULL, NULL, handler, context,
                            MHD_OPTION_SOCK_ADDR, settings->address,
                            MHD_OPTION_THREAD_POOL_SIZE, settings->thread_pool_size,
                            MHD_OPTION_CONNECTION_TIMEOUT, settings->connection_timeout_seconds,
                            MHD_OPTION_CONNECTION_LIMIT, settings->connection_limit,
                            MHD_OPTION_PER_IP_CONNECTION_LIMIT, settings->per_ip_connection_limit,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, settings->connection_memory_limit,
                            MHD_OPTION_LISTEN_BACKLOG_SIZE, settings->listen_backlog,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, context,
                            MHD_OPTION_END);
}

/// The port the daemon listens on (the one the kernel chose when asked for port 0), or 0.
static inline uint16_t feedsim_mhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/// The client's address of a connection (MHD_get_connection_info is variadic), or NULL.
static inline const struct sockaddr *feedsim_mhd_client_address(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info == NULL ? NULL : info->client_addr;
}

#endif
