#ifndef FEEDSIM_CURL_SHIM_H
#define FEEDSIM_CURL_SHIM_H

#include <curl/curl.h>
#include <errno.h>
#include <string.h>
#include <sys/epoll.h>
#include <time.h>

/// curl_easy_setopt is variadic, which Swift cannot call: one wrapper per argument type the
/// option takes (libcurl reads a long, a pointer or a function pointer, per the option's docs).
static inline CURLcode feedsim_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode feedsim_curl_setopt_pointer(CURL *handle, CURLoption option, const void *value) {
    return curl_easy_setopt(handle, option, value);
}

/// The write and header callbacks share one signature (curl_write_callback).
typedef size_t (*feedsim_curl_write_callback)(char *data, size_t size, size_t count, void *context);

static inline CURLcode feedsim_curl_setopt_write_function(CURL *handle, CURLoption option,
                                                          feedsim_curl_write_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}

/// curl_easy_getinfo is variadic too: the long and double forms.
static inline CURLcode feedsim_curl_getinfo_long(CURL *handle, CURLINFO info, long *out) {
    return curl_easy_getinfo(handle, info, out);
}

static inline CURLcode feedsim_curl_getinfo_double(CURL *handle, CURLINFO info, double *out) {
    return curl_easy_getinfo(handle, info, out);
}

/// curl_multi_setopt is variadic too: the long form.
static inline CURLMcode feedsim_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}

/// One finished transfer from curl_multi_info_read: its easy handle and result (the message's
/// `data` is a union Swift cannot read). Returns 0 when no message is left.
static inline int feedsim_curl_multi_next_done(CURLM *multi, CURL **handle, CURLcode *result) {
    int left = 0;
    CURLMsg *message;
    while ((message = curl_multi_info_read(multi, &left)) != NULL) {
        if (message->msg == CURLMSG_DONE) {
            *handle = message->easy_handle;
            *result = message->data.result;
            return 1;
        }
    }
    return 0;
}

/// The multi_socket API (<https://curl.se/libcurl/c/curl_multi_socket_action.html>) over one
/// epoll set: libcurl tells through CURLMOPT_SOCKETFUNCTION which sockets to watch for what, and
/// through CURLMOPT_TIMERFUNCTION when to call it back without socket activity; the driver waits
/// in epoll_wait and hands each ready socket to curl_multi_socket_action. In C because epoll's
/// event struct is packed on x86-64, which Swift does not import faithfully.
struct feedsim_curl_epoll {
    int epoll_fd;
    /// When libcurl's timer is due, CLOCK_MONOTONIC nanoseconds; -1: no timer.
    long long timer_due_ns;
};

static inline long long feedsim_monotonic_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long)now.tv_sec * 1000000000LL + now.tv_nsec;
}

/// CURLMOPT_SOCKETFUNCTION: adds, changes or removes `fd` in the epoll set (`userp`: the driver's
/// struct). A descriptor libcurl closed leaves the set by itself, so a reused number is added again.
static inline int feedsim_curl_epoll_socket(CURL *easy, curl_socket_t fd, int what, void *userp, void *socketp) {
    (void)easy;
    (void)socketp;
    struct feedsim_curl_epoll *driver = (struct feedsim_curl_epoll *)userp;
    if (what == CURL_POLL_REMOVE) {
        epoll_ctl(driver->epoll_fd, EPOLL_CTL_DEL, fd, NULL);
        return 0;
    }
    struct epoll_event event;
    memset(&event, 0, sizeof event);
    event.events = ((what & CURL_POLL_IN) ? EPOLLIN : 0) | ((what & CURL_POLL_OUT) ? EPOLLOUT : 0);
    event.data.fd = fd;
    if (epoll_ctl(driver->epoll_fd, EPOLL_CTL_MOD, fd, &event) != 0 && errno == ENOENT) {
        epoll_ctl(driver->epoll_fd, EPOLL_CTL_ADD, fd, &event);
    }
    return 0;
}

/// CURLMOPT_TIMERFUNCTION: remembers when libcurl wants CURL_SOCKET_TIMEOUT (-1: never).
static inline int feedsim_curl_epoll_timer(CURLM *multi, long timeout_ms, void *userp) {
    (void)multi;
    struct feedsim_curl_epoll *driver = (struct feedsim_curl_epoll *)userp;
    driver->timer_due_ns = timeout_ms < 0 ? -1 : feedsim_monotonic_ns() + (long long)timeout_ms * 1000000LL;
    return 0;
}

/// Installs the two callbacks on `multi` for `driver`.
static inline void feedsim_curl_epoll_install(CURLM *multi, struct feedsim_curl_epoll *driver) {
    curl_multi_setopt(multi, CURLMOPT_SOCKETFUNCTION, feedsim_curl_epoll_socket);
    curl_multi_setopt(multi, CURLMOPT_SOCKETDATA, driver);
    curl_multi_setopt(multi, CURLMOPT_TIMERFUNCTION, feedsim_curl_epoll_timer);
    curl_multi_setopt(multi, CURLMOPT_TIMERDATA, driver);
}

/// Waits up to `timeout_ms` (0: not at all; shortened to libcurl's timer) for socket activity,
/// hands every ready socket to libcurl, then fires libcurl's timer when it is due. Returns the
/// number of sockets that were ready.
static inline int feedsim_curl_epoll_drive(CURLM *multi, struct feedsim_curl_epoll *driver, int timeout_ms) {
    int running = 0;
    if (driver->timer_due_ns >= 0) {
        long long left = driver->timer_due_ns - feedsim_monotonic_ns();
        int timer_ms = left <= 0 ? 0 : (int)((left + 999999) / 1000000);
        if (timer_ms < timeout_ms) timeout_ms = timer_ms;
    }
    struct epoll_event events[32];
    int ready = epoll_wait(driver->epoll_fd, events, 32, timeout_ms);
    for (int index = 0; index < ready; index++) {
        int mask = ((events[index].events & EPOLLIN) ? CURL_CSELECT_IN : 0)
            | ((events[index].events & EPOLLOUT) ? CURL_CSELECT_OUT : 0)
            | ((events[index].events & (EPOLLERR | EPOLLHUP)) ? CURL_CSELECT_ERR : 0);
        curl_multi_socket_action(multi, events[index].data.fd, mask, &running);
    }
    if (driver->timer_due_ns >= 0 && driver->timer_due_ns <= feedsim_monotonic_ns()) {
        driver->timer_due_ns = -1;
        curl_multi_socket_action(multi, CURL_SOCKET_TIMEOUT, 0, &running);
    }
    return ready < 0 ? 0 : ready;
}

#endif
