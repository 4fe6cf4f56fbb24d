#include "qsel/core/citation.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <ctime>

#include <fmt/format.h>

namespace qsel {
using nlohmann::json;
namespace {

std::string str(const json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// A file a reader opens as documentation, not code: README.md, a .rst page, a PDF.
bool documentation(std::string_view path) {
  std::size_t cut = path.find_first_of("#?");
  if (cut != std::string_view::npos) path = path.substr(0, cut);
  static constexpr std::array<std::string_view, 7> kDocs = {".md", ".rst", ".txt", ".pdf", ".asciidoc", ".adoc", ".html"};
  return std::any_of(kDocs.begin(), kDocs.end(), [&](std::string_view ext) { return path.ends_with(ext); });
}

// https://github.com/OWNER/NAME/(blob|tree)/REF/PATH -> repo, ref, path.
bool github_file(std::string_view url, Citation& c) {
  constexpr std::string_view kHost = "https://github.com/";
  if (!url.starts_with(kHost)) return false;
  std::string_view rest = url.substr(kHost.size());
  std::array<std::string_view, 4> part;  // owner, name, blob|tree, ref
  for (auto& p : part) {
    std::size_t slash = rest.find('/');
    if (slash == std::string_view::npos || slash == 0) return false;
    p = rest.substr(0, slash);
    rest = rest.substr(slash + 1);
  }
  if (part[2] != "blob" && part[2] != "tree") return false;
  std::size_t cut = rest.find_first_of("#?");
  c.repo = std::string(part[0]) + "/" + std::string(part[1]);
  c.ref = std::string(part[3]);
  c.path = std::string(cut == std::string_view::npos ? rest : rest.substr(0, cut));
  return !documentation(c.path) && !c.path.empty();
}

void walk(const json& node, const std::string& pointer, bool is_source,
          const std::function<void(const std::string&, const json&)>& fn) {
  if (is_source && node.is_object()) {
    fn(pointer, node);
    return;
  }
  if (node.is_object()) {
    for (auto it = node.begin(); it != node.end(); ++it) {
      std::string child = pointer + "/" + it.key();
      if (it.key() == "sources" && it->is_array()) {
        for (std::size_t i = 0; i < it->size(); ++i) walk((*it)[i], child + "/" + std::to_string(i), true, fn);
      } else {
        walk(*it, child, it.key() == "source", fn);
      }
    }
  } else if (node.is_array()) {
    for (std::size_t i = 0; i < node.size(); ++i) walk(node[i], pointer + "/" + std::to_string(i), false, fn);
  }
}

}  // namespace

int tier_rank(std::string_view tier) {
  for (std::size_t i = 0; i < std::size(kSourceTiers); ++i)
    if (kSourceTiers[i] == tier) return static_cast<int>(i);
  return -1;
}

bool is_census_note(const json& source) { return source.is_object() && read_citation(source).tier == "census"; }

bool is_commit(std::string_view s) {
  return s.size() == 40 && std::all_of(s.begin(), s.end(), [](char ch) { return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f'); });
}

Citation read_citation(const json& source) {
  Citation c;
  if (!source.is_object()) return c;
  std::string url = str(source, "url");
  c.code = github_file(url, c);
  if (!c.code) c.repo.clear(), c.ref.clear(), c.path.clear();
  if (!str(source, "repo").empty() || !str(source, "path").empty()) c.code = true;
  if (!str(source, "repo").empty()) c.repo = str(source, "repo");
  if (!str(source, "path").empty()) c.path = str(source, "path");
  c.commit = str(source, "commit");
  if (c.commit.empty() && is_commit(c.ref)) c.commit = c.ref;
  c.date = str(source, "date");
  c.tier = str(source, "tier");
  if (c.tier.empty()) {
    std::string title = str(source, "title");
    if (title.starts_with("doc 04") || title.starts_with("doc 23")) c.tier = "census";
    else if (c.code && is_commit(c.commit)) c.tier = "engine-code";
  }
  return c;
}

int date_days(std::string_view ymd) {
  if (ymd.size() != 10 || ymd[4] != '-' || ymd[7] != '-') return -1;
  auto number = [&](std::size_t at, std::size_t n) {
    int v = -1;
    auto [end, ec] = std::from_chars(ymd.data() + at, ymd.data() + at + n, v);
    return ec == std::errc() && end == ymd.data() + at + n ? v : -1;
  };
  int y = number(0, 4), m = number(5, 2), d = number(8, 2);
  if (y < 1970 || y > 9999 || m < 1 || m > 12 || d < 1) return -1;
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  if (d > kDays[m - 1] + (m == 2 && leap ? 1 : 0)) return -1;
  // Days from civil (H. Hinnant's algorithm).
  y -= m <= 2;
  int era = y / 400, yoe = y - era * 400;
  int doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  int doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

std::string days_to_date(int days) {
  // Civil from days (H. Hinnant's algorithm).
  int z = days + 719468, era = (z >= 0 ? z : z - 146096) / 146097;
  int doe = z - era * 146097, yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  int y = yoe + era * 400, doy = doe - (365 * yoe + yoe / 4 - yoe / 100), mp = (5 * doy + 2) / 153;
  int d = doy - (153 * mp + 2) / 5 + 1, m = mp + (mp < 10 ? 3 : -9);
  y += m <= 2;
  return fmt::format("{:04}-{:02}-{:02}", y, m, d);
}

int today_days() {
  if (const char* env = std::getenv("SOURCE_DATE_EPOCH")) {
    long long seconds = -1;
    std::string_view text(env);
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), seconds);
    if (ec == std::errc() && end == text.data() + text.size() && seconds >= 0 && seconds < 253402300800LL)
      return static_cast<int>(seconds / 86400);
  }
  return static_cast<int>(std::time(nullptr) / 86400);
}

Freshness freshness_of(const json& record) {
  Freshness f;
  for_each_source(record, [&](const std::string&, const json& source) {
    Citation c = read_citation(source);
    if (date_days(c.date) < 0) {
      if (c.code) ++f.undated_code;
      return;
    }
    ++f.dated;
    if (f.oldest.empty() || c.date < f.oldest) f.oldest = c.date;
    if (f.newest.empty() || c.date > f.newest) f.newest = c.date;
  });
  return f;
}

void for_each_source(const json& record, const std::function<void(const std::string&, const json&)>& fn) {
  walk(record, "", false, fn);
}

}  // namespace qsel
