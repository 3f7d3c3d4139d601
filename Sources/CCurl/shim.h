#include <curl/curl.h>

// curl_easy_setopt, curl_easy_getinfo and curl_share_setopt are variadic, which Swift cannot
// call. Each wrapper below fixes the type of the one variadic argument, so the compiler checks
// at the call site what libcurl would otherwise read blindly.

/// curl_easy_setopt for options that take a long.
static inline CURLcode ccurl_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

/// curl_easy_setopt for options that take a string (libcurl copies it).
static inline CURLcode ccurl_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

/// curl_easy_setopt for options that take an object pointer (userdata, share, slist, buffer).
static inline CURLcode ccurl_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

/// curl_easy_setopt for options that take a curl_off_t (the *_LARGE options).
static inline CURLcode ccurl_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

/// curl_easy_setopt for CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION.
static inline CURLcode ccurl_easy_setopt_write_function(CURL *handle, CURLoption option, curl_write_callback value) {
    return curl_easy_setopt(handle, option, value);
}

/// curl_easy_setopt for CURLOPT_XFERINFOFUNCTION (a connect that can be abandoned).
static inline CURLcode ccurl_easy_setopt_xferinfo_function(CURL *handle, curl_xferinfo_callback value) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, value);
}

/// curl_easy_getinfo for CURLINFO_LONG values.
static inline CURLcode ccurl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

/// curl_easy_getinfo for CURLINFO_OFF_T values.
static inline CURLcode ccurl_easy_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

/// curl_easy_getinfo for CURLINFO_STRING values (owned by the handle; copy before the next transfer).
static inline CURLcode ccurl_easy_getinfo_string(CURL *handle, CURLINFO info, char **value) {
    return curl_easy_getinfo(handle, info, value);
}

/// curl_easy_getinfo for CURLINFO_ACTIVESOCKET (a curl_socket_t, not a long).
static inline CURLcode ccurl_easy_getinfo_socket(CURL *handle, CURLINFO info, curl_socket_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

/// curl_easy_getinfo for CURLINFO_CERTINFO (owned by the handle; read before it is reused).
static inline CURLcode ccurl_easy_getinfo_certinfo(CURL *handle, struct curl_certinfo **value) {
    return curl_easy_getinfo(handle, CURLINFO_CERTINFO, value);
}

/// curl_share_setopt for options that take a long (CURLSHOPT_SHARE, CURLSHOPT_UNSHARE).
static inline CURLSHcode ccurl_share_setopt_long(CURLSH *share, CURLSHoption option, long value) {
    return curl_share_setopt(share, option, value);
}

/// curl_share_setopt for CURLSHOPT_USERDATA.
static inline CURLSHcode ccurl_share_setopt_pointer(CURLSH *share, CURLSHoption option, void *value) {
    return curl_share_setopt(share, option, value);
}

/// curl_share_setopt for CURLSHOPT_LOCKFUNC.
static inline CURLSHcode ccurl_share_setopt_lock_function(CURLSH *share, curl_lock_function value) {
    return curl_share_setopt(share, CURLSHOPT_LOCKFUNC, value);
}

/// curl_share_setopt for CURLSHOPT_UNLOCKFUNC.
static inline CURLSHcode ccurl_share_setopt_unlock_function(CURLSH *share, curl_unlock_function value) {
    return curl_share_setopt(share, CURLSHOPT_UNLOCKFUNC, value);
}

/// The result code of a CURLMSG_DONE message (a union member, awkward to reach from Swift).
static inline CURLcode ccurl_multi_message_result(const CURLMsg *message) {
    return message->data.result;
}

// Macros whose casts Swift does not import.

/// CURLAUTH_BEARER as a long, the type CURLOPT_HTTPAUTH takes.
static inline long ccurl_auth_bearer(void) {
    return (long)CURLAUTH_BEARER;
}

/// CURL_GLOBAL_DEFAULT as a long, the type curl_global_init takes.
static inline long ccurl_global_default(void) {
    return (long)CURL_GLOBAL_DEFAULT;
}
