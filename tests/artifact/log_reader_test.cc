#include <catch2/catch.hpp>

#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "qsel/artifact/log_reader.h"
#include "qsel/core/errors.h"
#include "support/fixtures.h"

using namespace qsel;

TEST_CASE("log_reader: lines, CRLF, a last line without a newline, over-long lines cut", "[artifact][log]") {
  test::TempDir d;
  std::string text = "one\r\ntwo\n" + std::string(kMaxLogLine + 10, 'x') + "\nlast";
  auto path = d.write("a.log", text).string();
  std::vector<std::string> lines;
  LogScan s = scan_log(path, [&](std::size_t n, std::string_view l) {
    CHECK(n == lines.size() + 1);
    lines.emplace_back(l);
  });
  REQUIRE(lines.size() == 4);
  CHECK(lines[0] == "one");
  CHECK(lines[1] == "two");
  CHECK(lines[2].size() == kMaxLogLine);
  CHECK(lines[3] == "last");
  CHECK(s.cut == 1);
  CHECK(s.lines == 4);
  CHECK(s.bytes == text.size());
}

TEST_CASE("log_reader: only regular files (or - for standard input)", "[artifact][log]") {
  test::TempDir d;
  std::filesystem::create_directories(d.path() / "dir.log");
  CHECK_THROWS_WITH(scan_log((d.path() / "dir.log").string(), [](std::size_t, std::string_view) {}),
                    Catch::EndsWith("dir.log: not a regular file (pipe a stream with --log -)"));
  mkfifo((d.path() / "fifo").c_str(), 0644);
  CHECK_THROWS_WITH(scan_log((d.path() / "fifo").string(), [](std::size_t, std::string_view) {}), Catch::Contains("not a regular file"));
  CHECK_THROWS_WITH(scan_log((d.path() / "none.log").string(), [](std::size_t, std::string_view) {}), Catch::Contains("cannot open"));
}

TEST_CASE("log_reader: reading stops at the byte cap and says so (verify stopped silently at 4 GiB)", "[artifact][log]") {
  test::TempDir d;
  std::string text;
  for (int i = 0; i < 50000; ++i) text += "line " + std::to_string(i) + "\n";
  auto path = d.write("big.log", text).string();
  std::size_t seen = 0;
  LogScan s = scan_log(path, [&](std::size_t, std::string_view) { ++seen; }, 100000);
  CHECK(s.stopped);
  CHECK(s.bytes >= 100000);
  CHECK(s.bytes < text.size());
  CHECK(seen == s.lines);
  CHECK(!scan_log(path, [](std::size_t, std::string_view) {}).stopped);
  CHECK(kMaxLogBytes == 4ull << 30);
}

namespace {

// Standard input fed by a thread for the length of one scan: endlessly, or one line and then silence.
struct FedStdin {
  int fds[2] = {-1, -1};
  int saved = -1;
  std::atomic<bool> stop{false};
  std::thread writer;
  explicit FedStdin(bool endless) {
    REQUIRE(::pipe(fds) == 0);
    saved = ::dup(STDIN_FILENO);
    ::dup2(fds[0], STDIN_FILENO);
    writer = std::thread([this, endless] {
      std::string chunk;
      for (int i = 0; i < 100; ++i) chunk += "INFO 01-01 00:00:00 a line of an engine that never stops talking\n";
      bool first = true;
      while (!stop) {
        pollfd p{fds[1], POLLOUT, 0};
        if (::poll(&p, 1, 50) <= 0) continue;
        if ((endless || first) && ::write(fds[1], chunk.data(), chunk.size()) < 0) break;
        first = false;
        if (!endless) std::this_thread::sleep_for(std::chrono::milliseconds(50));
      }
    });
  }
  ~FedStdin() {
    stop = true;
    writer.join();
    ::dup2(saved, STDIN_FILENO);
    ::close(saved);
    ::close(fds[0]);
    ::close(fds[1]);
  }
};

}  // namespace

TEST_CASE("log_reader: standard input is bounded in time too (verify --log - ran to its 4 GiB cap)", "[artifact][log][slow]") {
  for (bool endless : {true, false}) {
    INFO((endless ? "endless" : "one line, then silence"));
    FedStdin in(endless);
    auto t0 = std::chrono::steady_clock::now();
    LogScan s = scan_log("-", [](std::size_t, std::string_view) {}, kMaxLogBytes, std::chrono::milliseconds(1000));
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    CHECK(s.stopped);
    CHECK(s.stopped_by_time);
    CHECK(s.lines >= 100);
    CHECK(seconds < 5);
  }
  CHECK(kMaxLogTime == std::chrono::seconds(20));
}
