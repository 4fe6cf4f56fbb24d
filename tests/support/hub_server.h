// A Hugging Face Hub on the loopback address, started by the test itself: the
// same URLs the real Hub answers (/api/models/{repo}/revision/{rev} with the
// file list, /{repo}/resolve/{rev}/{file} redirecting to a second path that
// serves the bytes with Range and ETag), and the ways a real network misbehaves,
// chosen per repository. Only HF_ENDPOINT points qsel at it: the production
// code path is the one tested.
#pragma once
#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace qsel::test {

// What a repository does besides answering well.
enum class Misbehave {
  none,
  gated,          // the list answers (gated: manual); files: 401 GatedRepo without a token, 403 with one
  private_repo,   // everything: 401 RepoNotFound
  rate_limited,   // the first file-list request: 429 with Retry-After: 1
  flaky,          // the first file-list request: 500
  short_body,     // files: a Content-Length larger than the bytes sent, then the connection closes
  ignore_range,   // files: 200 and the whole file for a Range request
  redirect_loop,  // files: a redirect to itself
  never_ends,     // files: the headers and a few bytes, then nothing until the server stops
  huge_length,    // files: "Content-Length: 10737418240" for a small file, then its bytes
  trickle,        // files: the headers, then one byte every 0.6 s (a stall limit alone never fires)
  storm_429,      // everything: 429 with Retry-After: 20 (set_retry_after), every time
  changing,       // files: a new version (ETag and bytes past 256 KiB) at every request; If-Range honoured
  crlf_etag,      // the file list: an ETag holding a bare CR and a second header's text
  http09,         // files: bytes with no status line (HTTP/0.9), then the connection closes
  header_flood,   // files: a status line, then 100,000 header lines
};

struct ServedFile {
  std::string bytes;        // the file's start (a header); the rest reads as zeros
  std::uint64_t size = 0;   // the whole file's size (>= bytes.size())
};

class HubServer {
 public:
  HubServer();
  ~HubServer();
  HubServer(const HubServer&) = delete;
  HubServer& operator=(const HubServer&) = delete;

  std::string endpoint() const;  // "http://127.0.0.1:PORT"
  // A repository at commit `sha` (40 hex), answering on revision "main" and on its sha.
  void add_repo(const std::string& repo, const std::string& sha, Misbehave how = Misbehave::none);
  void add_file(const std::string& repo, const std::string& path, const std::string& bytes, std::uint64_t size = 0);
  int requests() const { return requests_.load(); }
  std::vector<std::string> log() const;  // "GET /api/models/… 200", one line per request
  // Every request's headers (names lower-case, values as received), in order.
  std::vector<std::map<std::string, std::string>> request_headers() const;
  // Connections are accepted and never answered (a TLS handshake that never finishes).
  void set_silent(bool silent) { silent_ = silent; }
  // Every answer waits this long before it leaves (a network's round trip); 0 unless set.
  void set_delay_ms(int ms) { delay_ms_ = ms; }
  // The most requests that were waiting for their answers at one time (counted during the delay).
  int most_concurrent() const { return most_concurrent_.load(); }
  // The Retry-After a storm_429 repository asks for (20 s unless set).
  void set_retry_after(int seconds) { retry_after_s_ = seconds; }
  // The listing answers an extra sibling per name (a repository with 100,000 files).
  void add_listed_names(const std::string& repo, const std::vector<std::string>& names);

 private:
  struct Repo {
    std::string sha;
    Misbehave how = Misbehave::none;
    std::map<std::string, ServedFile> files;
    std::vector<std::string> listed;  // names in the listing only (no bytes)
    int list_requests = 0;
    int file_requests = 0;
  };
  void accept_loop();
  void serve(int fd);
  void note(const std::string& method, const std::string& target, const std::string& status, const std::map<std::string, std::string>& headers);
  std::string answer(const std::string& method, const std::string& target, const std::map<std::string, std::string>& headers, int fd,
                     bool* sent);

  int listen_fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::atomic<bool> silent_{false};
  std::atomic<int> retry_after_s_{20};
  std::atomic<int> requests_{0};
  std::atomic<int> delay_ms_{0};
  std::atomic<int> concurrent_{0}, most_concurrent_{0};
  std::thread acceptor_;
  mutable std::mutex mu_;
  std::vector<std::thread> workers_;
  std::map<std::string, Repo> repos_;
  std::vector<std::string> log_;
  std::vector<std::map<std::string, std::string>> headers_log_;
};

}  // namespace qsel::test
