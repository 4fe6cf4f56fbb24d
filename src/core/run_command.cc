#include "qsel/core/run_command.h"

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>

#include "qsel/core/text_file.h"

extern char** environ;

namespace qsel {
namespace {

using Clock = std::chrono::steady_clock;

// Once the tool has exited, what it printed is read for this long more: a child it
// left behind may hold its stdout open for ever.
constexpr auto kAfterExit = std::chrono::milliseconds(200);

// Every process of this user, by pid, from /proc (nothing where there is no /proc).
template <typename Visit>
void each_process(Visit visit) {
  DIR* d = ::opendir("/proc");
  if (!d) return;
  while (dirent* e = ::readdir(d)) {
    char* end = nullptr;
    long pid = std::strtol(e->d_name, &end, 10);
    if (pid <= 0 || *end != '\0' || pid == ::getpid()) continue;
    visit(static_cast<pid_t>(pid));
  }
  ::closedir(d);
}

// The session of `pid` from /proc/PID/stat ("pid (comm) state ppid pgrp session …"); -1 when gone.
pid_t session_of(pid_t pid) {
  std::string stat;
  try {
    stat = read_stream_file("/proc/" + std::to_string(pid) + "/stat", 4096, "process status");
  } catch (const std::exception&) {
    return -1;
  }
  std::size_t close = stat.rfind(')');
  if (close == std::string::npos) return -1;
  char state = 0;
  long ppid = 0, pgrp = 0, session = -1;
  if (std::sscanf(stat.c_str() + close + 1, " %c %ld %ld %ld", &state, &ppid, &pgrp, &session) != 4 || state == 'Z') return -1;
  return static_cast<pid_t>(session);
}

// Whether `pid` holds the pipe whose inode is `inode` open.
bool holds_pipe(pid_t pid, ino_t inode) {
  std::string dir = "/proc/" + std::to_string(pid) + "/fd";
  DIR* d = ::opendir(dir.c_str());
  if (!d) return false;
  std::string want = "pipe:[" + std::to_string(inode) + "]";
  bool found = false;
  char link[64];
  while (dirent* e = ::readdir(d)) {
    ssize_t n = ::readlinkat(::dirfd(d), e->d_name, link, sizeof link - 1);
    if (n > 0 && std::string_view(link, static_cast<std::size_t>(n)) == want) {
      found = true;
      break;
    }
  }
  ::closedir(d);
  return found;
}

// The tool's whole session dies with it: its process group, every process in its
// session (a child that moved to a group of its own), and, when its stdout is still
// held open after it exited, whoever holds it (a child detached into a session of its own).
void kill_what_it_left(pid_t sid, ino_t pipe_inode, bool pipe_held) {
  ::kill(-sid, SIGKILL);
  for (int round = 0; round < 3; ++round) {
    int killed = 0;
    each_process([&](pid_t pid) {
      if (session_of(pid) == sid || (pipe_held && holds_pipe(pid, pipe_inode))) {
        ::kill(pid, SIGKILL);
        ++killed;
      }
    });
    if (killed == 0) break;
  }
}

// Whether `pid` has exited, without reaping it: until it is reaped its pid, and so
// its session's and group's ids, cannot be given to another process.
bool has_exited(pid_t pid) {
  siginfo_t info{};
  return waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid;
}

}  // namespace

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
  const std::size_t max_bytes = opts.max_bytes;
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return std::nullopt;
  struct stat pipe_stat {};
  ::fstat(fds[0], &pipe_stat);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  // A session of its own (its process group too), so a timeout kills whatever it started.
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
#ifdef POSIX_SPAWN_SETSID
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSID);
#else
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attr, 0);
#endif
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
  auto started = Clock::now();
  auto deadline = std::min(started + std::chrono::milliseconds(opts.timeout_ms), opts.deadline);
  bool exited = false, at_end = false;
  auto after_exit = Clock::time_point::max();
  char buf[4096];
  for (;;) {
    auto now = Clock::now();
    if (now >= deadline) {
      r.timed_out = !exited;
      break;
    }
    if (now >= after_exit) break;  // the tool is done; whatever still holds its stdout is not it
    if (!exited && has_exited(pid)) {
      exited = true;
      after_exit = now + kAfterExit;
    }
    auto slice = std::min({deadline, after_exit, now + std::chrono::milliseconds(50)}) - now;  // 50 ms: to notice the exit
    pollfd p{fds[0], POLLIN, 0};
    int n = poll(&p, 1, static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(slice).count()) + 1);
    if (n <= 0) continue;
    ssize_t got = read(fds[0], buf, sizeof buf);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) {
      at_end = true;
      break;
    }
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
  while (!exited && !r.timed_out && !r.truncated) {
    if (has_exited(pid)) {
      exited = true;
      break;
    }
    if (Clock::now() >= deadline) {
      r.timed_out = true;
      break;
    }
    usleep(5000);
  }
  // The time it had, not the time the clean-up below takes on a loaded machine.
  r.seconds = std::chrono::duration<double>((r.timed_out ? deadline : Clock::now()) - started).count();
  kill_what_it_left(pid, pipe_stat.st_ino, !at_end);  // before the tool is reaped: its ids are still its own
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  return r;
}

}  // namespace qsel
