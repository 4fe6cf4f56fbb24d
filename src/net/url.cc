// URLs through curl_url (libcurl's parser, the one that sends the request), so
// what qsel shows and what libcurl connects to can never disagree.
#include "qsel/net/url.h"

#include <curl/curl.h>

#include <memory>

#include "qsel/core/text.h"

namespace qsel {
namespace {

constexpr std::size_t kMaxUrl = 4096;

struct UrlDeleter {
  void operator()(CURLU* u) const { curl_url_cleanup(u); }
};
using UrlHandle = std::unique_ptr<CURLU, UrlDeleter>;

// One part of a parsed URL; empty when it has none.
std::string part(CURLU* u, CURLUPart which, unsigned flags = 0) {
  char* text = nullptr;
  if (curl_url_get(u, which, &text, flags) != CURLUE_OK || !text) return "";
  std::string out(text);
  curl_free(text);
  return out;
}

}  // namespace

std::optional<Url> parse_url(std::string_view text) {
  if (text.size() > kMaxUrl || text.find('\0') != std::string_view::npos) return std::nullopt;
  UrlHandle h(curl_url());
  if (!h) return std::nullopt;
  std::string s(text);
  if (curl_url_set(h.get(), CURLUPART_URL, s.c_str(), 0) != CURLUE_OK) return std::nullopt;
  Url u;
  u.scheme = to_lower(part(h.get(), CURLUPART_SCHEME));
  if (u.scheme != "http" && u.scheme != "https") return std::nullopt;
  u.host = to_lower(part(h.get(), CURLUPART_HOST));
  if (u.host.empty()) return std::nullopt;
  std::string port = part(h.get(), CURLUPART_PORT, CURLU_DEFAULT_PORT);
  u.port = port.empty() || port.size() > 5 ? 0 : std::stoi(port);
  u.path = part(h.get(), CURLUPART_PATH);
  if (u.path.empty()) u.path = "/";
  u.user = part(h.get(), CURLUPART_USER, CURLU_URLDECODE);
  u.password = part(h.get(), CURLUPART_PASSWORD, CURLU_URLDECODE);
  if (curl_url_set(h.get(), CURLUPART_USER, nullptr, 0) != CURLUE_OK || curl_url_set(h.get(), CURLUPART_PASSWORD, nullptr, 0) != CURLUE_OK ||
      curl_url_set(h.get(), CURLUPART_OPTIONS, nullptr, 0) != CURLUE_OK || curl_url_set(h.get(), CURLUPART_HOST, u.host.c_str(), 0) != CURLUE_OK)
    return std::nullopt;
  u.shown = part(h.get(), CURLUPART_URL);
  if (u.shown.empty()) return std::nullopt;
  return u;
}

std::string redact_url(std::string_view text) {
  if (auto u = parse_url(text)) return u->shown;
  std::size_t scheme = text.find("://");
  if (scheme == std::string_view::npos) return std::string(text);
  std::size_t start = scheme + 3;
  std::size_t end = text.find_first_of("/?#", start);
  std::string_view authority = text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
  std::size_t at = authority.rfind('@');
  if (at == std::string_view::npos) return std::string(text);
  return std::string(text.substr(0, start)) + std::string(text.substr(start + at + 1));
}

std::string url_host(std::string_view url) {
  auto u = parse_url(url);
  return u ? u->host : "";
}

std::string url_origin(std::string_view url) {
  auto u = parse_url(url);
  if (!u) return "";
  std::string path = u->path;
  while (!path.empty() && path.back() == '/') path.pop_back();
  return u->scheme + "://" + u->host + ":" + std::to_string(u->port) + path;
}

bool same_origin(std::string_view a, std::string_view b) {
  auto x = parse_url(a), y = parse_url(b);
  return x && y && x->scheme == y->scheme && x->host == y->host && x->port == y->port;
}

}  // namespace qsel
