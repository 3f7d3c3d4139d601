/* The floor of the daemon's no-change pass, for scripts/bench: libcurl alone, in one process
 * that stays up, fetching URL once every PACE_MS milliseconds, COUNT times, over the connection
 * it keeps (as walletwatch's transfer threads do), the body thrown away as it arrives (curl's
 * `-o /dev/null`). Prints one transfer time in seconds per line (the first request included:
 * the caller leaves it out, as it leaves out the daemon's first pass).
 *
 * Why not curl's own process: a transfer that starts after the machine idled is slower than one
 * that follows another (on the 2-core virtual machines walletwatch is measured on, the same
 * loop took about 20 ms back to back and 40-60 ms a second apart), and a curl process warms the
 * machine up while it starts, so only a process that waits between requests, as the daemon does,
 * meets the same conditions.
 *
 * usage: curl-paced URL BEARER_TOKEN COUNT PACE_MS */
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static size_t discard(char *data, size_t size, size_t count, void *context) {
    (void)data;
    (void)context;
    return size * count;
}

static double seconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: curl-paced URL BEARER_TOKEN COUNT PACE_MS\n");
        return 64;
    }
    int count = atoi(argv[3]);
    long pace = atol(argv[4]);
    curl_global_init(CURL_GLOBAL_DEFAULT);
    CURL *easy = curl_easy_init();
    if (easy == NULL) return 1;
    curl_easy_setopt(easy, CURLOPT_URL, argv[1]);
    curl_easy_setopt(easy, CURLOPT_XOAUTH2_BEARER, argv[2]);
    curl_easy_setopt(easy, CURLOPT_HTTPAUTH, CURLAUTH_BEARER);
    curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, discard);
    curl_easy_setopt(easy, CURLOPT_FAILONERROR, 1L);
    for (int index = 0; index < count; index++) {
        if (index > 0) {
            struct timespec wait = {pace / 1000, (pace % 1000) * 1000000L};
            nanosleep(&wait, NULL);
        }
        double started = seconds();
        CURLcode result = curl_easy_perform(easy);
        double took = seconds() - started;
        if (result != CURLE_OK) {
            fprintf(stderr, "curl-paced: %s\n", curl_easy_strerror(result));
            return 1;
        }
        printf("%.6f\n", took);
        fflush(stdout);
    }
    curl_easy_cleanup(easy);
    curl_global_cleanup();
    return 0;
}
