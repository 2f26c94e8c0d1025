// Non-variadic wrappers around libcurl's variadic setopt/getinfo calls, which Swift cannot import.
#ifndef AGG_CCURL_SHIM_H
#define AGG_CCURL_SHIM_H

#include <curl/curl.h>

static inline CURLcode agg_curl_set_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode agg_curl_set_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode agg_curl_set_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode agg_curl_set_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}

typedef size_t (*agg_curl_data_callback)(char *data, size_t size, size_t count, void *userdata);

static inline CURLcode agg_curl_set_callback(CURL *handle, CURLoption option, agg_curl_data_callback value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode agg_curl_get_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode agg_curl_get_pointer(CURL *handle, CURLINFO info, void **value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode agg_curl_get_string(CURL *handle, CURLINFO info, char **value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode agg_curl_get_off_t(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

// The multi interface's socket and timer callbacks, for the WebSocket engine's own poll loop.
typedef int (*agg_curl_socket_callback)(CURL *easy, curl_socket_t socket, int what, void *userp, void *socketp);
typedef int (*agg_curl_timer_callback)(CURLM *multi, long timeout_ms, void *userp);

static inline CURLMcode agg_curl_multi_set_socket_callback(CURLM *multi, agg_curl_socket_callback value) {
    return curl_multi_setopt(multi, CURLMOPT_SOCKETFUNCTION, value);
}

static inline CURLMcode agg_curl_multi_set_timer_callback(CURLM *multi, agg_curl_timer_callback value) {
    return curl_multi_setopt(multi, CURLMOPT_TIMERFUNCTION, value);
}

static inline CURLMcode agg_curl_multi_set_pointer(CURLM *multi, CURLMoption option, void *value) {
    return curl_multi_setopt(multi, option, value);
}

static inline CURLcode agg_curl_get_socket(CURL *handle, CURLINFO info, curl_socket_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

#endif
