// Reading a model name the way the Hub spells it: ORG/NAME[@REVISION][:TAG],
// hf://…, a huggingface.co URL (…/resolve|blob|tree/REV/PATH), or a .gguf URL.
#include <algorithm>

#include <fmt/format.h>

#include "qsel/core/errors.h"
#include "qsel/core/text.h"
#include "qsel/model/hub.h"
#include "qsel/net/url.h"

namespace qsel {
namespace {

constexpr std::size_t kMaxName = 96;  // the Hub's limit for an owner or a repository name

bool name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.'; }

// One owner or repository name as the Hub allows it.
bool hub_name(std::string_view s) {
  return !s.empty() && s.size() <= kMaxName && std::isalnum(static_cast<unsigned char>(s.front())) &&
         std::all_of(s.begin(), s.end(), name_char) && s.find("..") == std::string_view::npos && s.back() != '.';
}

bool revision_ok(std::string_view s) {
  return !s.empty() && s.size() <= 200 && s.find("..") == std::string_view::npos && s.front() != '/' && s.back() != '/' &&
         std::all_of(s.begin(), s.end(), [](char c) { return name_char(c) || c == '/'; });
}

bool tag_ok(std::string_view s) { return !s.empty() && s.size() <= 64 && std::all_of(s.begin(), s.end(), name_char); }

// A path inside a repository: segments of name characters, no "." or "..".
bool repo_path_ok(std::string_view s) {
  if (s.empty() || s.size() > 1000) return false;
  std::size_t start = 0;
  while (start <= s.size()) {
    std::size_t end = s.find('/', start);
    std::string_view seg = s.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
    if (seg.empty() || seg == "." || seg == ".." || !std::all_of(seg.begin(), seg.end(), [](char c) { return name_char(c) || c == '+'; }))
      return false;
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return true;
}

std::string percent_decoded_slashes(std::string_view s) {  // "refs%2Fpr%2F1" -> "refs/pr/1"
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() + 0 && (s.substr(i, 3) == "%2F" || s.substr(i, 3) == "%2f")) {
      out += '/';
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

// A message about `name`, which never shows a URL's user:password@.
[[noreturn]] void bad(std::string_view name, const std::string& what) {
  throw UsageError(fmt::format("{}: {}", quote_value(redact_url(name)), what));
}

// ORG/NAME[@REV][:TAG]; nullopt unless the first two parts are Hub names.
std::optional<HubRef> plain(std::string_view name, std::string_view original) {
  std::size_t slash = name.find('/');
  if (slash == std::string_view::npos) return std::nullopt;
  std::size_t stop = name.find_first_of("@:", slash);
  std::string_view owner = name.substr(0, slash);
  std::string_view repo = name.substr(slash + 1, stop == std::string_view::npos ? std::string_view::npos : stop - slash - 1);
  if (!hub_name(owner) || !hub_name(repo)) return std::nullopt;
  HubRef r;
  r.repo = fmt::format("{}/{}", owner, repo);
  if (stop == std::string_view::npos) return r;
  std::string_view rest = name.substr(stop);
  if (rest.front() == '@') {
    std::size_t colon = rest.rfind(':');
    std::string_view rev = rest.substr(1, colon == std::string_view::npos ? std::string_view::npos : colon - 1);
    if (!revision_ok(rev)) bad(original, "expected a revision (a branch, tag or commit) after '@'");
    r.revision = std::string(rev);
    r.revision_given = true;
    rest = colon == std::string_view::npos ? std::string_view() : rest.substr(colon);
  }
  if (!rest.empty()) {
    if (rest.front() != ':' || !tag_ok(rest.substr(1))) bad(original, "expected a GGUF quantization tag after ':' (ORG/NAME:Q4_K_M)");
    r.tag = std::string(rest.substr(1));
  }
  return r;
}

}  // namespace

std::string HubRef::display() const {
  if (!url.empty()) return url;
  std::string out = repo;
  if (revision_given) out += "@" + revision;
  if (!file.empty()) out += "/" + file;
  if (!tag.empty()) out += ":" + tag;
  return out;
}

std::optional<HubRef> parse_hub_ref(std::string_view name, const std::string& endpoint) {
  if (name.size() > 2000) return std::nullopt;
  if (name.starts_with("hf://")) {
    auto r = plain(name.substr(5), name);
    if (!r) bad(name, "expected hf://ORG/NAME[@REVISION][:TAG]");
    return r;
  }
  auto url = parse_url(name);
  if (!url) {
    if (name.find("://") != std::string_view::npos && (to_lower(name.substr(0, 7)) == "http://" || to_lower(name.substr(0, 8)) == "https://"))
      bad(name, "not a URL qsel can read");
    return plain(name, name);
  }
  const std::string& host = url->host;
  std::string_view rest = name.substr(name.find("//") + 2);
  std::size_t path_at = rest.find('/');
  std::string_view path = path_at == std::string_view::npos ? std::string_view() : rest.substr(path_at + 1);
  path = path.substr(0, path.find_first_of("?#"));
  bool hub = host == url_host(endpoint) || host == "huggingface.co" || host == "hf.co";
  if (!hub) {
    if (!to_lower(path).ends_with(".gguf")) bad(name, "qsel reads a Hugging Face model URL or the URL of a .gguf file");
    HubRef r;
    r.url = url->shown.substr(0, url->shown.find('#'));
    r.user = url->user;  // they authenticate this URL's requests; shown nowhere
    r.password = url->password;
    return r;
  }
  if (path.starts_with("datasets/") || path.starts_with("spaces/")) bad(name, "a dataset or a Space, not a model repository");
  // ORG/NAME[/(resolve|blob|tree)/REV[/PATH]]
  std::vector<std::string_view> seg;
  for (std::size_t at = 0; at <= path.size() && seg.size() < 200;) {
    std::size_t end = path.find('/', at);
    seg.push_back(path.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at));
    if (end == std::string_view::npos) break;
    at = end + 1;
  }
  while (!seg.empty() && seg.back().empty()) seg.pop_back();
  if (seg.size() < 2 || !hub_name(seg[0]) || !hub_name(seg[1])) bad(name, "expected https://HOST/ORG/NAME for a model repository");
  HubRef r;
  r.repo = fmt::format("{}/{}", seg[0], seg[1]);
  if (same_origin(name, endpoint)) {  // credentials go to the host they were written for, or nowhere
    r.user = url->user;
    r.password = url->password;
  }
  if (seg.size() == 2) return r;
  if (seg.size() < 4 || (seg[2] != "resolve" && seg[2] != "blob" && seg[2] != "tree"))
    bad(name, "expected …/ORG/NAME/resolve/REVISION/FILE (or blob/ or tree/)");
  r.revision = percent_decoded_slashes(seg[3]);
  r.revision_given = true;
  if (!revision_ok(r.revision)) bad(name, "expected a revision (a branch, tag or commit) after resolve/");
  std::string file;
  for (std::size_t i = 4; i < seg.size(); ++i) file += (file.empty() ? "" : "/") + std::string(seg[i]);
  if (!file.empty() && !repo_path_ok(file)) bad(name, "expected a file path of letters, digits and . _ - + in the repository");
  if (seg[2] == "tree") {
    if (!file.empty()) bad(name, "a folder inside the repository; name the repository or one file");
  } else {
    if (file.empty()) bad(name, "expected a file after the revision");
    r.file = file;
  }
  return r;
}

}  // namespace qsel
