/*
 * embed_threads: what a threaded PHP server (FrankenPHP's worker threads,
 * Apache's event MPM with a ZTS PHP) does, in a small program: one process,
 * one PHP engine, N threads, each running many requests of a script through
 * php_request_startup / php_execute_script / php_request_shutdown.
 *
 *   embed_threads -c php.ini -t THREADS -r REQUESTS [-q QUERY] SCRIPT
 *
 * Each request sees $_GET['thread'] (0..N-1), $_GET['request'] (0..R-1),
 * $_GET['threads'], $_GET['requests'], and what QUERY adds (a=1&b=2). A request's output is written to
 * stdout in one piece when the request ends, so lines of requests never
 * interleave. A request that forked (pcntl_fork) ends its child when the
 * script ends: the child writes what it printed and leaves with _exit(0).
 * Exit status: 0 when every request ran, 1 when one failed to start.
 * Needs a thread-safe PHP with the embed SAPI (--enable-zts --enable-embed).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sapi/embed/php_embed.h>
#include <main/php_main.h>
#include <main/SAPI.h>

#ifndef ZTS
#error "embed_threads needs a thread-safe PHP (--enable-zts)"
#endif

static int threads = 16, requests = 100;
static const char *script, *extra_query = "";
static pid_t parent_pid;
static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;
static int failed_starts;

/* The running request's output, per thread. */
static __thread char *out_buf;
static __thread size_t out_len, out_cap;

static size_t buffered_write(const char *str, size_t len)
{
    if (out_len + len > out_cap) {
        size_t cap = out_cap ? out_cap : 4096;
        while (cap < out_len + len) cap *= 2;
        char *grown = realloc(out_buf, cap);
        if (!grown) return 0;
        out_buf = grown;
        out_cap = cap;
    }
    memcpy(out_buf + out_len, str, len);
    out_len += len;
    return len;
}

static void flush_output(void)
{
    pthread_mutex_lock(&out_lock);
    size_t done = 0;
    while (done < out_len) {
        ssize_t n = write(STDOUT_FILENO, out_buf + done, out_len - done);
        if (n <= 0) break;
        done += (size_t)n;
    }
    pthread_mutex_unlock(&out_lock);
    out_len = 0;
}

/* One request, as a threaded server runs it. */
static void run_request(int thread, int request)
{
    char query[1024];
    snprintf(query, sizeof query, "thread=%d&request=%d&threads=%d&requests=%d&%s", thread, request, threads, requests, extra_query);
    SG(options) |= SAPI_OPTION_NO_CHDIR;
    SG(request_info).query_string = query;
    SG(request_info).request_method = "GET";
    SG(request_info).path_translated = (char *)script;
    SG(server_context) = (void *)1; /* a request is being served */
    if (php_request_startup() == FAILURE) {
        __atomic_add_fetch(&failed_starts, 1, __ATOMIC_RELAXED);
        SG(server_context) = NULL;
        return;
    }
    SG(headers_sent) = 1;
    SG(request_info).no_headers = 1;
    zend_file_handle file;
    zend_stream_init_filename(&file, script);
    php_execute_script(&file);
    if (getpid() != parent_pid) {
        /* The child of a pcntl_fork() in this request: only this thread was
         * copied, so it says what it printed and leaves, as a server's
         * forked helper would, rather than run on as a copy of the thread. */
        flush_output();
        _exit(0);
    }
    zend_destroy_file_handle(&file);
    php_request_shutdown(NULL);
    SG(server_context) = NULL;
    SG(request_info).query_string = NULL;
    SG(request_info).path_translated = NULL;
    flush_output();
}

static void *worker(void *arg)
{
    int thread = (int)(long)arg;
    (void)ts_resource(0); /* this thread's engine state (calls every extension's globals and ini set-up) */
    for (int r = 0; r < requests; r++) run_request(thread, r);
    free(out_buf);
    ts_free_thread();
    return NULL;
}

int main(int argc, char **argv)
{
    const char *ini = NULL;
    int opt;
    while ((opt = getopt(argc, argv, "c:t:r:q:")) != -1) {
        switch (opt) {
        case 'c': ini = optarg; break;
        case 't': threads = atoi(optarg); break;
        case 'r': requests = atoi(optarg); break;
        case 'q': extra_query = optarg; break;
        default: goto usage;
        }
    }
    if (optind != argc - 1 || threads < 1 || requests < 1) goto usage;
    script = argv[optind];
    parent_pid = getpid();

    php_embed_module.ub_write = buffered_write;
    if (ini) php_embed_module.php_ini_path_override = (char *)ini;
    else php_embed_module.php_ini_ignore = 1;
    if (php_embed_init(0, NULL) == FAILURE) {
        fprintf(stderr, "embed_threads: PHP did not start\n");
        return 1;
    }
    pthread_t *ids = calloc((size_t)threads, sizeof *ids);
    for (long t = 0; t < threads; t++) {
        if (pthread_create(&ids[t], NULL, worker, (void *)t) != 0) {
            fprintf(stderr, "embed_threads: thread %ld did not start\n", t);
            return 1;
        }
    }
    for (int t = 0; t < threads; t++) pthread_join(ids[t], NULL);
    free(ids);
    flush_output(); /* what the main thread's own request printed (startup warnings) */
    php_embed_shutdown();
    if (failed_starts) fprintf(stderr, "embed_threads: %d request(s) did not start\n", failed_starts);
    return failed_starts ? 1 : 0;
usage:
    fprintf(stderr, "usage: embed_threads [-c php.ini] [-t threads] [-r requests] [-q query] script.php\n");
    return 2;
}
