// URLs from strangers (HF_ENDPOINT, --model, a redirect's Location) read with
// libcurl's own parser, curl_url: the parts qsel needs, and the one way a URL is
// shown. A user:password@ in a URL never leaves qsel: what is printed, logged,
// put in JSON or used as a cache key is `shown`, and the credentials travel
// beside the URL (HttpRequest::user/password) to authenticate the request.
#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace qsel {

struct Url {
  std::string scheme;          // "http" or "https", lower-case whatever was typed
  std::string host;            // lower-case
  int port = 0;                // as given, else the scheme's default
  std::string path;            // "/" at least
  std::string user, password;  // percent-decoded; empty when the URL has none
  std::string shown;           // the URL without user and password, host lower-case
};

// An http(s) URL of at most 4 KiB; nothing for any other scheme, a malformed URL
// (no host, a bad port, a control byte), or text that is not a URL.
std::optional<Url> parse_url(std::string_view text);

// `text` as it may be shown: a URL without its user and password. Text libcurl does
// not read as an http(s) URL loses everything up to the last '@' of what follows
// "://" (its authority) all the same; text without "://" is returned unchanged.
std::string redact_url(std::string_view text);

// The lower-case host of an http(s) URL; empty when it is not one.
std::string url_host(std::string_view url);

// What a cache keys an endpoint by: "scheme://host:port" and the path without its
// trailing '/' ("https://huggingface.co:443", "https://mirror.example:443/hf"); empty
// when `url` is not an http(s) URL. Never holds credentials.
std::string url_origin(std::string_view url);

// The same scheme, host and port: where a credential for one may go to the other.
bool same_origin(std::string_view a, std::string_view b);

}  // namespace qsel
