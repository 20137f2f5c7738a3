/* rusage: run a command and write its resource usage to a file, for bench.py.
 *
 *   rusage OUT-FILE COMMAND [ARG...]
 *
 * Writes "exit-status maxrss-kB user-seconds sys-seconds" to OUT-FILE and exits with the
 * command's status. Why not measure from Python: on Linux a child's ru_maxrss is at least the RSS
 * of the process that forked it (the old address space's high-water mark survives exec), so a
 * child of the Python harness would report >= ~20 MB even for /bin/true. This small process
 * forks the command from a ~1 MB address space instead. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

static pid_t child;

static void forward(int signal) {
  if (child > 0) kill(child, signal);
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: rusage OUT-FILE COMMAND [ARG...]\n");
    return 64;
  }
  signal(SIGTERM, forward);
  signal(SIGINT, forward);
  child = fork();
  if (child < 0) {
    perror("rusage: fork");
    return 71;
  }
  if (child == 0) {
    signal(SIGTERM, SIG_DFL);
    signal(SIGINT, SIG_DFL);
    execvp(argv[2], argv + 2);
    perror("rusage: exec");
    _exit(127);
  }
  int status = 0;
  struct rusage usage;
  while (wait4(child, &status, 0, &usage) < 0) {
  }
  int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  FILE *out = fopen(argv[1], "w");
  if (out == NULL) {
    perror("rusage: output file");
    return 73;
  }
  fprintf(out, "%d %ld %ld.%06ld %ld.%06ld\n", code, usage.ru_maxrss, (long)usage.ru_utime.tv_sec,
          (long)usage.ru_utime.tv_usec, (long)usage.ru_stime.tv_sec, (long)usage.ru_stime.tv_usec);
  fclose(out);
  return code;
}
