#include "support/hub_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <stdexcept>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace qsel::test {
namespace {

bool send_all(int fd, std::string_view data) {
  while (!data.empty()) {
    ssize_t n = ::send(fd, data.data(), data.size(), MSG_NOSIGNAL);
    if (n <= 0) return false;
    data.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

std::string reason(int code) {
  switch (code) {
    case 200: return "OK";
    case 206: return "Partial Content";
    case 302: return "Found";
    case 304: return "Not Modified";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 416: return "Range Not Satisfiable";
    case 429: return "Too Many Requests";
    default: return "Internal Server Error";
  }
}

std::string head(int code, const std::vector<std::pair<std::string, std::string>>& headers, std::uint64_t length) {
  std::string out = fmt::format("HTTP/1.1 {} {}\r\nConnection: close\r\n", code, reason(code));
  for (const auto& [k, v] : headers) out += k + ": " + v + "\r\n";
  out += fmt::format("Content-Length: {}\r\n\r\n", length);
  return out;
}

std::string simple(int code, const std::vector<std::pair<std::string, std::string>>& headers, const std::string& body) {
  return head(code, headers, body.size()) + body;
}

std::string decode(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size()) {
      out += static_cast<char>(std::stoi(std::string(s.substr(i + 1, 2)), nullptr, 16));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

std::vector<std::string> split(std::string_view s) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while (at <= s.size()) {
    std::size_t end = s.find('/', at);
    out.emplace_back(s.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at));
    if (end == std::string_view::npos) break;
    at = end + 1;
  }
  return out;
}

// Bytes [first, last] of a served file: its stored start, zeros after.
std::string slice(const ServedFile& f, std::uint64_t first, std::uint64_t last) {
  std::string out;
  for (std::uint64_t i = first; i <= last && i < f.bytes.size(); ++i) out += f.bytes[i];
  if (last + 1 > first + out.size()) out.append(static_cast<std::size_t>(last + 1 - first - out.size()), '\0');
  return out;
}

}  // namespace

HubServer::HubServer() {
  listen_fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (listen_fd_ < 0) throw std::runtime_error("socket");
  int one = 1;
  setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  if (::bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || ::listen(listen_fd_, 64) != 0)
    throw std::runtime_error("bind/listen on 127.0.0.1");
  socklen_t len = sizeof addr;
  getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len);
  port_ = ntohs(addr.sin_port);
  acceptor_ = std::thread([this] { accept_loop(); });
}

HubServer::~HubServer() {
  stop_ = true;
  acceptor_.join();
  std::vector<std::thread> workers;
  {
    std::lock_guard<std::mutex> lock(mu_);
    workers.swap(workers_);
  }
  for (auto& t : workers) t.join();
  ::close(listen_fd_);
}

std::string HubServer::endpoint() const { return fmt::format("http://127.0.0.1:{}", port_); }

void HubServer::add_repo(const std::string& repo, const std::string& sha, Misbehave how) {
  std::lock_guard<std::mutex> lock(mu_);
  repos_[repo].sha = sha;
  repos_[repo].how = how;
}

void HubServer::add_file(const std::string& repo, const std::string& path, const std::string& bytes, std::uint64_t size) {
  std::lock_guard<std::mutex> lock(mu_);
  repos_[repo].files[path] = ServedFile{bytes, std::max<std::uint64_t>(size, bytes.size())};
}

std::vector<std::string> HubServer::log() const {
  std::lock_guard<std::mutex> lock(mu_);
  return log_;
}

std::vector<std::map<std::string, std::string>> HubServer::request_headers() const {
  std::lock_guard<std::mutex> lock(mu_);
  return headers_log_;
}

void HubServer::add_listed_names(const std::string& repo, const std::vector<std::string>& names) {
  std::lock_guard<std::mutex> lock(mu_);
  auto& listed = repos_[repo].listed;
  listed.insert(listed.end(), names.begin(), names.end());
}

void HubServer::accept_loop() {
  while (!stop_) {
    pollfd p{listen_fd_, POLLIN, 0};
    if (::poll(&p, 1, 50) <= 0) continue;
    int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) continue;
    std::lock_guard<std::mutex> lock(mu_);
    workers_.emplace_back([this, fd] {
      serve(fd);
      ::close(fd);
    });
  }
}

void HubServer::serve(int fd) {
  if (silent_) {  // accept, then say nothing until the client gives up or the server stops
    while (!stop_) {
      pollfd p{fd, POLLIN, 0};
      if (::poll(&p, 1, 50) > 0) {
        char c[512];
        if (::recv(fd, c, sizeof c, MSG_DONTWAIT) == 0) break;
      }
    }
    return;
  }
  std::string req;
  char buf[4096];
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (req.find("\r\n\r\n") == std::string::npos && req.size() < 65536 && std::chrono::steady_clock::now() < deadline && !stop_) {
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 50) <= 0) continue;
    ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n <= 0) return;
    req.append(buf, static_cast<std::size_t>(n));
  }
  std::size_t line_end = req.find("\r\n");
  if (line_end == std::string::npos) return;
  std::string line = req.substr(0, line_end);
  std::string method = line.substr(0, line.find(' '));
  std::string target = line.substr(line.find(' ') + 1);
  target = target.substr(0, target.find(' '));
  std::map<std::string, std::string> headers;
  for (std::size_t at = line_end + 2; at < req.size();) {
    std::size_t end = req.find("\r\n", at);
    if (end == std::string::npos || end == at) break;
    std::string h = req.substr(at, end - at);
    if (auto colon = h.find(':'); colon != std::string::npos) {
      std::string name = h.substr(0, colon);
      for (auto& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      std::size_t v = h.find_first_not_of(' ', colon + 1);
      headers[name] = v == std::string::npos ? "" : h.substr(v);
    }
    at = end + 2;
  }
  requests_++;
  {
    std::lock_guard<std::mutex> lock(mu_);
    headers_log_.push_back(headers);
  }
  // Requests in flight are counted while they wait: a client cannot have seen their
  // answers yet, so it cannot have started another in their place.
  int now = ++concurrent_;
  for (int most = most_concurrent_.load(); now > most && !most_concurrent_.compare_exchange_weak(most, now);) {
  }
  for (int waited = 0; waited < delay_ms_.load() && !stop_; waited += 5) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  --concurrent_;
  bool sent = false;
  std::string response = answer(method, target, headers, fd, &sent);
  if (!sent) {  // logged before the answer leaves, so a client that has it sees the line
    note(method, target, response.substr(9, 3), headers);
    send_all(fd, response);
  }
}

void HubServer::note(const std::string& method, const std::string& target, const std::string& status,
                     const std::map<std::string, std::string>& headers) {
  std::lock_guard<std::mutex> lock(mu_);
  log_.push_back(fmt::format("{} {} {}{}", method, target, status, headers.count("authorization") ? " (token)" : ""));
}

std::string HubServer::answer(const std::string& method, const std::string& target, const std::map<std::string, std::string>& headers, int fd,
                              bool* sent) {
  std::string path = target.substr(0, target.find('?'));
  auto seg = split(std::string_view(path).substr(1));
  std::unique_lock<std::mutex> lock(mu_);
  auto error = [](int code, const std::string& xcode, const std::string& message) {
    return simple(code, {{"X-Error-Code", xcode}, {"Content-Type", "application/json"}}, nlohmann::json{{"error", message}}.dump());
  };
  // /api/models/{org}/{name}/revision/{rev}
  if (seg.size() == 6 && seg[0] == "api" && seg[1] == "models" && seg[4] == "revision") {
    std::string repo = seg[2] + "/" + seg[3], rev = decode(seg[5]);
    auto it = repos_.find(repo);
    if (it == repos_.end()) return error(404, "RepoNotFound", "Repository not found");
    Repo& r = it->second;
    r.list_requests++;
    if (r.how == Misbehave::private_repo) return error(401, "RepoNotFound", "Repository not found");
    if (r.how == Misbehave::rate_limited && r.list_requests == 1) return simple(429, {{"Retry-After", "1"}}, "slow down");
    if (r.how == Misbehave::flaky && r.list_requests == 1) return simple(500, {}, "oops");
    if (r.how == Misbehave::storm_429) return simple(429, {{"Retry-After", std::to_string(retry_after_s_.load())}}, "slow down");
    if (rev != "main" && rev != r.sha) return error(404, "RevisionNotFound", "Invalid rev id: " + rev);
    std::string etag = r.how == Misbehave::crlf_etag ? "\"" + r.sha + "\rX-Evil: 1\"" : "\"" + r.sha + "\"";
    if (headers.count("if-none-match") && headers.at("if-none-match") == etag) return simple(304, {{"ETag", etag}}, "");
    nlohmann::json j = {{"id", repo}, {"sha", r.sha}, {"gated", r.how == Misbehave::gated ? nlohmann::json("manual") : nlohmann::json(false)},
                        {"siblings", nlohmann::json::array()}};
    for (const auto& [name, f] : r.files) j["siblings"].push_back({{"rfilename", name}, {"size", f.size}});
    for (const auto& name : r.listed) j["siblings"].push_back({{"rfilename", name}, {"size", 1}});
    return simple(200, {{"ETag", etag}, {"Content-Type", "application/json"}}, j.dump());
  }
  // /{org}/{name}/resolve/{rev}/{path…}
  if (seg.size() >= 5 && seg[2] == "resolve") {
    std::string repo = seg[0] + "/" + seg[1], file;
    for (std::size_t i = 4; i < seg.size(); ++i) file += (file.empty() ? "" : "/") + decode(seg[i]);
    auto it = repos_.find(repo);
    if (it == repos_.end()) return error(404, "RepoNotFound", "Repository not found");
    Repo& r = it->second;
    if (r.how == Misbehave::private_repo) return error(401, "RepoNotFound", "Repository not found");
    if (r.how == Misbehave::gated)
      return headers.count("authorization") ? error(403, "GatedRepo", "Access to model " + repo + " is restricted. You must have access to it.")
                                            : error(401, "GatedRepo", "Cannot access gated repo for url " + target);
    if (r.how == Misbehave::redirect_loop) return simple(302, {{"Location", target}}, "");
    if (r.how == Misbehave::storm_429) return simple(429, {{"Retry-After", std::to_string(retry_after_s_.load())}}, "slow down");
    if (!r.files.count(file)) return error(404, "EntryNotFound", "Entry not found");
    // The bytes live on "another host": localhost instead of 127.0.0.1, so a client must drop the token.
    std::string rest = path.substr(seg[0].size() + seg[1].size() + seg[2].size() + seg[3].size() + 4);
    return simple(302, {{"Location", fmt::format("http://localhost:{}/cdn/{}/{}/{}", port_, repo, r.sha, rest)}, {"X-Repo-Commit", r.sha}},
                  "");
  }
  // /cdn/{org}/{name}/{sha}/{path…}: the bytes, with Range.
  if (seg.size() >= 5 && seg[0] == "cdn") {
    std::string repo = seg[1] + "/" + seg[2], file;
    for (std::size_t i = 4; i < seg.size(); ++i) file += (file.empty() ? "" : "/") + decode(seg[i]);
    auto it = repos_.find(repo);
    if (it == repos_.end() || !it->second.files.count(file)) return simple(404, {}, "no such blob");
    Repo& r = it->second;
    ServedFile f = r.files.at(file);
    Misbehave how = r.how;
    int version = ++r.file_requests;
    lock.unlock();
    std::string etag = "\"" + std::to_string(std::hash<std::string>{}(file + f.bytes)) + "\"";
    if (how == Misbehave::changing) {  // a new version at every request: the bytes past 256 KiB differ
      etag = fmt::format("\"v{}\"", version);
      for (std::size_t i = 262144; i < f.bytes.size(); i += 4096) f.bytes[i] = static_cast<char>('a' + version % 26);
    }
    if (how == Misbehave::http09) {
      *sent = true;
      note(method, target, "0.9", headers);
      send_all(fd, "this is not an HTTP answer\n");
      return "";
    }
    if (how == Misbehave::header_flood) {
      *sent = true;
      note(method, target, "flood", headers);
      send_all(fd, "HTTP/1.1 200 OK\r\n");
      for (int i = 0; i < 100000 && !stop_; ++i)
        if (!send_all(fd, fmt::format("X-Flood-{}: {}\r\n", i, std::string(40, 'a')))) break;
      return "";
    }
    std::uint64_t first = 0, last = f.size - 1;
    bool ranged = false;
    bool stale = headers.count("if-range") && headers.at("if-range") != etag;  // RFC 9110: the whole file, 200
    if (headers.count("range") && how != Misbehave::ignore_range && !stale) {
      std::string v = headers.at("range");  // bytes=a-b
      if (v.rfind("bytes=", 0) == 0) {
        first = std::stoull(v.substr(6));
        std::string b = v.substr(v.find('-') + 1);
        if (!b.empty()) last = std::min<std::uint64_t>(std::stoull(b), f.size - 1);
        if (first >= f.size) return simple(416, {{"Content-Range", fmt::format("bytes */{}", f.size)}}, "");
        ranged = true;
      }
    }
    std::uint64_t length = last - first + 1;
    std::vector<std::pair<std::string, std::string>> h = {{"ETag", etag}, {"Accept-Ranges", "bytes"}};
    if (ranged) h.push_back({"Content-Range", fmt::format("bytes {}-{}/{}", first, last, f.size)});
    int code = ranged ? 206 : 200;
    *sent = true;
    note(method, target, std::to_string(code), headers);
    if (how == Misbehave::huge_length) {
      send_all(fd, head(code, h, 10737418240ull) + slice(f, first, std::min(last, first + 1000)));
      return head(code, h, 10737418240ull);
    }
    if (!send_all(fd, head(code, h, length))) return head(code, h, length);
    if (how == Misbehave::short_body) {
      send_all(fd, slice(f, first, first + length / 2));
      return head(code, h, length);
    }
    if (how == Misbehave::trickle) {  // one byte every 0.6 s: about 1.7 bytes a second, never a stall
      for (std::uint64_t at = first; at <= last && !stop_; ++at) {
        if (!send_all(fd, slice(f, at, at))) break;
        for (int i = 0; i < 12 && !stop_; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
      }
      return head(code, h, length);
    }
    if (how == Misbehave::never_ends) {
      send_all(fd, slice(f, first, first + std::min<std::uint64_t>(length, 16) - 1));
      while (!stop_) {  // nothing more until the client gives up (or the server stops)
        pollfd p{fd, POLLIN, 0};
        if (::poll(&p, 1, 50) > 0) {
          char c;
          if (::recv(fd, &c, 1, MSG_DONTWAIT) == 0) break;
        }
      }
      return head(code, h, length);
    }
    for (std::uint64_t at = first; at <= last && !stop_;) {  // in 64 KiB pieces: a client may stop reading early
      std::uint64_t end = std::min(last, at + 65535);
      if (!send_all(fd, slice(f, at, end))) break;
      at = end + 1;
    }
    return head(code, h, length);
  }
  return simple(404, {}, "not found");
}

}  // namespace qsel::test
