// The Hub client's settings from the environment, with the names the
// huggingface_hub library uses, so a user's existing setup carries over.
#include <cstdlib>
#include <filesystem>

#include <fmt/format.h>

#include "qsel/core/errors.h"
#include "qsel/core/text.h"
#include "qsel/core/text_file.h"
#include "qsel/model/hub.h"
#include "qsel/net/url.h"

namespace qsel {
namespace {

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? std::string(v) : std::string();
}

bool truthy(const std::string& v) {
  std::string l;
  for (char c : v) l += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return l == "1" || l == "true" || l == "yes" || l == "on";
}

// Whole seconds in [1, 600] from a variable; `fallback` when unset.
long seconds(const char* name, long fallback) {
  std::string v = env(name);
  if (v.empty()) return fallback;
  long s = 0;
  bool ok = v.size() <= 6;
  for (char c : v) ok = ok && c >= '0' && c <= '9';
  if (ok) s = std::stol(v);
  if (!ok || s < 1 || s > 600) throw UsageError(fmt::format("{}={}: expected whole seconds from 1 to 600", name, quote_value(v)));
  return s;
}

std::string trimmed(std::string_view s) { return std::string(trim(s)); }

}  // namespace

HubSettings hub_settings_from_environment(bool offline_flag, bool show_progress) {
  HubSettings s;
  if (std::string e = env("HF_ENDPOINT"); !e.empty()) {
    // Any case of scheme and host; a user:password@ is kept apart and never shown.
    auto u = parse_url(e);
    if (!u) throw UsageError(fmt::format("HF_ENDPOINT={}: expected an http:// or https:// URL", quote_value(redact_url(e))));
    s.endpoint = u->shown;
    while (!s.endpoint.empty() && s.endpoint.back() == '/') s.endpoint.pop_back();
    s.user = u->user;
    s.password = u->password;
  }
  s.offline = offline_flag || truthy(env("HF_HUB_OFFLINE"));
  s.http.stall_timeout_s = seconds("HF_HUB_DOWNLOAD_TIMEOUT", 10);
  s.http.connect_timeout_s = seconds("HF_HUB_ETAG_TIMEOUT", 10);
  s.progress = show_progress;
  // The token: HF_TOKEN, else the file `huggingface-cli login` / `hf auth login` writes.
  if (std::string t = env("HF_TOKEN"); !t.empty()) {
    s.token = trimmed(t);
    s.token_from = "HF_TOKEN";
  } else if (std::string t2 = env("HUGGING_FACE_HUB_TOKEN"); !t2.empty()) {
    s.token = trimmed(t2);
    s.token_from = "HUGGING_FACE_HUB_TOKEN";
  } else {
    std::string file = env("HF_TOKEN_PATH");
    if (file.empty()) {
      std::string hf_home = env("HF_HOME");
      if (hf_home.empty() && !env("XDG_CACHE_HOME").empty()) hf_home = env("XDG_CACHE_HOME") + "/huggingface";
      if (hf_home.empty() && !env("HOME").empty()) hf_home = env("HOME") + "/.cache/huggingface";
      if (!hf_home.empty()) file = hf_home + "/token";
    }
    std::error_code ec;
    if (!file.empty() && std::filesystem::is_regular_file(file, ec)) {
      // A file that cannot be read fails the first request to the Hub, not a command that needs none.
      s.token_from = file;
      try {
        s.token = trimmed(read_text_file(file, 4096, "Hugging Face token file"));
        if (s.token.find_first_of("\r\n") != std::string::npos)
          throw UsageError(fmt::format("{}: the token holds a line break; expected one line", file));
      } catch (const UsageError& e) {
        s.token.clear();
        s.token_problem = fmt::format("{} (the token file: HF_TOKEN_PATH, or HF_HOME/token)", e.what());
      }
    }
  }
  if (s.token.find_first_of("\r\n") != std::string::npos)
    throw UsageError(fmt::format("{}: the token holds a line break; expected one line", s.token_from));
  if (std::string d = env("QSEL_CACHE_DIR"); !d.empty()) s.cache_dir = d;
  else if (std::string x = env("XDG_CACHE_HOME"); !x.empty()) s.cache_dir = x + "/qsel";
  else if (std::string h = env("HOME"); !h.empty()) s.cache_dir = h + "/.cache/qsel";
  return s;
}

}  // namespace qsel
