#include "qsel/core/run_command.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cerrno>
#include <cstdlib>
#include <cstring>

extern char** environ;

namespace qsel {

std::string find_program(const std::string& program, const std::string& path) {
  if (program.empty() || program.find('/') != std::string::npos) return "";
  std::string dirs = path;
  if (dirs.empty()) {
    const char* env = std::getenv("PATH");
    dirs = env ? env : "/usr/bin:/bin";
  }
  std::size_t start = 0;
  while (start <= dirs.size()) {
    std::size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    std::string dir = dirs.substr(start, end - start);
    start = end + 1;
    if (dir.empty()) continue;  // an empty entry means the working directory: never run a tool from there
    std::string full = dir + "/" + program;
    struct stat st {};
    if (stat(full.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(full.c_str(), X_OK) == 0) return full;
  }
  return "";
}

std::optional<CommandResult> run_command(const std::vector<std::string>& argv, const CommandOptions& opts) {
  if (argv.empty()) return std::nullopt;
  std::string program = find_program(argv[0], opts.path);
  if (program.empty()) return std::nullopt;
  const int timeout_ms = opts.timeout_ms;
  const std::size_t max_bytes = opts.max_bytes;
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return std::nullopt;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  // Its own process group, so a timeout kills whatever it started too.
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attr, 0);
  pid_t pid = 0;
  int rc = posix_spawn(&pid, program.c_str(), &actions, &attr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  close(fds[1]);
  if (rc != 0) {
    close(fds[0]);
    return std::nullopt;
  }
  CommandResult r;
  auto deadline = std::min(std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms), opts.deadline);
  char buf[4096];
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
    if (left <= 0) {
      r.timed_out = true;
      break;
    }
    pollfd p{fds[0], POLLIN, 0};
    int n = poll(&p, 1, static_cast<int>(left));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) continue;
    ssize_t got = read(fds[0], buf, sizeof buf);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    std::size_t room = max_bytes - r.out.size();
    r.out.append(buf, std::min<std::size_t>(room, static_cast<std::size_t>(got)));
    if (r.out.size() >= max_bytes) {
      r.truncated = true;
      break;
    }
  }
  close(fds[0]);
  // Its output ended, but it may not: a tool that closes stdout and keeps running
  // gets the rest of the same deadline to exit.
  int status = 0;
  bool reaped = false;
  while (!r.timed_out && !r.truncated) {
    pid_t w = waitpid(pid, &status, WNOHANG);
    if (w == pid) {
      reaped = true;
      break;
    }
    if (w < 0 && errno != EINTR) break;
    if (std::chrono::steady_clock::now() >= deadline) {
      r.timed_out = true;
      break;
    }
    usleep(5000);
  }
  kill(-pid, SIGKILL);  // the group: the tool if it is still running, and anything it left behind
  while (!reaped && waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  return r;
}

}  // namespace qsel
