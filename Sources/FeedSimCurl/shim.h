#ifndef FEEDSIM_CURL_SHIM_H
#define FEEDSIM_CURL_SHIM_H

#include <curl/curl.h>

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

#endif
