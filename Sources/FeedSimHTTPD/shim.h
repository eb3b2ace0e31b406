#ifndef FEEDSIM_HTTPD_SHIM_H
#define FEEDSIM_HTTPD_SHIM_H

#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/select.h>
#include <sys/prctl.h>
#include <microhttpd.h>

/// How `feedsim serve` starts each of its GNU libmicrohttpd daemons: one internal polling thread
/// each and no listen socket of their own (MHD_USE_NO_LISTEN_SOCKET); serve accepts connections
/// itself and hands each to the daemon with the fewest open ones (MHD_add_connection, which needs
/// MHD_USE_ITC so a daemon's thread takes a new connection at once). MHD_start_daemon is variadic
/// (option, value pairs ended by MHD_OPTION_END), which Swift cannot call; this wrapper passes a
/// fixed set.
struct feedsim_mhd_settings {
    unsigned int flags;
    /// Seconds a connection may stay idle (a slowloris client's partial headers) before MHD closes it.
    unsigned int connection_timeout_seconds;
    unsigned int connection_limit;
    /// Bytes per connection for the request line, headers and the read buffer: a longer request
    /// (a huge query string) is answered 414 / 431 by MHD itself.
    size_t connection_memory_limit;
};

static inline struct MHD_Daemon *feedsim_mhd_start(const struct feedsim_mhd_settings *settings,
                                                   MHD_AccessHandlerCallback handler,
                                                   MHD_RequestCompletedCallback completed,
                                                   void *context,
                                                   MHD_NotifyConnectionCallback notify,
                                                   void *notify_context) {
    return MHD_start_daemon(settings->flags | MHD_USE_NO_LISTEN_SOCKET | MHD_USE_ITC, 0, NULL, NULL, handler, context,
                            MHD_OPTION_CONNECTION_TIMEOUT, settings->connection_timeout_seconds,
                            MHD_OPTION_CONNECTION_LIMIT, settings->connection_limit,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, settings->connection_memory_limit,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, context,
                            MHD_OPTION_NOTIFY_CONNECTION, notify, notify_context,
                            MHD_OPTION_END);
}

/// Names the calling thread (as `top -H` and `/proc` show it): pthread_setname_np needs
/// _GNU_SOURCE, which Swift's Glibc module is not built with.
static inline void feedsim_name_this_thread(const char *name) {
    prctl(PR_SET_NAME, name, 0, 0, 0);
}

/// The client's address of a connection (MHD_get_connection_info is variadic), or NULL.
static inline const struct sockaddr *feedsim_mhd_client_address(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info == NULL ? NULL : info->client_addr;
}

#endif
